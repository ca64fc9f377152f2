import { type FormEvent, useState } from "react";
import type { Aula } from "../../../sdk/src/client.js";
import { type Problem, problemOf } from "../api.js";
import { useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";
import { useCall } from "../session.js";

export type CreatedEndpoint = Awaited<ReturnType<Aula["webhooks"]["create"]>>;
/** The catalogue's names, which the API types as its event types. */
type EventType = Parameters<Aula["webhooks"]["create"]>[0]["body"]["eventTypes"][number];

/** POST /webhooks with a URL and events chosen from the API's own catalogue (GET /webhooks/event-types). */
export function CreateEndpointForm({ onCreated }: { onCreated: (endpoint: CreatedEndpoint) => void }) {
  const { t } = useI18n();
  const w = t.webhooks;
  const call = useCall();
  const catalogue = useLoad((aula) => aula.webhooks.eventTypes.get());
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<EventType[]>([]);
  const [working, setWorking] = useState(false);
  const [problem, setProblem] = useState<Problem>();

  const toggle = (name: EventType, on: boolean) =>
    setEvents((now) => (on ? [...now, name] : now.filter((e) => e !== name)));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setWorking(true);
    setProblem(undefined);
    try {
      const body = { url, eventTypes: events, ...(description.trim() !== "" && { description }) };
      const endpoint = await call((aula) => aula.webhooks.create({ body }));
      setUrl("");
      setDescription("");
      setEvents([]);
      onCreated(endpoint);
    } catch (err) {
      setProblem(problemOf(err, t));
    } finally {
      setWorking(false);
    }
  };

  return (
    <section className="card" aria-labelledby="endpoint-create-title">
      <h2 id="endpoint-create-title">{w.createTitle}</h2>
      <form onSubmit={(e) => void submit(e)}>
        <label htmlFor="endpoint-url">{w.url}</label>
        <input id="endpoint-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} />
        <label htmlFor="endpoint-description">{w.description}</label>
        <input
          id="endpoint-description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <fieldset>
          <legend>{w.eventsLegend}</legend>
          {catalogue.state === "failed" && <ProblemView problem={catalogue.problem} />}
          {catalogue.state === "ok" && (
            <div className="scopes events">
              {catalogue.value.data.map((type) => (
                <label key={type.name} className="check" title={type.description}>
                  <input
                    type="checkbox"
                    checked={events.includes(type.name as EventType)}
                    onChange={(e) => toggle(type.name as EventType, e.target.checked)}
                  />{" "}
                  {type.name}
                </label>
              ))}
            </div>
          )}
        </fieldset>
        <button type="submit" disabled={working}>
          {working ? w.working : w.create}
        </button>
      </form>
      <ProblemView problem={problem} />
    </section>
  );
}
