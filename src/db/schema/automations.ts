import { sql } from "drizzle-orm";
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  pgView,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { tenants } from "./tenancy.js";
import { users } from "./users.js";

/**
 * Platform events (`lesson_completed`, `user_created`, …), written by the service that caused them inside its own
 * transaction, kept 30 days. Each delivery made for an event has its own `webhook-id` (the delivery id), so two
 * automations posting to one receiver are never deduplicated into one; the delivery log names the event.
 */
export const platformEvents = pgTable(
  "platform_events",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    type: text("type").notNull(),
    schemaVersion: integer("schema_version").notNull(),
    occurredAt: isoTimestamp("occurred_at").notNull().default(sql`now()`),
    /** Who caused it: `{type: "user"|"api_key"|"system"|"webhook", id?}`. */
    actor: jsonb("actor").notNull(),
    /** The user the event is about, as it was then (`{{user.*}}`); null for events about no user. */
    subject: jsonb("subject"),
    data: jsonb("data").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // GET /events in (occurred_at, id) order: all, by type, by the user an event is about (migration 0035). The
    // 30-day purge walks the first tenant by tenant; there is no index by time alone (migration 0040).
    index("platform_events_tenant_occurred_idx").on(t.tenantId, t.occurredAt, t.id),
    index("platform_events_tenant_type_idx").on(t.tenantId, t.type, t.occurredAt, t.id),
    index("platform_events_tenant_subject_idx")
      .on(t.tenantId, sql`(${t.subject} ->> 'id')`, t.occurredAt, t.id)
      .where(sql`${t.subject} IS NOT NULL`),
  ],
);

/**
 * Trigger → condition → action. `action` is `{type: "send_webhook", url, headers?, body?}`; the signing secret is
 * sealed (AES-256-GCM, see platform/crypto). A `webhook` automation (inbound) keeps only a hash of its token.
 */
export const automations = pgTable(
  "automations",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    /**
     * `automation` (one trigger, a condition, a templated request) or `endpoint` (a webhook subscription of a URL
     * to several event types, Svix-style, with the default payload). Both share secrets and deliveries.
     */
    kind: text("kind").notNull().default("automation"),
    name: text("name").notNull(),
    description: text("description"),
    enabled: boolean("enabled").notNull().default(true),
    /** The trigger of an automation; `*` for an endpoint, whose types are in `event_types`. */
    triggerEvent: text("trigger_event").notNull(),
    eventTypes: text("event_types").array(),
    condition: jsonb("condition"),
    action: jsonb("action").notNull(),
    signingSecret: text("signing_secret").notNull(),
    inboundTokenHash: text("inbound_token_hash"),
    /** Set when deliveries have failed for 5 days straight; the automation is disabled and says why. */
    disabledReason: text("disabled_reason"),
    failingSince: isoTimestamp("failing_since"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("automations_tenant_created_idx").on(t.tenantId, t.kind, t.createdAt, t.id),
    index("automations_trigger_idx").on(t.tenantId, t.triggerEvent).where(sql`${t.enabled}`),
    uniqueIndex("automations_inbound_token_key")
      .on(t.inboundTokenHash)
      .where(sql`${t.inboundTokenHash} IS NOT NULL`),
  ],
);

