import { useState } from "react";
import { type Problem, problemOf } from "../api.js";
import { format, useI18n } from "../i18n.js";
import { ProblemView } from "../problem.js";
import { useCall } from "../session.js";
import type { Owner } from "./delivery-log.js";

/** What either test route answers that the page shows. */
interface Outcome {
  conditionMatched?: boolean;
  renderError?: string;
  response?: { status: number; durationMs: number; body: string; truncated: boolean };
  sendError?: { kind: string; message: string };
  delivery?: { id: string };
}

/**
 * "Send test event": POST …/webhooks/:id/test or …/automations/:id/test with `send: true`, a sample of the owner's
 * event. An endpoint's test is a delivery in its log (`onSent` refreshes the log); an automation's is sent once
 * and logged nowhere, which the result says.
 */
export function TestSend({ owner, onSent }: { owner: Owner; onSent: () => void }) {
  const { language, t } = useI18n();
  const w = t.webhooks;
  const call = useCall();
  const [working, setWorking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const [problem, setProblem] = useState<Problem>();

  const send = async () => {
    setWorking(true);
    setOutcome(undefined);
    setProblem(undefined);
    try {
      const path = { id: owner.id };
      const result: Outcome =
        owner.group === "webhooks"
          ? await call((aula) => aula.webhooks.test({ path, body: { send: true } }))
          : await call((aula) => aula.automations.test({ path, body: { send: true } }));
      setOutcome(result);
      onSent();
    } catch (err) {
      setProblem(problemOf(err, t));
    } finally {
      setWorking(false);
    }
  };
  const ms = (n: number) => new Intl.NumberFormat(language, { style: "unit", unit: "millisecond" }).format(n);

  return (
    <div className="test-send">
      <button type="button" onClick={() => void send()} disabled={working}>
        {working ? w.testSending : w.testSend}
      </button>
      <div aria-live="polite" className="test-result">
        {outcome?.conditionMatched === false && <p>{w.testConditionFalse}</p>}
        {outcome?.renderError !== undefined && (
          <p>{format(w.testNotSent, { message: outcome.renderError })}</p>
        )}
        {outcome?.sendError !== undefined && (
          <p>{format(w.testNotSent, { message: outcome.sendError.message })}</p>
        )}
        {outcome?.response !== undefined && (
          <>
            <p>
              {format(w.testAnswered, {
                status: String(outcome.response.status),
                duration: ms(outcome.response.durationMs),
              })}
            </p>
            {outcome.response.body !== "" && <pre className="excerpt">{outcome.response.body}</pre>}
          </>
        )}
        {outcome !== undefined && <p>{outcome.delivery === undefined ? w.testNotLogged : w.testLogged}</p>}
      </div>
      <ProblemView problem={problem} />
    </div>
  );
}
