import { useEffect, useRef, useState } from "react";
import { type Problem, problemOf } from "../api.js";
import { format, useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";
import { useCall } from "../session.js";
import { type CreatedKey, CreateKeyForm } from "./api-key-form.js";

/** The secret of the key just made, shown this once with a copy button; gone from memory once dismissed. */
function SecretOnce({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState<string>();
  const box = useRef<HTMLInputElement>(null);
  // Where the eyes and the screen reader go next: the secret, selected, ready to copy.
  useEffect(() => {
    box.current?.focus();
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied(t.keys.copied);
    } catch {
      setCopied(t.keys.copyFailed);
    }
  };
  return (
    <section className="card secret" aria-labelledby="secret-title">
      <h2 id="secret-title">{t.keys.secretTitle}</h2>
      <p>{t.keys.secretOnce}</p>
      <label htmlFor="secret">{format(t.keys.secretLabel, { name: created.name })}</label>
      <div className="row">
        <input id="secret" ref={box} readOnly value={created.secret} onFocus={(e) => e.target.select()} />
        <button type="button" onClick={() => void copy()}>
          {t.keys.copy}
        </button>
      </div>
      <p aria-live="polite">{copied}</p>
      <button type="button" className="secondary" onClick={onDone}>
        {t.keys.done}
      </button>
    </section>
  );
}

/**
 * API keys: the active ones (GET), a new one (POST, its secret shown once) and revocation after a confirmation
 * (DELETE). The form shows only when the list could be read: the same administrators' sessions may do both, so
 * a session the API refuses sees the API's refusal instead of a form that would fail.
 */
export function ApiKeysPage() {
  const { language, t } = useI18n();
  const call = useCall();
  const [version, setVersion] = useState(0);
  const [created, setCreated] = useState<CreatedKey>();
  const [confirming, setConfirming] = useState<string>();
  const [problem, setProblem] = useState<Problem>();
  const [notice, setNotice] = useState<string>();
  const keys = useLoad((aula) => aula.apiKeys.list({ query: { perPage: 100 } }), version);
  const date = (iso: string) =>
    new Intl.DateTimeFormat(language, { dateStyle: "medium" }).format(new Date(iso));

  const revoke = async (id: string, name: string) => {
    setProblem(undefined);
    try {
      await call((aula) => aula.apiKeys.delete({ path: { id } }));
      setNotice(format(t.keys.revoked, { name }));
      setConfirming(undefined);
      setVersion((v) => v + 1);
    } catch (err) {
      setProblem(problemOf(err, t));
    }
  };

  return (
    <>
      <h1>{t.keys.title}</h1>
      <p>{t.keys.intro}</p>
      {created && <SecretOnce created={created} onDone={() => setCreated(undefined)} />}
      <p aria-live="polite">{notice}</p>
      <ProblemView problem={problem} />
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">{t.keys.listTitle}</h2>
        {keys.state === "loading" && <p>{t.loading}</p>}
        {keys.state === "failed" && <ProblemView problem={keys.problem} />}
        {keys.state === "ok" && keys.value.data.length === 0 && <p>{t.keys.none}</p>}
        {keys.state === "ok" && keys.value.data.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">{t.keys.name}</th>
                <th scope="col">{t.keys.prefix}</th>
                <th scope="col">{t.keys.scopes}</th>
                <th scope="col">{t.keys.tier}</th>
                <th scope="col">{t.keys.created}</th>
                <th scope="col">{t.keys.lastUsed}</th>
                <th scope="col">{t.keys.actions}</th>
              </tr>
            </thead>
            <tbody>
              {keys.value.data.map((key) => (
                <tr key={key.id}>
                  <th scope="row">{key.name}</th>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>{key.scopes.length === 0 ? t.keys.allScopes : key.scopes.join(", ")}</td>
                  <td>{t.keys.tiers[key.rateTier]}</td>
                  <td>{date(key.createdAt)}</td>
                  <td>{key.lastUsedAt === null ? t.keys.never : date(key.lastUsedAt)}</td>
                  <td>
                    {confirming === key.id ? (
                      <div className="confirm">
                        <p>{format(t.keys.confirmRevoke, { name: key.name })}</p>
                        <button
                          type="button"
                          className="danger"
                          onClick={() => void revoke(key.id, key.name)}
                        >
                          {t.keys.confirm}
                        </button>{" "}
                        <button type="button" className="secondary" onClick={() => setConfirming(undefined)}>
                          {t.keys.cancel}
                        </button>
                      </div>
                    ) : (
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`${t.keys.revoke} ${key.name}`}
                        onClick={() => setConfirming(key.id)}
                      >
                        {t.keys.revoke}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {keys.state === "ok" && (
        <CreateKeyForm
          onCreated={(key) => {
            setCreated(key);
            setNotice(undefined);
            setVersion((v) => v + 1);
          }}
        />
      )}
    </>
  );
}
