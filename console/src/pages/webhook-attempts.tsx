import { format, useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";

/**
 * One delivery's attempts (GET …/deliveries/:deliveryId): each attempt's response (status, the start of its
 * body, the error), and the request's body, which is the event itself (GET /events/:id). The API keeps no
 * request headers per attempt.
 */
export function AttemptLog(props: { endpointId: string; deliveryId: string; eventId: string }) {
  const { endpointId, deliveryId, eventId } = props;
  const { language, t } = useI18n();
  const w = t.webhooks;
  const delivery = useLoad((aula) => aula.webhooks.deliveries.get({ path: { id: endpointId, deliveryId } }));
  const event = useLoad((aula) => aula.events.get({ path: { id: eventId } }));
  const time = (iso: string) =>
    new Intl.DateTimeFormat(language, { dateStyle: "short", timeStyle: "medium" }).format(new Date(iso));
  return (
    <section className="card" aria-labelledby={`attempts-${deliveryId}`}>
      <h3 id={`attempts-${deliveryId}`}>{format(w.attemptsTitle, { id: deliveryId.slice(0, 8) })}</h3>
      {delivery.state === "failed" && <ProblemView problem={delivery.problem} />}
      {delivery.state === "ok" && (
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
      )}
      <h4>{w.request}</h4>
      {event.state === "failed" && <ProblemView problem={event.problem} />}
      {event.state === "ok" && (
        <pre className="excerpt event-body">{JSON.stringify(event.value, null, 2)}</pre>
      )}
    </section>
  );
}
