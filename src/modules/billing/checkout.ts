import type { FastifyBaseLogger } from "fastify";
import type Stripe from "stripe";
import type { BillingConfig } from "../../config/billing.js";
import type { Currency, PaidPlan, PlanConfig } from "../../config/plans.js";
import type { Db } from "../../db/client.js";
import type { Tenant } from "../../platform/auth/types.js";
import { AppError } from "../../platform/errors/app-error.js";
import * as repo from "./repo.js";
import { isInvalidRequest, providerFailure, requireStripe, type StripeClient } from "./stripe.js";

export interface CheckoutDeps {
  db: Db;
  stripe: StripeClient;
  plans: PlanConfig;
  billing: BillingConfig;
  log: FastifyBaseLogger;
}

/** Statuses of a subscription that still bills (or will, once paid up): a new checkout would double it. */
const LIVE_STATUSES = new Set(["active", "trialing", "past_due", "unpaid", "paused", "suspended"]);

/** Country headers set by the edge network (Cloudflare, Vercel); `XX` and `T1` (Tor) name no country. */
const COUNTRY_HEADERS = ["cf-ipcountry", "x-vercel-ip-country"] as const;

/** USD when the edge names a country other than Brazil; BRL otherwise, including when it names none. */
export function checkoutCurrency(headers: Record<string, string | string[] | undefined>): Currency {
  for (const name of COUNTRY_HEADERS) {
    const value = headers[name];
    const country = typeof value === "string" ? value.trim().toUpperCase() : "";
    if (!/^[A-Z]{2}$/.test(country) || country === "XX" || country === "T1") continue;
    return country === "BR" ? "brl" : "usd";
  }
  return "brl";
}

/**
 * The tenant's Stripe customer, created at its first checkout and kept. Stripe's idempotency key makes two
 * concurrent first checkouts create one customer; the database keeps whichever row was stored first.
 */
async function ensureCustomer(deps: CheckoutDeps, stripe: Stripe, tenant: Tenant, email?: string) {
  const existing = await repo.findBilling(deps.db, tenant.id);
  if (existing !== undefined) return existing.stripeCustomerId;
  let customer: Stripe.Customer;
  try {
    customer = await stripe.customers.create(
      { name: tenant.name, ...(email === undefined ? {} : { email }), metadata: { tenantId: tenant.id } },
      { idempotencyKey: `aula-customer-${tenant.id}` },
    );
  } catch (err) {
    throw providerFailure(err);
  }
  return repo.storeCustomer(deps.db, tenant.id, customer.id);
}

export interface CheckoutRequest {
  plan: PaidPlan;
  currency: Currency;
  /** `https://acme.example.com`: where Stripe sends the buyer back. */
  origin: string;
  email?: string;
}

export async function createCheckout(deps: CheckoutDeps, tenant: Tenant, request: CheckoutRequest) {
  const stripe = await requireStripe(deps.stripe);
  const price = deps.plans.prices[request.plan][request.currency];
  if (price === undefined) {
    throw new AppError("billing_not_configured", {
      cause: new Error(`no price for ${request.plan} ${request.currency}`),
    });
  }
  const current = await repo.findBilling(deps.db, tenant.id);
  if (current?.status != null && LIVE_STATUSES.has(current.status)) {
    // A second subscription would charge the institution twice; plan changes go through the portal.
    throw new AppError("conflict", { messageKey: "conflict.already_subscribed" });
  }
  const customer = await ensureCustomer(deps, stripe, tenant, request.email);
  const metadata = { tenantId: tenant.id, plan: request.plan };
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: "subscription",
    customer,
    client_reference_id: tenant.id,
    metadata,
    // Subscriptions carry the tenant too, so every later event can be cross-checked against it.
    subscription_data: { metadata },
    line_items: [{ price, quantity: 1 }],
    success_url: `${request.origin}/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${request.origin}/billing?checkout=canceled`,
  };
  const methods = request.currency === "brl" ? deps.billing.brlMethods : ["card"];
  let session: Stripe.Checkout.Session;
  try {
    session = await createSession(stripe, params, methods);
  } catch (err) {
    if (!refusesMethods(err) || methods.length === 1) throw providerFailure(err);
    // Boleto and Pix must be activated on the Stripe account (and Pix is not offered for every subscription):
    // selling by card beats not selling, but someone must activate them, hence the warning.
    deps.log.warn(
      { tenantId: tenant.id, methods, reason: (err as Error).message },
      "Stripe refused the Brazilian payment methods; checkout falls back to card only",
    );
    try {
      session = await createSession(stripe, params, ["card"]);
    } catch (retryErr) {
      throw providerFailure(retryErr);
    }
  }
  if (session.url === null)
    throw providerFailure(new Error("Stripe returned a checkout session without a url"));
  return { url: session.url };
}

/** Since API version 2026-10 the list is `allowed_payment_method_types` (it replaced `payment_method_types`). */
function createSession(stripe: Stripe, params: Stripe.Checkout.SessionCreateParams, methods: string[]) {
  return stripe.checkout.sessions.create({ ...params, allowed_payment_method_types: methods });
}

function refusesMethods(err: unknown): boolean {
  // `allowed_payment_method_types` since API 2026-10, `payment_method_types` before.
  return isInvalidRequest(err) && /^(allowed_)?payment_method_types/.test(err.param ?? "");
}

export async function createPortal(deps: CheckoutDeps, tenant: Tenant, origin: string) {
  const stripe = await requireStripe(deps.stripe);
  const billing = await repo.findBilling(deps.db, tenant.id);
  if (billing === undefined) throw new AppError("conflict", { messageKey: "conflict.no_billing_customer" });
  try {
    const session = await stripe.billingPortal.sessions.create({
      customer: billing.stripeCustomerId,
      return_url: `${origin}/billing`,
    });
    return { url: session.url };
  } catch (err) {
    throw providerFailure(err);
  }
}
