import { randomBytes } from "node:crypto";
import Stripe from "stripe";

export const WEBHOOK_SECRET = "whsec_test_aula_billing_secret";
export const PRICES = {
  STRIPE_PRICE_MINI_BRL: "price_mini_brl",
  STRIPE_PRICE_MINI_USD: "price_mini_usd",
  STRIPE_PRICE_GROWTH_BRL: "price_growth_brl",
  STRIPE_PRICE_GROWTH_USD: "price_growth_usd",
  STRIPE_PRICE_PRO_100_BRL: "price_pro_100_brl",
  STRIPE_PRICE_PRO_100_USD: "price_pro_100_usd",
} as const;

/** The environment a billing test harness needs: the fake Stripe, the webhook secret and a price per plan. */
export function billingEnv(stripeUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: "sk_test_aula",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripeUrl,
    STRIPE_MAX_NETWORK_RETRIES: "0",
    CRON_SECRET: "cron-secret-for-tests-0123456789",
    ...PRICES,
    ...extra,
  };
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
export const eventId = () => `evt_test_${randomBytes(8).toString("hex")}`;

/** A Stripe event envelope around `object`, shaped like the fixtures' (`api_version` of the basil era). */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; created?: number; apiVersion?: string } = {},
): Record<string, unknown> {
  return {
    id: options.id ?? eventId(),
    object: "event",
    api_version: options.apiVersion ?? "2025-03-31.basil",
    created: options.created ?? nowSeconds(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/**
 * What Stripe would POST: the exact body bytes and a `Stripe-Signature` over them, made by the SDK's own
 * test helper. `timestamp` moves the signing time (the replay window); `secret` signs with another secret.
 */
export function signed(
  event: Record<string, unknown> | string,
  options: { timestamp?: number; secret?: string } = {},
): { payload: string; headers: Record<string, string> } {
  const payload = typeof event === "string" ? event : JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp ?? nowSeconds(),
  });
  return { payload, headers: { "content-type": "application/json", "stripe-signature": signature } };
}
