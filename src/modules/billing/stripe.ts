import type Stripe from "stripe";
import type { BillingConfig } from "../../config/billing.js";
import { AppError } from "../../platform/errors/app-error.js";

let sdk: typeof Stripe | undefined;

/**
 * The Stripe SDK, imported at its first use: about 8 MB of every server's memory at start-up otherwise, while only
 * the billing routes and the webhook ever call it (and nothing at all when billing is not configured).
 */
export async function loadStripe(): Promise<typeof Stripe> {
  sdk ??= (await import("stripe")).default;
  return sdk;
}

/** The SDK client, built at its first use; null when `STRIPE_SECRET_KEY` is unset (checkout and portal answer 503). */
export type StripeClient = () => Promise<Stripe | null>;

export function createStripeClient(config: BillingConfig): StripeClient {
  const key = config.stripeSecretKey;
  if (key === undefined) return async () => null;
  let client: Promise<Stripe> | undefined;
  return () => {
    client ??= loadStripe().then(
      (StripeSdk) =>
        new StripeSdk(key, {
          ...(config.apiBase ?? {}),
          maxNetworkRetries: config.maxNetworkRetries,
          timeout: 10_000,
          telemetry: false,
        }),
    );
    return client;
  };
}

export async function requireStripe(stripe: StripeClient): Promise<Stripe> {
  const client = await stripe();
  if (client === null) throw new AppError("billing_not_configured");
  return client;
}

/** Stripe refused the request's parameters; only the loaded SDK can have thrown its error classes. */
export function isInvalidRequest(err: unknown): err is Stripe.errors.StripeInvalidRequestError {
  return sdk !== undefined && err instanceof sdk.errors.StripeInvalidRequestError;
}

/** Stripe answered that the object does not exist: retrying will not make it exist. */
export function isMissingObject(err: unknown): boolean {
  return isInvalidRequest(err) && err.statusCode === 404;
}

/** Any other failure to talk to Stripe is ours to retry later: a 502 that leaves nothing applied. */
export function providerFailure(err: unknown): AppError {
  return new AppError("payment_provider_error", { cause: err });
}
