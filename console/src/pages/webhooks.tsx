import { useState } from "react";
import { format, useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";
import { DeliveryLog } from "./delivery-log.js";
import { SecretCard } from "./secret-card.js";
import { type CreatedEndpoint, CreateEndpointForm } from "./webhook-form.js";

/**
 * Webhook endpoints (GET /webhooks; administrators' only, so another session sees the API's 403 and no form),
 * a new one (POST, its signing secret shown as the answer carries it), and one endpoint's delivery log with its
 * test send.
 */
export default function WebhooksPage() {
  const { t } = useI18n();
  const w = t.webhooks;
  const [version, setVersion] = useState(0);
  const [created, setCreated] = useState<CreatedEndpoint>();
  const [selected, setSelected] = useState<{ id: string; url: string }>();
  const endpoints = useLoad((aula) => aula.webhooks.list({ query: { perPage: 100 } }), version);

  return (
    <>
      <h1>{w.title}</h1>
      <p>{w.intro}</p>
      {created && (
        <SecretCard text={w.created} secret={created.signingSecret} onClose={() => setCreated(undefined)} />
      )}
      <section aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">{w.listTitle}</h2>
        {endpoints.state === "loading" && <p>{t.loading}</p>}
        {endpoints.state === "failed" && <ProblemView problem={endpoints.problem} />}
        {endpoints.state === "ok" && endpoints.value.data.length === 0 && <p>{w.none}</p>}
        {endpoints.state === "ok" && endpoints.value.data.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">{w.url}</th>
                <th scope="col">{w.events}</th>
                <th scope="col">{w.state}</th>
                <th scope="col">{w.actions}</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.value.data.map((e) => (
                <tr key={e.id}>
                  <th scope="row">
                    <code>{e.url}</code>
                    {e.description && <div className="hint">{e.description}</div>}
                  </th>
                  <td>{e.eventTypes.join(", ")}</td>
                  <td>
                    {e.enabled
                      ? w.enabled
                      : `${w.disabled}${e.disabledReason ? ` (${e.disabledReason})` : ""}`}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`${w.showDeliveries} ${e.url}`}
                      aria-pressed={selected?.id === e.id}
                      onClick={() => setSelected({ id: e.id, url: e.url })}
                    >
                      {w.showDeliveries}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {selected && (
        <DeliveryLog
          key={selected.id}
          owner={{ group: "webhooks", id: selected.id }}
          title={format(w.deliveriesTitle, { url: selected.url })}
        />
      )}
      {endpoints.state === "ok" && (
        <CreateEndpointForm
          onCreated={(endpoint) => {
            setCreated(endpoint);
            setVersion((v) => v + 1);
          }}
        />
      )}
    </>
  );
}
