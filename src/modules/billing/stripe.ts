import Stripe from "stripe";
import type { BillingConfig } from "../../config/billing.js";
import { AppError } from "../../platform/errors/app-error.js";

/** The SDK client, or null when `STRIPE_SECRET_KEY` is unset (checkout and portal then answer 503). */
export function createStripeClient(config: BillingConfig): Stripe | null {
  if (config.stripeSecretKey === undefined) return null;
  return new Stripe(config.stripeSecretKey, {
    ...(config.apiBase ?? {}),
    maxNetworkRetries: config.maxNetworkRetries,
    timeout: 10_000,
    telemetry: false,
  });
}

export function requireStripe(stripe: Stripe | null): Stripe {
  if (stripe === null) throw new AppError("billing_not_configured");
  return stripe;
}

/** Stripe answered that the object does not exist: retrying will not make it exist. */
export function isMissingObject(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404;
}

/** Any other failure to talk to Stripe is ours to retry later: a 502 that leaves nothing applied. */
export function providerFailure(err: unknown): AppError {
  return new AppError("payment_provider_error", { cause: err });
}
