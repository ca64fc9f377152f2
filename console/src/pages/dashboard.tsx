import type { ReactNode } from "react";
import { format, useI18n } from "../i18n.js";
import { type Loaded, useLoad } from "../load.js";
import { ProblemView } from "../problem.js";

/** A card of the dashboard: its figures once read, else the API's reason why not. */
function Card<T>(props: { id: string; title: string; loaded: Loaded<T>; children: (v: T) => ReactNode }) {
  const { id, title, loaded, children } = props;
  const { t } = useI18n();
  return (
    <section className="card" aria-labelledby={`card-${id}`}>
      <h2 id={`card-${id}`}>{title}</h2>
      {loaded.state === "loading" && <p>{t.loading}</p>}
      {loaded.state === "failed" && <ProblemView problem={loaded.problem} />}
      {loaded.state === "ok" && children(loaded.value)}
    </section>
  );
}

/**
 * The institution at a glance, each figure from a public route: the subscription (plan, status, and the seats the
 * plan's student limit counts against that limit, as the API's limit check counts them), and the webhook delivery
 * stats.
 */
export function DashboardPage() {
  const { language, t } = useI18n();
  const d = t.dashboard;
  const date = (iso: string | null) =>
    iso === null ? "—" : new Intl.DateTimeFormat(language, { dateStyle: "long" }).format(new Date(iso));
  const number = (n: number) => new Intl.NumberFormat(language).format(n);
  const percent = (n: number) => new Intl.NumberFormat(language, { style: "percent" }).format(n);

  const subscription = useLoad((aula) => aula.billing.subscription.get());
  const deliveries = useLoad((aula) => aula.webhooks.deliveries.stats.list({ query: { perPage: 100 } }));

  return (
    <>
      <h1>{d.title}</h1>
      <div className="cards">
        <Card id="plan" title={d.plan} loaded={subscription}>
          {(s) => (
            <dl>
              <dt>{d.plan}</dt>
              <dd className="figure">{s.plan}</dd>
              <dt>{d.status}</dt>
              <dd>{s.status === null ? d.noSubscription : d.statuses[s.status]}</dd>
              {s.currentPeriodEnd !== null && (
                <>
                  <dt>{d.periodEnd}</dt>
                  <dd>{date(s.currentPeriodEnd)}</dd>
                </>
              )}
              {s.graceDeadline !== null && (
                <>
                  <dt>{d.graceDeadline}</dt>
                  <dd>{date(s.graceDeadline)}</dd>
                </>
              )}
            </dl>
          )}
        </Card>
        <Card id="students" title={d.students} loaded={subscription}>
          {({ students }) => (
            <>
              <dl>
                <dt>{d.seatsUsed}</dt>
                <dd className="figure">{number(students.used)}</dd>
                <dt>{d.studentLimit}</dt>
                <dd>{students.limit === null ? d.unlimited : number(students.limit)}</dd>
              </dl>
              {students.limit !== null && (
                <meter min={0} max={students.limit} value={students.used} aria-label={d.seatsUsed} />
              )}
              <p className="hint">{d.studentsHint}</p>
            </>
          )}
        </Card>
        <Card id="deliveries" title={d.deliveries} loaded={deliveries}>
          {(page) => {
            const failing = page.data.filter((a) => a.lastHour.attempts > a.lastHour.succeeded);
            return (
              <>
                <dl>
                  <dt>{d.pending}</dt>
                  <dd className="figure">{number(page.data.reduce((sum, a) => sum + a.pending, 0))}</dd>
                </dl>
                <h3>{d.failing}</h3>
                {failing.length === 0 ? (
                  <p>{d.noneFailing}</p>
                ) : (
                  <ul>
                    {failing.map((a) => (
                      <li key={a.automationId}>
                        {a.name} — {format(d.successRate, { rate: percent(a.lastHour.successRate ?? 0) })}
                      </li>
                    ))}
                  </ul>
                )}
              </>
            );
          }}
        </Card>
      </div>
    </>
  );
}
