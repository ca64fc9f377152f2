import { sql } from "drizzle-orm";
import {
  foreignKey,
  index,
  integer,
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
 * Opaque refresh tokens, stored as SHA-256. Every rotation adds a row in the same family; presenting a row that
 * was already rotated (`replaced_at` set) revokes the whole family.
 */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    userId: uuid("user_id").notNull(),
    familyId: uuid("family_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: isoTimestamp("expires_at").notNull(),
    replacedAt: isoTimestamp("replaced_at"),
    revokedAt: isoTimestamp("revoked_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("refresh_tokens_hash_key").on(t.tenantId, t.tokenHash),
    index("refresh_tokens_family_idx").on(t.tenantId, t.familyId),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    name: text("name").notNull(),
    scopes: text("scopes").array().notNull(),
    rateTier: text("rate_tier").notNull(),
    customPerHour: integer("custom_per_hour"),
    customPerMinute: integer("custom_per_minute"),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    /** `active` or `revoked`; revoked rows are kept for the audit trail and never authenticate. */
    status: text("status").notNull().default("active"),
    createdByUserId: uuid("created_by_user_id"),
    lastUsedAt: isoTimestamp("last_used_at"),
    revokedAt: isoTimestamp("revoked_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("api_keys_hash_key").on(t.tenantId, t.keyHash),
    index("api_keys_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
  ],
);
