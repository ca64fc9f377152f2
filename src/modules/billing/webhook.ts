/**
 * Stripe's events, read one at a time: which ones the service handles, and for each kind (checkout, subscription,
 * invoice) how it is bound to a tenant and what it changes. The billing record they change is billing-record.ts's.
 */
import type { Executor } from "../../db/client.js";
import { isUuid } from "../../platform/http/schemas.js";
import {
  applyIfAllowed,
  DAY_SECONDS,
  ENDED,
  type EventResult,
  GRACE_DAYS,
  grantPlan,
  ignored,
  isoSeconds,
  lockBilling,
  lockBillingByCustomer,
  ordering,
  retrieveSubscription,
  stale,
  supersededBy,
  type WebhookDeps,
} from "./billing-record.js";
import {
  type Json,
  readCheckoutSession,
  readInvoice,
  readSubscription,
  type StripeEventEnvelope,
} from "./payload.js";
import { redactPersonalData } from "./redact.js";
import * as repo from "./repo.js";

const PROVIDER = "stripe";

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

async function onCheckout(tx: Executor, deps: WebhookDeps, event: StripeEventEnvelope): Promise<EventResult> {
  const session = readCheckoutSession(event.object);
  if (session.mode !== "subscription") return ignored("not a subscription checkout");
  if (session.tenantId === undefined || !isUuid(session.tenantId)) return ignored("names no known tenant");
  const locked = await lockBilling(tx, session.tenantId);
  if (locked === undefined) return ignored("names no tenant with a billing customer");
  // Only an event about the tenant's own customer goes in the tenant's log.
  if (session.customer !== locked.billing.stripeCustomerId) return ignored("customer is not the tenant's");
  if (session.subscriptionId === undefined) return ignored("session has no subscription", locked.tenantId);
  if (ordering(locked.billing, event) === "older") return stale(locked.tenantId);
  // The session says which subscription was bought; only Stripe's own record of it says what it is.
  const facts = await retrieveSubscription(deps, session.subscriptionId);
  return applyIfAllowed(tx, deps, locked, facts, event, true);
}

async function onSubscription(
  tx: Executor,
  deps: WebhookDeps,
  event: StripeEventEnvelope,
): Promise<EventResult> {
  const fromEvent = readSubscription(event.object);
  if (fromEvent === undefined) return ignored("not a readable subscription");
  const locked = await lockBillingByCustomer(tx, fromEvent.customer);
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
  const locked = await lockBillingByCustomer(tx, invoice.customer);
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
