import { sql } from "drizzle-orm";
import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { tenants } from "./tenancy.js";
import { users } from "./users.js";

/**
 * An institution's own version of a mail template in one locale: an override of a built-in key (`invite`, …) or
 * a `custom.*` template of its own. Built-in defaults live in the code (modules/email/defaults.ts), not here.
 */
export const emailTemplates = pgTable(
  "email_templates",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    locale: text("locale").notNull(),
    subject: text("subject").notNull(),
    /** Sanitised with sanitize-html when written. */
    bodyHtml: text("body_html").notNull(),
    bodyText: text("body_text").notNull(),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.key, t.locale] }),
    index("email_templates_tenant_locale_key_idx").on(t.tenantId, t.locale, t.key),
  ],
);

/**
 * The mail outbox and its log: written in the transaction of the change that causes the mail, claimed by the
 * worker (`FOR UPDATE SKIP LOCKED` and a lease), sent, and kept with its status. The rendered parts are sealed
 * with the secrets key (`body_sealed`): invitation and password-reset mails carry tokens.
 */
export const emailMessages = pgTable(
  "email_messages",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    /** The RFC 5322 Message-ID sent, `<id@domain>`; a bounce names the message by it. */
    messageId: text("message_id"),
    templateKey: text("template_key"),
    locale: text("locale").notNull(),
    toUserId: uuid("to_user_id"),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    /** NULL for a message the worker composes when it sends (migration 0055). */
    bodySealed: text("body_sealed"),
    /** What the worker renders and attaches when it sends: `{kind, id}` references, never bytes. */
    attachments: jsonb("attachments")
      .$type<{ kind: string; id: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** `queued` → `sent` | `failed`; `sent` → `bounced` | `complained`. */
    status: text("status").notNull().default("queued"),
    /** `system` (invitations, password reset) or `api` (POST /email/messages). */
    triggeredBy: text("triggered_by").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: isoTimestamp("next_attempt_at").notNull().default(sql`now()`),
    leaseUntil: isoTimestamp("lease_until"),
    lastError: text("last_error"),
    sentAt: isoTimestamp("sent_at"),
    bouncedAt: isoTimestamp("bounced_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("email_messages_message_id_key").on(t.messageId),
    index("email_messages_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("email_messages_tenant_template_created_idx").on(t.tenantId, t.templateKey, t.createdAt, t.id),
    index("email_messages_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    index("email_messages_tenant_user_idx").on(t.tenantId, t.toUserId, t.createdAt),
    /** The worker's claim: queued messages by due time, and nothing else. */
    index("email_messages_due_idx").on(t.nextAttemptAt).where(sql`status = 'queued'`),
  ],
);

/** Password-reset tokens, stored as SHA-256; single use, short-lived. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    userId: uuid("user_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: isoTimestamp("expires_at").notNull(),
    usedAt: isoTimestamp("used_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("password_reset_tokens_hash_key").on(t.tenantId, t.tokenHash),
    index("password_reset_tokens_user_idx").on(t.tenantId, t.userId),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);
