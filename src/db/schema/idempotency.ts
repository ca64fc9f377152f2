import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { tenants } from "./tenancy.js";

/**
 * `Idempotency-Key` of POST requests, per tenant and principal (`key:<api key id>` or `user:<user id>`), for 24
 * hours: the request's fingerprint and, once it finished, the response to replay, sealed with the secrets key
 * (responses carry API key secrets, signing secrets, inbound and invitation tokens). A row without
 * `status_code` is a request still running.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    principal: text("principal").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    statusCode: integer("status_code"),
    contentType: text("content_type"),
    /** `secret-box` sealed text of the response body. */
    responseBody: text("response_body"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.principal, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
