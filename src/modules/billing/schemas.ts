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
  { additionalProperties: false },
);

export const RedirectUrl = Type.Object(
  { url: Type.String({ format: "uri", description: "Send the browser here (a Stripe-hosted page)." }) },
  { additionalProperties: false },
);

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const SubscriptionStatus = Type.Object(
  {
    plan: StringEnum(PLANS, { description: "The plan in force; `free` until a subscription is paid." }),
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
  { additionalProperties: false },
);

export const PaymentEvent = Type.Object(
  {
    id: Uuid,
    provider: Type.String(),
    eventId: Type.String({ description: "The provider's event id (`evt_…`)." }),
    type: Type.String(),
    outcome: StringEnum(["applied", "stale", "ignored"], {
      description: "`stale`: older than an event already applied; `ignored`: can never apply (see `reason`).",
    }),
    reason: Type.Union([Type.String(), Type.Null()]),
    eventCreatedAt: IsoDateTime,
    receivedAt: IsoDateTime,
    payload: Type.Object(
      {},
      { additionalProperties: true, description: "The event, personal data redacted." },
    ),
  },
  { additionalProperties: false },
);

export const PaymentEventQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const PaymentEventPage = PageOf(PaymentEvent);

export const WebhookAck = Type.Object(
  {
    received: Type.Literal(true),
    outcome: StringEnum(["applied", "stale", "ignored", "duplicate", "unhandled"]),
  },
  { additionalProperties: false },
);

export const GraceExpiry = Type.Object(
  {
    expired: Type.Integer({ minimum: 0, description: "Subscriptions moved from `past_due` to `suspended`." }),
  },
  { additionalProperties: false },
);
