/** Objects shaped like Stripe's own (fake-stripe.ts serves them): subscriptions, customers, ids and times. */
import { randomInt } from "node:crypto";
import { asRecord } from "./fake-stripe-form.js";

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random alphanumeric suffix, like the tail of a Stripe id. */
export function randomId(length = 14): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** A subscription object like Stripe returns. shape "basil" (API 2025-03-31 and later) puts current_period_start/end on items.data[] only; shape "legacy" (2025-02 and earlier) puts them at top level and not on the items. */
export function fakeSubscription(opts: {
  id: string;
  customer: string;
  tenantId?: string;
  priceId: string;
  /** Default "active". */
  status?: string;
  /** Unix seconds; defaults now and now + 30 days. */
  periodStart?: number;
  periodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  /** Default "basil". */
  shape?: "basil" | "legacy";
}): Record<string, unknown> {
  const now = nowSeconds();
  const periodStart = opts.periodStart ?? now;
  const periodEnd = opts.periodEnd ?? periodStart + 30 * 24 * 60 * 60;
  const status = opts.status ?? "active";
  const cancelAtPeriodEnd = opts.cancelAtPeriodEnd ?? false;
  const legacy = opts.shape === "legacy";
  const period = { current_period_start: periodStart, current_period_end: periodEnd };

  const item: Record<string, unknown> = {
    id: `si_${randomId()}`,
    object: "subscription_item",
    created: periodStart,
    discounts: [],
    metadata: {},
    price: {
      id: opts.priceId,
      object: "price",
      active: true,
      billing_scheme: "per_unit",
      created: periodStart,
      currency: "brl",
      livemode: false,
      lookup_key: null,
      metadata: {},
      nickname: null,
      product: "prod_fake",
      recurring: {
        interval: "month",
        interval_count: 1,
        meter: null,
        usage_type: "licensed",
        trial_period_days: null,
      },
      tax_behavior: "unspecified",
      tiers_mode: null,
      transform_quantity: null,
      type: "recurring",
      unit_amount: 4990,
      unit_amount_decimal: "4990",
    },
    quantity: 1,
    subscription: opts.id,
    tax_rates: [],
    ...(legacy ? {} : period),
  };

  return {
    id: opts.id,
    object: "subscription",
    application: null,
    billing_cycle_anchor: periodStart,
    // Stripe sets cancel_at to the period end when the subscription is set to cancel at period end.
    cancel_at: cancelAtPeriodEnd ? periodEnd : null,
    cancel_at_period_end: cancelAtPeriodEnd,
    canceled_at: cancelAtPeriodEnd || status === "canceled" ? now : null,
    collection_method: "charge_automatically",
    created: periodStart,
    currency: "brl",
    customer: opts.customer,
    default_payment_method: null,
    description: null,
    discounts: [],
    ended_at: status === "canceled" ? now : null,
    items: {
      object: "list",
      data: [item],
      has_more: false,
      url: `/v1/subscription_items?subscription=${opts.id}`,
    },
    latest_invoice: null,
    livemode: false,
    metadata: opts.tenantId === undefined ? {} : { tenantId: opts.tenantId },
    pending_update: null,
    schedule: null,
    start_date: periodStart,
    status,
    test_clock: null,
    trial_end: null,
    trial_start: null,
    ...(legacy ? period : {}),
  };
}

export function createCustomer(body: Record<string, unknown>): Record<string, unknown> {
  return {
    id: `cus_fake_${randomId()}`,
    object: "customer",
    address: body.address ?? null,
    balance: 0,
    created: nowSeconds(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: body.description ?? null,
    discount: null,
    email: body.email ?? null,
    invoice_prefix: randomId(8).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: asRecord(body.metadata) ?? {},
    name: body.name ?? null,
    next_invoice_sequence: 1,
    phone: body.phone ?? null,
    preferred_locales: Array.isArray(body.preferred_locales) ? body.preferred_locales : [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}
