import type { PlanConfig } from "../../config/plans.js";
import type { Db, Executor } from "../../db/client.js";
import { isUuid } from "../../platform/http/schemas.js";
import {
  type Json,
  readCheckoutSession,
  readInvoice,
  readSubscription,
  type StripeEventEnvelope,
  type SubscriptionFacts,
} from "./payload.js";
import { redactPersonalData } from "./redact.js";
import * as repo from "./repo.js";
import { isMissingObject, providerFailure, requireStripe, type StripeClient } from "./stripe.js";

export const GRACE_DAYS = 7;
const PROVIDER = "stripe";
const DAY_SECONDS = 86_400;

/** A subscription in one of these is over: another subscription of the same customer may take its place. */
const ENDED = new Set(["canceled", "incomplete_expired"]);
/** Statuses that keep the paid plan (the access gate closes the API for the inactive ones, not the plan). */
const ENTITLED = new Set(["active", "trialing", "past_due", "suspended", "unpaid", "paused"]);

const CHECKOUT_EVENTS = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
]);
const SUBSCRIPTION_EVENTS = new Set([
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
]);
const PAID_INVOICE_EVENTS = new Set(["invoice.payment_succeeded", "invoice.paid"]);
const INVOICE_EVENTS = new Set([...PAID_INVOICE_EVENTS, "invoice.payment_failed"]);

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

export function handlesEventType(type: string): boolean {
  return CHECKOUT_EVENTS.has(type) || SUBSCRIPTION_EVENTS.has(type) || INVOICE_EVENTS.has(type);
}

/**
 * Applies one verified Stripe event and writes its payment-log row in one transaction. Copies of the same event
 * wait for each other (an advisory lock on its id), so a repeat, even a concurrent one, finds the row and
 * changes nothing. A failure (Stripe unreachable, a database error) throws: nothing is written and Stripe's retry
 * applies the event later.
 */
export async function handleStripeEvent(
  deps: WebhookDeps,
  event: StripeEventEnvelope,
  raw: unknown,
): Promise<EventResult> {
  if (!handlesEventType(event.type)) return { outcome: "unhandled" };
  return deps.db.transaction(async (tx) => {
    await repo.lockProviderEvent(tx, PROVIDER, event.id);
    if (await repo.providerEventLogged(tx, PROVIDER, event.id)) return { outcome: "duplicate" };
    const result = await dispatch(tx, deps, event);
    await repo.insertPaymentEvent(tx, {
      tenantId: result.tenantId ?? null,
      provider: PROVIDER,
      eventId: event.id,
      type: event.type,
      outcome: result.outcome,
      reason: result.reason ?? null,
      eventCreatedAt: isoSeconds(event.created),
      payload: redactPersonalData(raw),
    });
    return result;
  });
}

function dispatch(tx: Executor, deps: WebhookDeps, event: StripeEventEnvelope): Promise<EventResult> {
  if (CHECKOUT_EVENTS.has(event.type)) return onCheckout(tx, deps, event);
  if (SUBSCRIPTION_EVENTS.has(event.type)) return onSubscription(tx, deps, event);
  return onInvoice(tx, deps, event);
}

const ignored = (reason: string, tenantId?: string): EventResult => ({
  outcome: "ignored",
  reason,
  tenantId,
});

interface Locked {
  tenantId: string;
  plan: string;
  billing: repo.BillingRow;
}

async function lock(tx: Executor, tenantId: string): Promise<Locked | undefined> {
  const locked = await repo.lockTenantBilling(tx, tenantId);
  if (locked?.billing === undefined) return undefined;
  return { tenantId, plan: locked.plan, billing: locked.billing };
}

/** Where the event stands against the newest one applied to this subscription record. */
function ordering(billing: repo.BillingRow, event: StripeEventEnvelope): "newer" | "same_second" | "older" {
  if (billing.lastEventAt === null) return "newer";
  const last = Date.parse(billing.lastEventAt);
  const at = event.created * 1000;
  if (at < last) return "older";
  return at === last ? "same_second" : "newer";
}

const stale = (tenantId: string): EventResult => ({
  outcome: "stale",
  reason: "older than the last event applied",
  tenantId,
});

