import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { tenants } from "./tenancy.js";

/**
 * A background job (migration 0059): queued, claimed by a worker under a lease (src/db/lease.ts), run, finished.
 * A report run is a job of type `report`, its report type in `subtype`, its file in `result`.
 */
export const jobs = pgTable(
  "jobs",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    type: text("type").notNull(),
    subtype: text("subtype"),
    status: text("status").notNull().default("queued"),
    progress: integer("progress").notNull().default(0),
    totalItems: bigint("total_items", { mode: "number" }).notNull().default(0),
    processedItems: bigint("processed_items", { mode: "number" }).notNull().default(0),
    succeededItems: bigint("succeeded_items", { mode: "number" }).notNull().default(0),
    failedItems: bigint("failed_items", { mode: "number" }).notNull().default(0),
    payload: jsonb("payload").notNull().default({}),
    result: jsonb("result"),
    error: text("error"),
    /** Claims so far; the running claim's number is its fencing token. */
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(3),
    runAt: isoTimestamp("run_at").notNull().default(sql`now()`),
    leaseUntil: isoTimestamp("lease_until"),
    cancelRequested: boolean("cancel_requested").notNull().default(false),
    /** `{type: "user"|"api_key", id}` */
    createdBy: jsonb("created_by"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    startedAt: isoTimestamp("started_at"),
    finishedAt: isoTimestamp("finished_at"),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("jobs_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("jobs_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    index("jobs_tenant_type_created_idx").on(t.tenantId, t.type, t.createdAt, t.id),
    index("jobs_tenant_type_status_created_idx").on(t.tenantId, t.type, t.status, t.createdAt, t.id),
    index("jobs_tenant_type_subtype_created_idx").on(t.tenantId, t.type, t.subtype, t.createdAt, t.id),
    index("jobs_due_idx").on(t.runAt).where(sql`status IN ('queued', 'running')`),
    index("jobs_tenant_running_idx").on(t.tenantId, t.leaseUntil).where(sql`status = 'running'`),
  ],
);
