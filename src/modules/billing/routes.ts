import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { adminSessionOnly, signedIn } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { AppError } from "../../platform/errors/app-error.js";
import { publicOrigin } from "../../platform/http/host.js";
import { storableJson } from "../../platform/http/storable.js";
import type { App } from "../../platform/http/types.js";
import { checkoutCurrency, createCheckout, createPortal } from "./checkout.js";
import { expireGracePeriods } from "./grace.js";
import { readEnvelope } from "./payload.js";
import {
  CheckoutBody,
  GraceExpiry,
  PaymentEventPage,
  PaymentEventQuery,
  PortalUrl,
  RedirectUrl,
  SubscriptionStatus,
  WebhookAck,
} from "./schemas.js";
import * as service from "./service.js";
import { createStripeClient, loadStripe } from "./stripe.js";
import { handleStripeEvent } from "./webhook.js";

const tags = ["billing"];
const adminSession = adminSessionOnly();
/** The plan and subscription status: any member's session, or keys with `settings:read`. */
const readSubscription = signedIn("settings:read");
/** Stripe's default, and the replay window the contract and SECURITY.md test. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export async function billingRoutes(app: App, ctx: AppContext): Promise<void> {
  const db = ctx.database.db;
  const { config } = ctx;
  const stripe = createStripeClient(config.billing);
  const checkoutDeps = { db, stripe, plans: config.plans, billing: config.billing, log: app.log };
  // Where Stripe sends the buyer back: the Host header the pipeline resolved to this tenant. Not `request.host`,
  // which behind a trusted proxy is X-Forwarded-Host and could point the return trip anywhere.
  const originOf = (request: FastifyRequest) => publicOrigin(request);

  app.post(
    "/api/institution/billing/checkout",
    {
      config: { access: adminSession, openWhileInactive: true, errors: [502, 503] },
      schema: {
        tags,
        summary: "Start a Stripe Checkout for a paid plan",
        description:
          "Answers the URL of a Stripe Checkout Session (subscription mode) for the institution's Stripe customer. " +
          "Currency: USD when `CF-IPCountry` or `X-Vercel-IP-Country` names a country other than BR, BRL otherwise. " +
          "BRL offers card plus `STRIPE_BRL_METHODS` (card alone if Stripe refuses them); USD offers card. The plan " +
          "changes only when Stripe reports the payment. 409 `conflict` while a subscription is live " +
          "(active, trialing, past_due, unpaid, paused, suspended): change it in the portal instead.",
        body: CheckoutBody,
        response: { 200: RedirectUrl },
      },
    },
    (request) => {
      const principal = principalOf(request);
      return createCheckout(checkoutDeps, tenantOf(request), {
        plan: request.body.plan,
        currency: checkoutCurrency(request.headers),
        origin: originOf(request),
        email: principal.kind === "session" ? principal.email : undefined,
      });
    },
  );

  app.post(
    "/api/institution/billing/portal",
    {
      config: { access: adminSession, openWhileInactive: true, errors: [502, 503] },
      schema: {
        tags,
        summary: "Open the Stripe customer portal",
        description:
          "A temporary URL of Stripe's self-service portal: change plan, update the card, see invoices, cancel. " +
          "409 `conflict` when the institution has no Stripe customer yet (no checkout was ever started).",
        response: { 200: PortalUrl },
      },
    },
    (request) => createPortal(checkoutDeps, tenantOf(request), originOf(request)),
  );

  app.get(
    "/api/institution/billing/subscription",
    {
      config: {
        access: readSubscription,
        openWhileInactive: true,
      },
      schema: {
        tags,
        summary: "The institution's plan and subscription",
        description:
          "The plan in force, the Stripe subscription's state, and `students`: the seats the plan's student limit " +
          "counts as taken (every `student` user, and every other user holding a student enrollment that is not " +
          "dropped) against that limit.",
        response: { 200: SubscriptionStatus },
      },
    },
    (request) => service.subscriptionStatus(db, config.plans, tenantOf(request).id),
  );

  app.get(
    "/api/institution/billing/events",
    {
      config: { access: adminSession, openWhileInactive: true },
      schema: {
        tags,
        summary: "The payment log",
        description:
          "Every Stripe event received for this institution, newest first, with what became of it. Payloads have " +
          "personal data (names, e-mails, phones, addresses, tax ids) removed.",
        querystring: PaymentEventQuery,
        response: { 200: PaymentEventPage },
      },
    },
    (request) => service.listPaymentEvents(db, tenantOf(request).id, request.query),
  );

  app.route({
    method: ["GET", "POST"],
    url: "/api/cron/billing-grace-expire",
    config: { access: { kind: "cron" } },
    schema: {
      tags,
      summary: "Suspend subscriptions whose grace period ended",
      description:
        "Moves every `past_due` subscription whose 7-day grace has elapsed to `suspended`. The worker also runs " +
        "this hourly; calling it more often is harmless.",
      response: { 200: GraceExpiry },
    },
    handler: async () => ({ expired: await expireGracePeriods(db, ctx.tenants) }),
  });

  // The signature covers the exact bytes Stripe sent, so this route alone takes its JSON body unparsed.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      "/api/webhooks/stripe",
      {
        config: { access: { kind: "public" }, errors: [413, 415, 502, 503] },
        schema: {
          tags,
          summary: "Stripe webhook endpoint",
          description:
            "For Stripe only. The `Stripe-Signature` header is verified over the raw body (300 s tolerance) before " +
            "anything else: 400 `invalid_signature` otherwise. Each event is applied once, in one transaction with " +
            "its payment-log row; a repeat answers 200 and changes nothing; a failure answers 5xx with nothing " +
            "applied, so Stripe retries. Unknown event types answer 200.",
          headers: Type.Object({ "stripe-signature": Type.Optional(Type.String()) }),
          response: { 200: WebhookAck },
        },
      },
      async (request) => {
        const secret = config.billing.webhookSecret;
        if (secret === undefined) throw new AppError("billing_not_configured");
        const signature = request.headers["stripe-signature"];
        const raw = request.body;
        if (typeof signature !== "string" || !Buffer.isBuffer(raw)) throw new AppError("invalid_signature");
        const StripeSdk = await loadStripe();
        let event: unknown;
        try {
          // Signed by Stripe, so never refused (Stripe would retry it forever): U+0000 and lone surrogates, which
          // PostgreSQL cannot store, become U+FFFD, and the event is processed and logged as that copy.
          event = storableJson(
            StripeSdk.webhooks.constructEvent(raw, signature, secret, SIGNATURE_TOLERANCE_SECONDS),
          );
        } catch (err) {
          throw new AppError("invalid_signature", { cause: err });
        }
        const envelope = readEnvelope(event);
        if (envelope === undefined) {
          request.log.warn(
            "signed Stripe event without id, type, created or data.object: acknowledged, ignored",
          );
          return { received: true as const, outcome: "unhandled" as const };
        }
        const result = await handleStripeEvent({ db, stripe, plans: config.plans }, envelope, event);
        if (result.outcome === "applied" && result.tenantId !== undefined)
          await ctx.tenants.changed(result.tenantId);
        request.log.info(
          { stripeEventId: envelope.id, type: envelope.type, ...result },
          `Stripe event ${result.outcome}`,
        );
        return { received: true as const, outcome: result.outcome };
      },
    );
  });
}
