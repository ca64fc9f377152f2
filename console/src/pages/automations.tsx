import { useState } from "react";
import { format, useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";
import { CreateAutomationForm, type CreatedAutomation } from "./automation-form.js";
import { DeliveryLog } from "./delivery-log.js";
import { SecretCard } from "./secret-card.js";

/**
 * Automations (GET /automations; administrators' only, so another session sees the API's 403 and no form), a new
 * one (POST, its signing secret shown as the answer carries it), and one automation's delivery log with its test
 * send, from the same components as the webhooks page.
 */
export default function AutomationsPage() {
  const { t } = useI18n();
  const m = t.automations;
  const w = t.webhooks;
  const [version, setVersion] = useState(0);
  const [created, setCreated] = useState<CreatedAutomation>();
  const [selected, setSelected] = useState<{ id: string; name: string }>();
  const automations = useLoad((aula) => aula.automations.list({ query: { perPage: 100 } }), version);

  return (
    <>
      <h1>{m.title}</h1>
      <p>{m.intro}</p>
      {created && (
        <SecretCard
          text={m.created}
          secret={created.signingSecret}
          {...(created.inboundUrl !== undefined && { inboundUrl: created.inboundUrl })}
          onClose={() => setCreated(undefined)}
        />
      )}
      <section aria-labelledby="automations-title">
        <h2 id="automations-title">{m.listTitle}</h2>
        {automations.state === "loading" && <p>{t.loading}</p>}
        {automations.state === "failed" && <ProblemView problem={automations.problem} />}
        {automations.state === "ok" && automations.value.data.length === 0 && <p>{m.none}</p>}
        {automations.state === "ok" && automations.value.data.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">{m.name}</th>
                <th scope="col">{m.trigger}</th>
                <th scope="col">{m.url}</th>
                <th scope="col">{m.state}</th>
                <th scope="col">{m.actions}</th>
              </tr>
            </thead>
            <tbody>
              {automations.value.data.map((a) => (
                <tr key={a.id}>
                  <th scope="row">{a.name}</th>
                  <td>{a.trigger.event}</td>
                  <td>
                    <code>{a.action.url}</code>
                  </td>
                  <td>
                    {a.enabled
                      ? w.enabled
                      : `${w.disabled}${a.disabledReason ? ` (${a.disabledReason})` : ""}`}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`${m.showDeliveries} ${a.name}`}
                      aria-pressed={selected?.id === a.id}
                      onClick={() => setSelected({ id: a.id, name: a.name })}
                    >
                      {m.showDeliveries}
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
          owner={{ group: "automations", id: selected.id }}
          title={format(m.deliveriesTitle, { name: selected.name })}
        />
      )}
      {automations.state === "ok" && (
        <CreateAutomationForm
          onCreated={(automation) => {
            setCreated(automation);
            setVersion((v) => v + 1);
          }}
        />
      )}
    </>
  );
}
