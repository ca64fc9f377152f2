import { type FormEvent, useRef, useState } from "react";
import { type Problem, problemOf } from "../api.js";
import { usersOfCsv } from "../csv.js";
import { format, useI18n } from "../i18n.js";
import { ProblemView } from "../problem.js";
import { useCall } from "../session.js";
import { importUsers, type RowOutcome } from "./user-import-run.js";

/** The rows of an import, each with what the API made of it. */
function Results({ outcomes }: { outcomes: RowOutcome[] }) {
  const { language, t } = useI18n();
  const u = t.users;
  const number = (n: number) => new Intl.NumberFormat(language).format(n);
  const created = outcomes.filter((o) => o.status === "created").length;
  return (
    <section aria-labelledby="import-results">
      <h3 id="import-results">{u.resultsTitle}</h3>
      <p role="status">
        {format(u.summary, {
          created: number(created),
          notCreated: number(outcomes.length - created),
          total: number(outcomes.length),
        })}
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">{u.row}</th>
            <th scope="col">{u.email}</th>
            <th scope="col">{u.outcome}</th>
          </tr>
        </thead>
        <tbody>
          {outcomes.map((o) => (
            <tr key={o.user.row} className={o.status === "created" ? undefined : "not-created"}>
              <th scope="row">{number(o.user.row)}</th>
              <td>{o.user.email}</td>
              <td>
                {u.outcomes[o.status]}
                {o.status === "skipped" && <> — {u.emailTaken}</>}
                {o.messages.map((m) => (
                  <span key={m} className="row-message">
                    {" "}
                    — {m}
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * Users from a CSV file picked by the person, read in the browser and sent to POST /users/bulk; the answer is
 * shown row by row (created, or why not, in the API's words).
 */
export function ImportUsersForm({ onImported }: { onImported: () => void }) {
  const { language, t } = useI18n();
  const u = t.users;
  const call = useCall();
  const file = useRef<HTMLInputElement>(null);
  const [working, setWorking] = useState<number>();
  const [problem, setProblem] = useState<Problem>();
  const [outcomes, setOutcomes] = useState<RowOutcome[]>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    setOutcomes(undefined);
    const chosen = file.current?.files?.[0];
    const users = chosen === undefined ? undefined : usersOfCsv(await chosen.text());
    if (users === undefined || users.length === 0) {
      setProblem({ message: u.badFile, details: [] });
      return;
    }
    setWorking(users.length);
    try {
      setOutcomes(await importUsers(call, users));
      onImported();
    } catch (err) {
      setProblem(problemOf(err, t));
    } finally {
      setWorking(undefined);
    }
  };

  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">{u.importTitle}</h2>
      <p className="hint" id="import-hint">
        {u.importHint}
      </p>
      <form onSubmit={(e) => void submit(e)}>
        <label htmlFor="import-file">{u.file}</label>
        <input
          id="import-file"
          ref={file}
          type="file"
          accept=".csv,text/csv"
          required
          aria-describedby="import-hint"
        />
        <button type="submit" disabled={working !== undefined}>
          {u.import}
        </button>
      </form>
      <p aria-live="polite">
        {working !== undefined &&
          format(u.importing, { count: new Intl.NumberFormat(language).format(working) })}
      </p>
      <ProblemView problem={problem} />
      {outcomes && <Results outcomes={outcomes} />}
    </section>
  );
}
