import { useState } from "react";
import { type Problem, problemOf } from "../api.js";
import { format, useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";
import { useCall, useSession } from "../session.js";
import { applyTheme } from "../theme.js";

/**
 * The active theme (GET /themes/active/variables) and the institution's themes (GET /themes); an administrator
 * activates another (POST /themes/:id/activate) and the console wears it at once, read back through the same
 * public route it wore at start. Teachers read the list; activating is an administrator's.
 */
export function ThemesPanel() {
  const { t } = useI18n();
  const th = t.themes;
  const call = useCall();
  const { aula, user } = useSession();
  const admin = user.role === "institution_admin";
  const [version, setVersion] = useState(0);
  const [working, setWorking] = useState<string>();
  const [problem, setProblem] = useState<Problem>();
  const [notice, setNotice] = useState<string>();
  const active = useLoad((a) => a.themes.active.variables.get(), version);
  const themes = useLoad((a) => a.themes.list({ query: { perPage: 100 } }), version);

  const activate = async (id: string, name: string) => {
    setWorking(id);
    setProblem(undefined);
    setNotice(undefined);
    try {
      await call((a) => a.themes.activate({ path: { id } }));
      await applyTheme(aula);
      setNotice(format(th.activated, { name }));
      setVersion((v) => v + 1);
    } catch (err) {
      setProblem(problemOf(err, t));
    } finally {
      setWorking(undefined);
    }
  };

  return (
    <section aria-labelledby="themes-title">
      <h2 id="themes-title">{th.title}</h2>
      <p className="hint">{th.intro}</p>
      <div className="card">
        <h3>{th.activeTitle}</h3>
        {active.state === "loading" && <p>{t.loading}</p>}
        {active.state === "failed" && <ProblemView problem={active.problem} />}
        {active.state === "ok" && active.value !== undefined && (
          <>
            {active.value.themeId === null && <p>{th.noneActive}</p>}
            <dl className="variables">
              {Object.entries(active.value.variables).map(([name, value]) => (
                <div key={name}>
                  <dt>{(th.variables as Record<string, string>)[name] ?? name}</dt>
                  <dd>
                    <code>{String(value)}</code>
                  </dd>
                </div>
              ))}
            </dl>
          </>
        )}
      </div>
      <p aria-live="polite">{notice}</p>
      <ProblemView problem={problem} />
      {themes.state === "loading" && <p>{t.loading}</p>}
      {themes.state === "failed" && <ProblemView problem={themes.problem} />}
      {themes.state === "ok" && themes.value.data.length === 0 && <p>{th.none}</p>}
      {themes.state === "ok" && themes.value.data.length > 0 && (
        <table>
          <caption>{th.listTitle}</caption>
          <thead>
            <tr>
              <th scope="col">{th.name}</th>
              <th scope="col">{th.status}</th>
              <th scope="col">{th.version}</th>
              {admin && <th scope="col">{th.actions}</th>}
            </tr>
          </thead>
          <tbody>
            {themes.value.data.map((theme) => (
              <tr key={theme.id}>
                <th scope="row">{theme.name}</th>
                <td>{th.statuses[theme.status]}</td>
                <td>{theme.version}</td>
                {admin && (
                  <td>
                    {theme.status !== "active" && (
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`${th.activate} ${theme.name}`}
                        disabled={working !== undefined}
                        onClick={() => void activate(theme.id, theme.name)}
                      >
                        {working === theme.id ? th.activating : th.activate}
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
