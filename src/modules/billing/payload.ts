/**
 * Reading Stripe payloads. Webhook endpoints can be pinned to older API versions, so the same fact lives in
 * different places depending on the version that rendered the event: these readers accept both the shapes
 * before 2025-03 ("acacia" and earlier) and after ("basil" and later), and never trust a field's type.
 */
export type Json = Record<string, unknown>;

export function asObject(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function asString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function asSeconds(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** An expandable reference: `"sub_123"` or the expanded object `{id: "sub_123", …}`. */
function idOf(value: unknown): string | undefined {
  return asString(value) ?? asString(asObject(value)?.id);
}

export interface StripeEventEnvelope {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  object: Json;
}

export function readEnvelope(event: unknown): StripeEventEnvelope | undefined {
  const e = asObject(event);
  const id = asString(e?.id);
  const type = asString(e?.type);
  const created = asSeconds(e?.created);
  const object = asObject(asObject(e?.data)?.object);
  if (id === undefined || type === undefined || created === undefined || object === undefined)
    return undefined;
  return { id, type, created, object };
}

export interface SubscriptionFacts {
  id: string;
  customer: string;
  /** `metadata.tenantId`, which checkout sets on every subscription it creates. */
  tenantId?: string;
  status: string;
  priceId?: string;
  periodStart?: number;
  periodEnd?: number;
  cancelAtPeriodEnd: boolean;
}

export function readSubscription(value: unknown): SubscriptionFacts | undefined {
  const s = asObject(value);
  const id = asString(s?.id);
  const customer = idOf(s?.customer);
  const status = asString(s?.status);
  if (s === undefined || id === undefined || customer === undefined || status === undefined) return undefined;
  const items = asObject(s.items)?.data;
  const item = Array.isArray(items) ? asObject(items[0]) : undefined;
  // Basil moved the billing period from the subscription to each item; older versions have it at the top.
  const price = asObject(item?.price) ?? asObject(s.plan);
  return {
    id,
    customer,
    tenantId: asString(asObject(s.metadata)?.tenantId),
    status,
    priceId: asString(price?.id),
    periodStart: asSeconds(s.current_period_start) ?? asSeconds(item?.current_period_start),
    periodEnd: asSeconds(s.current_period_end) ?? asSeconds(item?.current_period_end),
    cancelAtPeriodEnd: s.cancel_at_period_end === true,
  };
}

export interface InvoiceFacts {
  customer?: string;
  /** Null for invoices that belong to no subscription (one-off invoices). */
  subscriptionId?: string;
}

export function readInvoice(value: Json): InvoiceFacts {
  // Before 2025-03: `invoice.subscription`; since: `invoice.parent.subscription_details.subscription`.
  const details = asObject(asObject(value.parent)?.subscription_details);
  return {
    customer: idOf(value.customer),
    subscriptionId: idOf(value.subscription) ?? idOf(details?.subscription),
  };
}

export interface CheckoutFacts {
  mode?: string;
  customer?: string;
  subscriptionId?: string;
  tenantId?: string;
}

export function readCheckoutSession(value: Json): CheckoutFacts {
  return {
    mode: asString(value.mode),
    customer: idOf(value.customer),
    subscriptionId: idOf(value.subscription),
    tenantId: asString(asObject(value.metadata)?.tenantId) ?? asString(value.client_reference_id),
  };
}
