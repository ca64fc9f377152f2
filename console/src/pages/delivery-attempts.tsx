import { format, useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";
import type { Owner } from "./delivery-log.js";

/**
 * One delivery's attempts (GET …/deliveries/:deliveryId), of an endpoint or an automation: each attempt's response
 * (status, the start of its body, the error), and the request every attempt sends (URL, the owner's own headers,
 * body). The signature headers are made afresh at each attempt and are not kept.
 */
export function AttemptLog({ owner, deliveryId }: { owner: Owner; deliveryId: string }) {
  const { language, t } = useI18n();
  const w = t.webhooks;
  const delivery = useLoad((aula) =>
    aula[owner.group].deliveries.get({ path: { id: owner.id, deliveryId } }),
  );
  const time = (iso: string) =>
    new Intl.DateTimeFormat(language, { dateStyle: "short", timeStyle: "medium" }).format(new Date(iso));
  return (
    <section className="card" aria-labelledby={`attempts-${deliveryId}`}>
      <h3 id={`attempts-${deliveryId}`}>{format(w.attemptsTitle, { id: deliveryId.slice(0, 8) })}</h3>
      {delivery.state === "failed" && <ProblemView problem={delivery.problem} />}
      {delivery.state === "ok" && (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">{w.attempt}</th>
                <th scope="col">{w.startedAt}</th>
                <th scope="col">{w.duration}</th>
                <th scope="col">{w.outcome}</th>
                <th scope="col">{w.response}</th>
                <th scope="col">{w.error}</th>
              </tr>
            </thead>
            <tbody>
              {delivery.value.attemptLog.map((a) => (
                <tr key={a.attempt}>
                  <th scope="row">{a.attempt}</th>
                  <td>{time(a.startedAt)}</td>
                  <td>
                    {new Intl.NumberFormat(language, { style: "unit", unit: "millisecond" }).format(
                      a.durationMs,
                    )}
                  </td>
                  <td>{w.outcomes[a.outcome]}</td>
                  <td>
                    {a.statusCode ?? w.dash}
                    {a.responseExcerpt && <pre className="excerpt">{a.responseExcerpt}</pre>}
                  </td>
                  <td>{a.error ?? w.dash}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {delivery.value.attemptLog.length === 0 && <p>{w.noAttempts}</p>}
          <h4>{w.request}</h4>
          <dl className="request">
            <dt>{w.requestUrl}</dt>
            <dd>
              <code>{delivery.value.request.url}</code>
            </dd>
            <dt>{w.requestHeaders}</dt>
            <dd>
              {Object.keys(delivery.value.request.headers).length === 0 ? (
                w.noHeaders
              ) : (
                <pre className="excerpt">
                  {Object.entries(delivery.value.request.headers)
                    .map(([name, value]) => `${name}: ${value}`)
                    .join("\n")}
                </pre>
              )}
            </dd>
            <dt>{w.requestBody}</dt>
            <dd>
              <pre className="excerpt request-body">{pretty(delivery.value.request.body)}</pre>
            </dd>
          </dl>
        </>
      )}
    </section>
  );
}

/** The body indented when it is JSON (it always is, but a render error leaves it empty). */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
