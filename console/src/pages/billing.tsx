import { type FormEvent, useState } from "react";
import type { Aula } from "../../../sdk/src/client.js";
import { type Problem, problemOf } from "../api.js";
import { format, useI18n } from "../i18n.js";
import { useLoad } from "../load.js";
import { ProblemView } from "../problem.js";
import { useCall, useSession } from "../session.js";

type PaidPlan = Parameters<Aula["billing"]["checkout"]>[0]["body"]["plan"];
const PAID_PLANS: readonly PaidPlan[] = ["mini", "growth", "pro_100"];
/** Statuses under which the API refuses a second checkout (409): the plan changes through the portal. */
const LIVE = new Set(["active", "trialing", "past_due", "unpaid", "paused", "suspended"]);

/**
 * Billing: the plan, the subscription and the seats used (GET /billing/subscription); an administrator starts a
 * Stripe Checkout for a paid plan (POST /billing/checkout) or opens Stripe's portal (POST /billing/portal), and
 * the browser goes to the URL answered. Both are an administrator's session's, so others are offered no button;
 * checkout is offered only while the API would accept it (no live subscription).
 */
export default function BillingPage() {
  const { language, t } = useI18n();
  const b = t.billing;
  const d = t.dashboard;
  const call = useCall();
  const { user } = useSession();
  const admin = user.role === "institution_admin";
  const [plan, setPlan] = useState<PaidPlan>("growth");
  const [working, setWorking] = useState<"checkout" | "portal">();
  const [problem, setProblem] = useState<Problem>();
  const subscription = useLoad((aula) => aula.billing.subscription.get());
  const date = (iso: string | null) =>
    iso === null ? "—" : new Intl.DateTimeFormat(language, { dateStyle: "long" }).format(new Date(iso));
  const number = (n: number) => new Intl.NumberFormat(language).format(n);

  const go = async (what: "checkout" | "portal", event?: FormEvent) => {
    event?.preventDefault();
    setWorking(what);
    setProblem(undefined);
    try {
      const { url } = await call((aula) =>
        what === "checkout" ? aula.billing.checkout({ body: { plan } }) : aula.billing.portal(),
      );
      window.location.assign(url);
    } catch (err) {
      setProblem(problemOf(err, t));
      setWorking(undefined);
    }
  };

  return (
    <>
      <h1>{b.title}</h1>
      <p>{b.intro}</p>
      {subscription.state === "loading" && <p>{t.loading}</p>}
      {subscription.state === "failed" && <ProblemView problem={subscription.problem} />}
      {subscription.state === "ok" && (
        <>
          <section className="card" aria-labelledby="billing-plan">
            <h2 id="billing-plan">{b.current}</h2>
            <dl>
              <dt>{d.plan}</dt>
              <dd className="figure">{subscription.value.plan}</dd>
              <dt>{d.status}</dt>
              <dd>
                {subscription.value.status === null
                  ? d.noSubscription
                  : d.statuses[subscription.value.status]}
              </dd>
              {subscription.value.currentPeriodEnd !== null && (
                <>
                  <dt>{subscription.value.cancelAtPeriodEnd ? b.endsOn : d.periodEnd}</dt>
                  <dd>{date(subscription.value.currentPeriodEnd)}</dd>
                </>
              )}
              {subscription.value.graceDeadline !== null && (
                <>
                  <dt>{d.graceDeadline}</dt>
                  <dd>{date(subscription.value.graceDeadline)}</dd>
                </>
              )}
              <dt>{d.seatsUsed}</dt>
              <dd>
                {subscription.value.students.limit === null
                  ? number(subscription.value.students.used)
                  : format(b.seatsOf, {
                      used: number(subscription.value.students.used),
                      limit: number(subscription.value.students.limit),
                    })}
              </dd>
            </dl>
          </section>
          <ProblemView problem={problem} />
          {!admin && <p className="hint">{b.adminOnly}</p>}
          {admin && !LIVE.has(subscription.value.status ?? "") && (
            <section className="card" aria-labelledby="billing-checkout">
              <h2 id="billing-checkout">{b.checkoutTitle}</h2>
              <form onSubmit={(e) => void go("checkout", e)}>
                <label htmlFor="billing-choose">{b.choosePlan}</label>
                <select
                  id="billing-choose"
                  value={plan}
                  onChange={(e) => setPlan(e.target.value as PaidPlan)}
                >
                  {PAID_PLANS.map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                </select>
                <p className="hint">{b.checkoutHint}</p>
                <button type="submit" disabled={working !== undefined}>
                  {working === "checkout" ? b.opening : b.checkout}
                </button>
              </form>
            </section>
          )}
          {admin && (
            <section className="card" aria-labelledby="billing-portal">
              <h2 id="billing-portal">{b.portalTitle}</h2>
              <p className="hint">{b.portalHint}</p>
              <button type="button" disabled={working !== undefined} onClick={() => void go("portal")}>
                {working === "portal" ? b.opening : b.portal}
              </button>
            </section>
          )}
        </>
      )}
    </>
  );
}
