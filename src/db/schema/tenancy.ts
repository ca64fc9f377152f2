import { sql } from "drizzle-orm";
import { bigint, index, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";

export const tenants = pgTable("tenants", {
  id: uuid("id").primaryKey().defaultRandom(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  plan: text("plan").notNull().default("free"),
  defaultLocale: text("default_locale").notNull().default("pt-BR"),
  timezone: text("timezone").notNull().default("America/Sao_Paulo"),
  contactEmail: text("contact_email"),
  createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
});

/** Custom domains; a host maps to a tenant only once `verified_at` is set. */
export const tenantDomains = pgTable(
  "tenant_domains",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    host: text("host").notNull(),
    verificationToken: text("verification_token").notNull(),
    verifiedAt: isoTimestamp("verified_at"),
    /** The last DNS check: when it ran and, if it failed, why (`failed` status until a check passes). */
    lastCheckedAt: isoTimestamp("last_checked_at"),
    lastCheckError: text("last_check_error"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  // Several institutions may claim a host while it is pending (a claim proves nothing until its own TXT token is
  // published), but only one may hold it verified: the first to verify.
  (t) => [
    primaryKey({ columns: [t.tenantId, t.host] }),
    uniqueIndex("tenant_domains_verified_host_key").on(t.host).where(sql`${t.verifiedAt} IS NOT NULL`),
    index("tenant_domains_tenant_created_idx").on(t.tenantId, t.createdAt, t.host),
  ],
);

/**
 * Exact row counts per tenant (`courses`, `courses:status:draft`, `users:role:student`, …), maintained by
 * statement-level triggers in the same transaction as the change, so a list's `total` never counts rows.
 */
export const tenantCounters = pgTable(
  "tenant_counters",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    counter: text("counter").notNull(),
    value: bigint("value", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.counter] })],
);

/**
 * Counter changes waiting for their transaction's commit (migration 0067): written by aula_count_rows_at_commit
 * under the transaction's id, moved into tenant_counters by a deferred trigger at commit. Empty between
 * transactions.
 */
export const counterDeltas = pgTable(
  "counter_deltas",
  {
    xact: bigint("xact", { mode: "number" }).notNull(),
    tenantId: uuid("tenant_id").notNull(),
    counter: text("counter").notNull(),
    delta: bigint("delta", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ name: "counter_deltas_pk", columns: [t.xact, t.tenantId, t.counter] })],
);
