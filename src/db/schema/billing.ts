import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { isoTimestamp } from "./columns.js";
import { tenants } from "./tenancy.js";

/**
 * A tenant's Stripe customer and its current subscription, as the last applied provider event left it. The row is
 * created with the customer (at the first checkout) and kept; `tenants.plan` is what the plan grants.
 */
export const billingSubscriptions = pgTable(
  "billing_subscriptions",
  {
    tenantId: uuid("tenant_id")
      .primaryKey()
      .references(() => tenants.id, { onDelete: "cascade" }),
    stripeCustomerId: text("stripe_customer_id").notNull(),
    stripeSubscriptionId: text("stripe_subscription_id"),
    /** The paid plan the subscription's price maps to; null before the first subscription. */
    plan: text("plan"),
    priceId: text("price_id"),
    currency: text("currency"),
    /** Stripe's status (`active`, `past_due`, …) or our `suspended`; null before the first subscription. */
    status: text("status"),
    currentPeriodStart: isoTimestamp("current_period_start"),
    currentPeriodEnd: isoTimestamp("current_period_end"),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    graceDeadline: isoTimestamp("grace_deadline"),
    /** `created` and id of the newest provider event applied: older events are acknowledged, not applied. */
    lastEventAt: isoTimestamp("last_event_at"),
    lastEventId: text("last_event_id"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    uniqueIndex("billing_subscriptions_customer_key").on(t.stripeCustomerId),
    index("billing_subscriptions_grace_idx").on(t.graceDeadline).where(sql`${t.status} = 'past_due'`),
  ],
);

/**
 * The payment log: one row per provider event received, unique on (provider, event id), written in the same
 * transaction as the event's effect. `payload` is the event with personal data removed. Events that name no
 * known tenant are kept with `tenant_id` null, so the operator can see what was refused and why.
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").references(() => tenants.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    /** `applied`, `stale` (older than what was applied) or `ignored` (can never apply; see `reason`). */
    outcome: text("outcome").notNull(),
    reason: text("reason"),
    eventCreatedAt: isoTimestamp("event_created_at").notNull(),
    payload: jsonb("payload").notNull(),
    receivedAt: isoTimestamp("received_at").notNull().default(sql`now()`),
  },
  (t) => [
    uniqueIndex("payment_events_provider_event_key").on(t.provider, t.eventId),
    index("payment_events_tenant_received_idx").on(t.tenantId, t.receivedAt, t.id),
  ],
);
