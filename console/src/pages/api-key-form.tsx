import { type FormEvent, useRef, useState } from "react";
import type { Aula } from "../../../sdk/src/client.js";
import { type Problem, problemOf } from "../api.js";
import { useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";
import { useCall } from "../session.js";

export type CreatedKey = Awaited<ReturnType<Aula["apiKeys"]["create"]>>;
type Tier = CreatedKey["rateTier"];
const TIERS: readonly Tier[] = ["standard", "high", "custom"];

/** POST /api/institution/api-keys with a name, the scopes chosen from the API's own catalogue, and a rate tier. */
export function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedKey) => void }) {
  const { t } = useI18n();
  const call = useCall();
  const catalogue = useLoad((aula) => aula.scopes.get());
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>([]);
  const [tier, setTier] = useState<Tier>("standard");
  const [perHour, setPerHour] = useState("1000");
  const [perMinute, setPerMinute] = useState("60");
  const [working, setWorking] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const nameInput = useRef<HTMLInputElement>(null);

  const toggle = (scope: string, on: boolean) =>
    setScopes((now) => (on ? [...now, scope] : now.filter((s) => s !== scope)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setWorking(true);
    setProblem(undefined);
    try {
      const customLimits =
        tier === "custom" ? { perHour: Number(perHour), perMinute: Number(perMinute) } : undefined;
      const key = await call((aula) =>
        aula.apiKeys.create({
          body: { name, scopes, rateTier: tier, ...(customLimits && { customLimits }) },
        }),
      );
      setName("");
      setScopes([]);
      setTier("standard");
      onCreated(key);
    } catch (err) {
      setProblem(problemOf(err, t));
      nameInput.current?.focus();
    } finally {
      setWorking(false);
    }
  };

  return (
    <section className="card" aria-labelledby="create-title">
      <h2 id="create-title">{t.keys.createTitle}</h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor="key-name">{t.keys.name}</label>
        <input
          id="key-name"
          ref={nameInput}
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
        />
        <fieldset>
          <legend>{t.keys.scopesLegend}</legend>
          <p className="hint" id="scopes-hint">
            {t.keys.scopesHint}
          </p>
          {catalogue.state === "failed" && <ProblemView problem={catalogue.problem} />}
          {catalogue.state === "ok" && (
            <div className="scopes">
              {catalogue.value.data.map((entry) => (
                <label key={entry.scope} className="check" title={entry.description}>
                  <input
                    type="checkbox"
                    checked={scopes.includes(entry.scope)}
                    onChange={(e) => toggle(entry.scope, e.target.checked)}
                  />{" "}
                  <code>{entry.scope}</code>
                </label>
              ))}
            </div>
          )}
        </fieldset>
        <label htmlFor="key-tier">{t.keys.tier}</label>
        <select id="key-tier" value={tier} onChange={(e) => setTier(e.target.value as Tier)}>
          {TIERS.map((tierName) => (
            <option key={tierName} value={tierName}>
              {t.keys.tiers[tierName]}
            </option>
          ))}
        </select>
        {tier === "custom" && (
          <div className="row">
            <span>
              <label htmlFor="per-hour">{t.keys.perHour}</label>
              <input
                id="per-hour"
                inputMode="numeric"
                value={perHour}
                onChange={(e) => setPerHour(e.target.value)}
              />
            </span>
            <span>
              <label htmlFor="per-minute">{t.keys.perMinute}</label>
              <input
                id="per-minute"
                inputMode="numeric"
                value={perMinute}
                onChange={(e) => setPerMinute(e.target.value)}
              />
            </span>
          </div>
        )}
        <button type="submit" disabled={working}>
          {working ? t.keys.working : t.keys.create}
        </button>
      </form>
      <ProblemView problem={problem} />
    </section>
  );
}
