import { useState } from "react";
import { type Problem, problemOf } from "../api.js";
import { format, useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";
import { useCall } from "../session.js";
import { AttemptLog } from "./delivery-attempts.js";
import { TestSend } from "./test-send.js";

/** Whose deliveries: a webhook endpoint's (under /webhooks) or an automation's (under /automations). */
export interface Owner {
  group: "webhooks" | "automations";
  id: string;
}

/**
 * One endpoint's or automation's delivery log (GET …/:id/deliveries, newest first) with its last hour (GET
 * …/:id/stats: the success rate), a test send, each delivery's attempts on demand, and redelivery (POST
 * …/redeliver, a new delivery due now). The two groups' routes take and answer the same shapes.
 */
export function DeliveryLog({ owner, title }: { owner: Owner; title: string }) {
  const { language, t } = useI18n();
  const w = t.webhooks;
  const call = useCall();
  const [version, setVersion] = useState(0);
  const [open, setOpen] = useState<string>();
  const [problem, setProblem] = useState<Problem>();
  const [notice, setNotice] = useState<string>();
  const path = { id: owner.id };
  const stats = useLoad((aula) => aula[owner.group].stats.get({ path }), version);
  const deliveries = useLoad(
    (aula) => aula[owner.group].deliveries.list({ path, query: { perPage: 20 } }),
    version,
  );
  const number = (n: number) => new Intl.NumberFormat(language).format(n);
  const time = (iso: string) =>
    new Intl.DateTimeFormat(language, { dateStyle: "short", timeStyle: "medium" }).format(new Date(iso));

  const redeliver = async (deliveryId: string, eventType: string) => {
    setProblem(undefined);
    setNotice(undefined);
    try {
      await call((aula) => aula[owner.group].deliveries.redeliver({ path: { ...path, deliveryId } }));
      setNotice(format(w.redelivered, { event: eventType }));
      setVersion((v) => v + 1);
    } catch (err) {
      setProblem(problemOf(err, t));
    }
  };

  return (
    <section className="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">{title}</h2>
      <div className="row">
        <TestSend owner={owner} onSent={() => setVersion((v) => v + 1)} />
        <button type="button" className="secondary" onClick={() => setVersion((v) => v + 1)}>
          {w.refresh}
        </button>
      </div>
      <h3>{w.statsTitle}</h3>
      {stats.state === "failed" && <ProblemView problem={stats.problem} />}
      {stats.state === "ok" && (
        <dl className="stats">
          <dt>{w.successRate}</dt>
          <dd className="figure">
            {stats.value.lastHour.successRate === null
              ? w.noRate
              : new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 1 }).format(
                  stats.value.lastHour.successRate,
                )}
          </dd>
          <dt>{w.attempts}</dt>
          <dd>{number(stats.value.lastHour.attempts)}</dd>
          <dt>{w.succeeded}</dt>
          <dd>{number(stats.value.lastHour.succeeded)}</dd>
          <dt>{w.pending}</dt>
          <dd>{number(stats.value.pending)}</dd>
        </dl>
      )}
      <p aria-live="polite">{notice}</p>
      <ProblemView problem={problem} />
      {deliveries.state === "failed" && <ProblemView problem={deliveries.problem} />}
      {deliveries.state === "ok" && deliveries.value.data.length === 0 && <p>{w.noDeliveries}</p>}
      {deliveries.state === "ok" && deliveries.value.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">{w.eventType}</th>
              <th scope="col">{w.status}</th>
              <th scope="col">{w.attempts}</th>
              <th scope="col">{w.lastStatus}</th>
              <th scope="col">{w.createdAt}</th>
              <th scope="col">{w.actions}</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.value.data.map((d) => (
              <tr key={d.id}>
                <th scope="row">{d.eventType}</th>
                <td>{w.statuses[d.status]}</td>
                <td>{number(d.attempts)}</td>
                <td>{d.lastStatusCode ?? w.dash}</td>
                <td>{time(d.createdAt)}</td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`${w.showAttempts} ${d.eventType} ${time(d.createdAt)}`}
                    aria-expanded={open === d.id}
                    onClick={() => setOpen(open === d.id ? undefined : d.id)}
                  >
                    {w.showAttempts}
                  </button>{" "}
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`${w.redeliver} ${d.eventType} ${time(d.createdAt)}`}
                    onClick={() => void redeliver(d.id, d.eventType)}
                  >
                    {w.redeliver}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <AttemptLog key={open} owner={owner} deliveryId={open} />}
    </section>
  );
}
