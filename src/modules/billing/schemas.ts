import { Type } from "typebox";
import { PAID_PLANS, PLANS } from "../../config/plans.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";

export const SUBSCRIPTION_STATUSES = [
  "active",
  "trialing",
  "past_due",
  "canceled",
  "unpaid",
  "incomplete",
  "incomplete_expired",
  "paused",
  "suspended",
] as const;

export const CheckoutBody = Type.Object(
  { plan: StringEnum(PAID_PLANS, { description: "The paid plan to buy." }) },
  { additionalProperties: false, examples: [{ plan: "growth" }] },
);

const redirectUrl = (example: string) =>
  Type.Object(
    { url: Type.String({ format: "uri", description: "Send the browser here (a Stripe-hosted page)." }) },
    { additionalProperties: false, examples: [{ url: example }] },
  );
/** A Stripe Checkout Session's page. */
export const RedirectUrl = redirectUrl("https://checkout.stripe.com/c/pay/cs_live_a1B2c3D4e5F6g7H8i9J0kLmN");
/** A Stripe customer portal session's page. */
export const PortalUrl = redirectUrl("https://billing.stripe.com/p/session/live_YWNjdF8xUXhZejJBYkNkRWZHaEk");

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const SubscriptionStatus = Type.Object(
  {
    plan: StringEnum(PLANS, { description: "The plan in force; `free` until a subscription is paid." }),
    students: Type.Object(
      {
        used: Type.Integer({
          minimum: 0,
          description:
            "Seats taken: users with the `student` role plus other users holding a student enrollment that is " +
            "not dropped. The count creations and enrollments are checked against.",
        }),
        limit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
          description: "The plan's student limit (configuration); null if the plan is not in the catalogue.",
        }),
      },
      { additionalProperties: false },
    ),
    status: Type.Union([StringEnum(SUBSCRIPTION_STATUSES), Type.Null()], {
      description:
        "Stripe's status, or `suspended` once a `past_due` grace ran out; null if never subscribed.",
    }),
    subscribedPlan: Type.Union([StringEnum(PAID_PLANS), Type.Null()], {
      description: "The plan the subscription is for, whatever its status.",
    }),
    currency: Type.Union([StringEnum(["brl", "usd"]), Type.Null()]),
    currentPeriodStart: nullable(IsoDateTime),
    currentPeriodEnd: nullable(IsoDateTime),
    cancelAtPeriodEnd: Type.Boolean(),
    graceDeadline: Type.Union([IsoDateTime, Type.Null()], {
      description: "While `past_due`: when access is suspended unless a payment succeeds first.",
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        plan: "growth",
        students: { used: 212, limit: 250 },
        status: "active",
        subscribedPlan: "growth",
        currency: "brl",
        currentPeriodStart: "2026-11-01T00:00:00.000Z",
        currentPeriodEnd: "2026-12-01T00:00:00.000Z",
        cancelAtPeriodEnd: false,
        graceDeadline: null,
      },
    ],
  },
);

export const PaymentEvent = Type.Object(
  {
    id: Uuid,
    provider: Type.String(),
    externalEventId: Type.String({ description: "The provider's event id (`evt_…`)." }),
    type: Type.String(),
    outcome: StringEnum(["applied", "stale", "ignored"], {
      description: "`stale`: older than an event already applied; `ignored`: can never apply (see `reason`).",
    }),
    reason: Type.Union([Type.String(), Type.Null()]),
    eventCreatedAt: IsoDateTime,
    receivedAt: IsoDateTime,
    rawPayload: Type.Object(
      {},
      { additionalProperties: true, description: "The event as received, personal data redacted." },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b",
        provider: "stripe",
        externalEventId: "evt_1QxYz2AbCdEfGhIjKlMnOpQr",
        type: "invoice.paid",
        outcome: "applied",
        reason: null,
        eventCreatedAt: "2026-11-23T11:59:58.000Z",
        receivedAt: "2026-11-23T12:00:00.000Z",
        rawPayload: {
          id: "evt_1QxYz2AbCdEfGhIjKlMnOpQr",
          type: "invoice.paid",
          created: 1795435198,
          data: {
            object: {
              id: "in_1QxYz1AbCdEfGhIjStUvWxYz",
              object: "invoice",
              customer: "cus_R4nD0mCu5t0m3r",
              customer_email: "[redacted]",
              subscription: "sub_1QxYz0AbCdEfGhIj",
              status: "paid",
              amount_paid: 29900,
              currency: "brl",
            },
          },
        },
      },
    ],
  },
);

export const PaymentEventQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const PaymentEventPage = PageOf(PaymentEvent);

export const WebhookAck = Type.Object(
  {
    received: Type.Literal(true),
    outcome: StringEnum(["applied", "stale", "ignored", "duplicate", "unhandled"]),
  },
  { additionalProperties: false, examples: [{ received: true, outcome: "applied" }] },
);

export const GraceExpiry = Type.Object(
  {
    expired: Type.Integer({ minimum: 0, description: "Subscriptions moved from `past_due` to `suspended`." }),
  },
  { additionalProperties: false, examples: [{ expired: 1 }] },
);