/**
 * The outbox: one row per (automation, event), written in the event's transaction, so a delivery exists if and
 * only if its event does. The request is rendered when the row is written; every attempt sends the same bytes
 * under the same `webhook-id` (the delivery id), signed afresh.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    automationId: uuid("automation_id").notNull(),
    eventId: uuid("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** `pending` (due at next_attempt_at), `delivering` (leased by a worker), `succeeded`, `failed` (gave up). */
    status: text("status").notNull().default("pending"),
    url: text("url").notNull(),
    headers: jsonb("headers").notNull(),
    body: text("body").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: isoTimestamp("next_attempt_at").notNull().default(sql`now()`),
    /** A worker's claim; a claim that outlives it (the worker died) is taken over by the next one. */
    leaseUntil: isoTimestamp("lease_until"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    /**
     * The attempt that succeeded, kept on the delivery instead of as a `delivery_attempts` row (attempt number
     * `attempts`, status `last_status_code`): a success is what almost every attempt is, and its own row (heap,
     * primary key, foreign key check, statistics trigger) was half of what recording it cost PostgreSQL. The view
     * `delivery_attempt_log` (migration 0029) reads both as one log. Null until the delivery succeeds.
     */
    successStartedAt: isoTimestamp("success_started_at"),
    successDurationMs: integer("success_duration_ms"),
    successExcerpt: text("success_excerpt"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    completedAt: isoTimestamp("completed_at"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      columns: [t.tenantId, t.automationId],
      foreignColumns: [automations.tenantId, automations.id],
    }).onDelete("cascade"),
    // Unfinished deliveries (pending or delivering: `completed_at` is set exactly when a delivery succeeds or
    // fails) by when they are due. No index names `status`, so a claim (status, attempts, lease_until) changes no
    // indexed column and is a HOT update, writing no index entry (the table keeps room on its pages for it).
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.completedAt} IS NULL`),
    index("webhook_deliveries_automation_idx").on(t.tenantId, t.automationId, t.createdAt, t.id),
    // Per automation, the deliveries not yet completed, oldest first (stats: pending count and oldest age). Only
    // unfinished rows are in it, so it is as large as the backlog, not the history.
    index("webhook_deliveries_pending_idx")
      .on(t.tenantId, t.automationId, t.createdAt)
      .where(sql`${t.completedAt} IS NULL`),
    // Per endpoint, the unfinished deliveries by when they are due: when one endpoint's backlog fills the head of
    // the due index, the claim reaches the other endpoints through this one (a skip scan over the endpoints with
    // work, then each one's oldest due rows) instead of reading past the backlog.
    index("webhook_deliveries_endpoint_due_idx")
      .on(t.tenantId, t.automationId, t.nextAttemptAt)
      .where(sql`${t.completedAt} IS NULL`),
    // The retention purge finds expired completed rows by age without reading the history around them.
    index("webhook_deliveries_completed_idx").on(t.completedAt).where(sql`${t.completedAt} IS NOT NULL`),
  ],
);

/**
 * Every attempt of a delivery but the one that succeeded (on the delivery row): what was answered (truncated) or
 * why it failed, and how long it took. A successful attempt has a row here only when it was made under a claim
 * that was no longer its worker's (the lease had expired and another worker took the delivery over).
 */
export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    tenantId: tenantIdColumn(),
    deliveryId: uuid("delivery_id").notNull(),
    /**
     * The delivery's automation, copied from it when the attempt is logged: the statistics trigger (delivery_stats)
     * counts attempts per automation from the inserted rows alone instead of joining each back to its delivery.
     */
    automationId: uuid("automation_id").notNull(),
    attempt: integer("attempt").notNull(),
    startedAt: isoTimestamp("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    /** `succeeded`, `http_error`, `timeout`, `network`, `blocked`, `invalid`. */
    outcome: text("outcome").notNull(),
    statusCode: integer("status_code"),
    responseExcerpt: text("response_excerpt"),
    error: text("error"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.deliveryId, t.attempt] }),
    foreignKey({
      columns: [t.tenantId, t.deliveryId],
      foreignColumns: [webhookDeliveries.tenantId, webhookDeliveries.id],
    }).onDelete("cascade"),
  ],
);

/**
 * The delivery log as one relation (a view, migration 0029): the `delivery_attempts` rows, and each succeeded
 * delivery's successful attempt from its row. Read-only; the API's attempt log and the tests read it.
 */
export const deliveryAttemptLog = pgView("delivery_attempt_log", {
  tenantId: uuid("tenant_id").notNull(),
  deliveryId: uuid("delivery_id").notNull(),
  automationId: uuid("automation_id").notNull(),
  attempt: integer("attempt").notNull(),
  startedAt: isoTimestamp("started_at").notNull(),
  durationMs: integer("duration_ms").notNull(),
  outcome: text("outcome").notNull(),
  statusCode: integer("status_code"),
  responseExcerpt: text("response_excerpt"),
  error: text("error"),
}).existing();

/**
 * Attempts and successes per automation per minute (UTC, by the attempt's start) and per database session that
 * recorded them, kept by a statement-level trigger on delivery_attempts (migration 0016), so the last hour's
 * success rate reads 60 minutes × the sessions that recorded, however many attempts were made. Rows older than
 * two hours are purged (modules/outbox/retention.ts).
 *
 * `slot` is the recording session's backend pid: a session runs one transaction at a time, so two concurrent
 * transactions never update the same row. One row per (automation, minute) would make every worker recording for
 * a busy endpoint wait on it until commit, and deadlock a batch of successes that then clears the automation's
 * `failing_since` against a failure recorded meanwhile (which locks the automation first, then the bucket).
 */
export const deliveryStats = pgTable(
  "delivery_stats",
  {
    tenantId: tenantIdColumn(),
    automationId: uuid("automation_id").notNull(),
    minute: isoTimestamp("minute").notNull(),
    slot: integer("slot").notNull(),
    attempts: integer("attempts").notNull(),
    succeeded: integer("succeeded").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.automationId, t.minute, t.slot] }),
    foreignKey({
      columns: [t.tenantId, t.automationId],
      foreignColumns: [automations.tenantId, automations.id],
    }).onDelete("cascade"),
    // The purge of old buckets scans by time across tenants.
    index("delivery_stats_minute_idx").on(t.minute),
  ],
);

/** Inbound webhook requests already accepted, by `Idempotency-Key`/`webhook-id`, for 24 hours. */
export const inboundReceipts = pgTable(
  "inbound_receipts",
  {
    tenantId: tenantIdColumn(),
    automationId: uuid("automation_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    eventId: uuid("event_id").notNull(),
    receivedAt: isoTimestamp("received_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.automationId, t.idempotencyKey] }),
    foreignKey({
      columns: [t.tenantId, t.automationId],
      foreignColumns: [automations.tenantId, automations.id],
    }).onDelete("cascade"),
    index("inbound_receipts_received_idx").on(t.receivedAt),
  ],
);

/**
 * `user_inactive` already emitted, per user and threshold, for the activity it measured from: one event per
 * inactivity period. New activity moves the user's last activity past `activity_at`, which re-arms it.
 */
export const inactivityNotices = pgTable(
  "inactivity_notices",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull(),
    thresholdDays: integer("threshold_days").notNull(),
    activityAt: isoTimestamp("activity_at").notNull(),
    emittedAt: isoTimestamp("emitted_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.thresholdDays] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);