/** Stripe's current state of a subscription; undefined when Stripe says it does not exist. */
async function retrieveSubscription(deps: WebhookDeps, id: string): Promise<SubscriptionFacts | undefined> {
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

async function onCheckout(tx: Executor, deps: WebhookDeps, event: StripeEventEnvelope): Promise<EventResult> {
  const session = readCheckoutSession(event.object);
  if (session.mode !== "subscription") return ignored("not a subscription checkout");
  if (session.tenantId === undefined || !isUuid(session.tenantId)) return ignored("names no known tenant");
  const locked = await lock(tx, session.tenantId);
  if (locked === undefined) return ignored("names no tenant with a billing customer");
  // Only an event about the tenant's own customer goes in the tenant's log.
  if (session.customer !== locked.billing.stripeCustomerId) return ignored("customer is not the tenant's");
  if (session.subscriptionId === undefined) return ignored("session has no subscription", locked.tenantId);
  if (ordering(locked.billing, event) === "older") return stale(locked.tenantId);
  // The session says which subscription was bought; only Stripe's own record of it says what it is.
  const facts = await retrieveSubscription(deps, session.subscriptionId);
  return applyIfAllowed(tx, deps, locked, facts, event, true);
}

async function lockByCustomer(tx: Executor, customer: string | undefined): Promise<Locked | undefined> {
  if (customer === undefined) return undefined;
  const tenantId = await repo.tenantOfCustomer(tx, customer);
  return tenantId === undefined ? undefined : lock(tx, tenantId);
}

/** Another live subscription is the tenant's current one: events about this one must not overwrite it. */
function supersededBy(billing: repo.BillingRow, subscriptionId: string): boolean {
  const current = billing.stripeSubscriptionId;
  return current !== null && current !== subscriptionId && !ENDED.has(billing.status ?? "");
}

async function onSubscription(
  tx: Executor,
  deps: WebhookDeps,
  event: StripeEventEnvelope,
): Promise<EventResult> {
  const fromEvent = readSubscription(event.object);
  if (fromEvent === undefined) return ignored("not a readable subscription");
  const locked = await lockByCustomer(tx, fromEvent.customer);
  if (locked === undefined) return ignored("customer is not known");
  if ((fromEvent.tenantId ?? locked.tenantId) !== locked.tenantId)
    return ignored("subscription names another tenant");
  if (supersededBy(locked.billing, fromEvent.id))
    return ignored("not the tenant's current subscription", locked.tenantId);
  const order = ordering(locked.billing, event);
  if (order === "older") return stale(locked.tenantId);
  // Two events in one second cannot be ordered by `created`: Stripe's current record settles it.
  let facts = order === "same_second" ? await retrieveSubscription(deps, fromEvent.id) : fromEvent;
  if (facts !== undefined && event.type === "customer.subscription.deleted")
    facts = { ...facts, status: "canceled" };
  return applyIfAllowed(tx, deps, locked, facts, event, false);
}

async function onInvoice(tx: Executor, deps: WebhookDeps, event: StripeEventEnvelope): Promise<EventResult> {
  const invoice = readInvoice(event.object as Json);
  if (invoice.subscriptionId === undefined) return ignored("not a subscription invoice");
  const locked = await lockByCustomer(tx, invoice.customer);
  if (locked === undefined) return ignored("customer is not known");
  const { billing } = locked;
  if (supersededBy(billing, invoice.subscriptionId)) {
    return ignored("not the tenant's current subscription", locked.tenantId);
  }
  const order = ordering(billing, event);
  if (order === "older") return stale(locked.tenantId);
  if (billing.stripeSubscriptionId !== invoice.subscriptionId || order === "same_second") {
    // A subscription we have not recorded yet (its invoice can arrive before the checkout event), or an event we
    // cannot order: apply Stripe's current record of the subscription instead of guessing from the invoice.
    const facts = await retrieveSubscription(deps, invoice.subscriptionId);
    return applyIfAllowed(tx, deps, locked, facts, event, false);
  }
  const status = billing.status ?? "incomplete";
  let next = status;
  let grace = billing.graceDeadline;
  if (PAID_INVOICE_EVENTS.has(event.type)) {
    if (!ENDED.has(status)) {
      next = "active";
      grace = null;
    }
  } else if (["active", "trialing", "past_due"].includes(status)) {
    next = "past_due";
    // A failed retry during the grace period does not extend it.
    grace =
      status === "past_due" && grace !== null ? grace : isoSeconds(event.created + GRACE_DAYS * DAY_SECONDS);
  }
  await repo.updateBilling(tx, locked.tenantId, {
    status: next,
    graceDeadline: grace,
    lastEventAt: isoSeconds(event.created),
    lastEventId: event.id,
  });
  await grantPlan(tx, locked, next, billing.plan);
  return { outcome: "applied", tenantId: locked.tenantId };
}

/** Applies the subscription unless Stripe does not know it or it fails the checks of `refusal`. */
async function applyIfAllowed(
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

async function grantPlan(
  tx: Executor,
  locked: Locked,
  status: string,
  paidPlan: string | null,
): Promise<void> {
  const plan = paidPlan !== null && ENTITLED.has(status) ? paidPlan : "free";
  if (plan !== locked.plan) await repo.setTenantPlan(tx, locked.tenantId, plan);
}

function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}
