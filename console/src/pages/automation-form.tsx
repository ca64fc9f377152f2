import { type FormEvent, useState } from "react";
import type { Aula } from "../../../sdk/src/client.js";
import { type Problem, problemOf } from "../api.js";
import { useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";
import { useCall } from "../session.js";

export type CreatedAutomation = Awaited<ReturnType<Aula["automations"]["create"]>>;
type TriggerEvent = Parameters<Aula["automations"]["create"]>[0]["body"]["trigger"]["event"];

/**
 * POST /automations: a name, the platform event that triggers it (from the API's catalogue, GET
 * /webhooks/event-types) and the URL its `send_webhook` action posts the default payload to.
 */
export function CreateAutomationForm({ onCreated }: { onCreated: (a: CreatedAutomation) => void }) {
  const { t } = useI18n();
  const m = t.automations;
  const call = useCall();
  const catalogue = useLoad((aula) => aula.webhooks.eventTypes.get());
  const [name, setName] = useState("");
  const [event, setEvent] = useState<TriggerEvent | "">("");
  const [url, setUrl] = useState("");
  const [working, setWorking] = useState(false);
  const [problem, setProblem] = useState<Problem>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setWorking(true);
    setProblem(undefined);
    try {
      const body = {
        name,
        trigger: { event: event as TriggerEvent },
        action: { type: "send_webhook" as const, url },
      };
      const created = await call((aula) => aula.automations.create({ body }));
      setName("");
      setUrl("");
      onCreated(created);
    } catch (err) {
      setProblem(problemOf(err, t));
    } finally {
      setWorking(false);
    }
  };

  return (
    <section className="card" aria-labelledby="automation-create-title">
      <h2 id="automation-create-title">{m.createTitle}</h2>
      <form onSubmit={(e) => void submit(e)}>
        <label htmlFor="automation-name">{m.name}</label>
        <input id="automation-name" value={name} onChange={(e) => setName(e.target.value)} />
        <label htmlFor="automation-event">{m.event}</label>
        {catalogue.state === "failed" && <ProblemView problem={catalogue.problem} />}
        <select
          id="automation-event"
          value={event}
          onChange={(e) => setEvent(e.target.value as TriggerEvent)}
        >
          <option value="">—</option>
          {catalogue.state === "ok" &&
            catalogue.value.data.map((type) => (
              <option key={type.name} value={type.name} title={type.description}>
                {type.name}
              </option>
            ))}
        </select>
        <label htmlFor="automation-url">{m.url}</label>
        <input id="automation-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} />
        <button type="submit" disabled={working}>
          {working ? m.working : m.create}
        </button>
      </form>
      <ProblemView problem={problem} />
    </section>
  );
}
