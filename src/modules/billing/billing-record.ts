/**
 * The tenant's billing record as Stripe's events move it (webhook.ts reads the events): locked per tenant, each
 * event ordered against the last one applied, a subscription checked against the tenant and our prices and then
 * applied, and the plan it grants. Also what an event's handling answers (EventResult).
 */
import type { PlanConfig } from "../../config/plans.js";
import type { Db, Executor } from "../../db/client.js";
import { readSubscription, type StripeEventEnvelope, type SubscriptionFacts } from "./payload.js";
import * as repo from "./repo.js";
import { isMissingObject, providerFailure, requireStripe, type StripeClient } from "./stripe.js";

export const GRACE_DAYS = 7;
export const DAY_SECONDS = 86_400;

/** A subscription in one of these is over: another subscription of the same customer may take its place. */
export const ENDED = new Set(["canceled", "incomplete_expired"]);
/** Statuses that keep the paid plan (the access gate closes the API for the inactive ones, not the plan). */
const ENTITLED = new Set(["active", "trialing", "past_due", "suspended", "unpaid", "paused"]);

export interface WebhookDeps {
  db: Db;
  stripe: StripeClient;
  plans: PlanConfig;
}

/**
 * What became of an event: `applied`; `stale` (older than what was applied, acknowledged only); `ignored` (can
 * never apply, see `reason`); `duplicate` (already in the payment log); `unhandled` (a type we do not use).
 */
export type EventOutcome = "applied" | "stale" | "ignored" | "duplicate" | "unhandled";

export interface EventResult {
  outcome: EventOutcome;
  reason?: string;
  /** The tenant the event was logged under, when it could be bound to one. */
  tenantId?: string;
}

export const ignored = (reason: string, tenantId?: string): EventResult => ({
  outcome: "ignored",
  reason,
  tenantId,
});

/** A tenant's billing row, locked for the event's transaction, and the plan the tenant has now. */
export interface Locked {
  tenantId: string;
  plan: string;
  billing: repo.BillingRow;
}

export async function lockBilling(tx: Executor, tenantId: string): Promise<Locked | undefined> {
  const locked = await repo.lockTenantBilling(tx, tenantId);
  if (locked?.billing === undefined) return undefined;
  return { tenantId, plan: locked.plan, billing: locked.billing };
}

/** Where the event stands against the newest one applied to this subscription record. */
export function ordering(
  billing: repo.BillingRow,
  event: StripeEventEnvelope,
): "newer" | "same_second" | "older" {
  if (billing.lastEventAt === null) return "newer";
  const last = Date.parse(billing.lastEventAt);
  const at = event.created * 1000;
  if (at < last) return "older";
  return at === last ? "same_second" : "newer";
}

export const stale = (tenantId: string): EventResult => ({
  outcome: "stale",
  reason: "older than the last event applied",
  tenantId,
});

/** Stripe's current state of a subscription; undefined when Stripe says it does not exist. */
export async function retrieveSubscription(
  deps: WebhookDeps,
  id: string,
): Promise<SubscriptionFacts | undefined> {
  const stripe = await requireStripe(deps.stripe);
  let raw: unknown;
  try {
    raw = await stripe.subscriptions.retrieve(id);
  } catch (err) {
    if (isMissingObject(err)) return undefined;
    throw providerFailure(err);
  }
  return readSubscription(raw);
}

/**
 * The checks every subscription must pass before it may grant a plan: it belongs to the tenant's customer, it
 * does not name another tenant, and its price is one of ours. Returns the reason it fails, if it does.
 */
function refusal(deps: WebhookDeps, locked: Locked, facts: SubscriptionFacts, requireTenantId: boolean) {
  if (facts.customer !== locked.billing.stripeCustomerId) return "subscription belongs to another customer";
  if (
    requireTenantId
      ? facts.tenantId !== locked.tenantId
      : (facts.tenantId ?? locked.tenantId) !== locked.tenantId
  ) {
    return "subscription names another tenant";
  }
  if (facts.status !== "canceled" && !deps.plans.allowedPrices.has(facts.priceId ?? "")) {
    return "price is not in the paid-plan list";
  }
  return undefined;
}

export async function lockBillingByCustomer(
  tx: Executor,
  customer: string | undefined,
): Promise<Locked | undefined> {
  if (customer === undefined) return undefined;
  const tenantId = await repo.tenantOfCustomer(tx, customer);
  return tenantId === undefined ? undefined : lockBilling(tx, tenantId);
}

/** Another live subscription is the tenant's current one: events about this one must not overwrite it. */
export function supersededBy(billing: repo.BillingRow, subscriptionId: string): boolean {
  const current = billing.stripeSubscriptionId;
  return current !== null && current !== subscriptionId && !ENDED.has(billing.status ?? "");
}

/** Applies the subscription unless Stripe does not know it or it fails the checks of `refusal`. */
export async function applyIfAllowed(
  tx: Executor,
  deps: WebhookDeps,
  locked: Locked,
  facts: SubscriptionFacts | undefined,
  event: StripeEventEnvelope,
  requireTenantId: boolean,
): Promise<EventResult> {
  if (facts === undefined) return ignored("subscription not found at Stripe", locked.tenantId);
  const refused = refusal(deps, locked, facts, requireTenantId);
  if (refused !== undefined) return ignored(refused, locked.tenantId);
  await applySubscription(tx, deps, locked, facts, event);
  return { outcome: "applied", tenantId: locked.tenantId };
}

/** Records the subscription as Stripe describes it, and the plan it grants the tenant. */
async function applySubscription(
  tx: Executor,
  deps: WebhookDeps,
  locked: Locked,
  facts: SubscriptionFacts,
  event: StripeEventEnvelope,
): Promise<void> {
  const { billing } = locked;
  const sameSubscription = billing.stripeSubscriptionId === facts.id;
  let status = facts.status;
  // `suspended` is ours, laid over Stripe's `past_due` once the grace ran out: Stripe keeps saying past_due.
  if (status === "past_due" && sameSubscription && billing.status === "suspended") status = "suspended";
  let grace: string | null = null;
  if (status === "suspended") grace = billing.graceDeadline;
  if (status === "past_due") {
    grace =
      sameSubscription && billing.status === "past_due" && billing.graceDeadline !== null
        ? billing.graceDeadline
        : isoSeconds(event.created + GRACE_DAYS * DAY_SECONDS);
  }
  const price = facts.priceId === undefined ? undefined : deps.plans.allowedPrices.get(facts.priceId);
  const plan = price?.plan ?? billing.plan;
  await repo.updateBilling(tx, locked.tenantId, {
    stripeSubscriptionId: facts.id,
    plan,
    priceId: facts.priceId ?? billing.priceId,
    // Only a configured price says which plan and currency were bought; anything else keeps what we knew.
    currency: price?.currency ?? billing.currency,
    status,
    currentPeriodStart: facts.periodStart === undefined ? null : isoSeconds(facts.periodStart),
    currentPeriodEnd: facts.periodEnd === undefined ? null : isoSeconds(facts.periodEnd),
    cancelAtPeriodEnd: facts.cancelAtPeriodEnd,
    graceDeadline: grace,
    lastEventAt: isoSeconds(event.created),
    lastEventId: event.id,
  });
  await grantPlan(tx, locked, status, plan);
}

export async function grantPlan(
  tx: Executor,
  locked: Locked,
  status: string,
  paidPlan: string | null,
): Promise<void> {
  const plan = paidPlan !== null && ENTITLED.has(status) ? paidPlan : "free";
  if (plan !== locked.plan) await repo.setTenantPlan(tx, locked.tenantId, plan);
}

export function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}
