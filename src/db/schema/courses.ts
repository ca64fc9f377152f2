import { sql } from "drizzle-orm";
import { index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { tenants } from "./tenancy.js";

export const courses = pgTable(
  "courses",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    title: text("title").notNull(),
    description: text("description"),
    status: text("status").notNull().default("draft"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Scanned backwards for "newest first": a DESC NULLS LAST index would be ignored by ORDER BY … DESC.
    index("courses_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("courses_tenant_title_idx").on(t.tenantId, sql`aula_fold(${t.title})`, t.title, t.id),
    index("courses_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    // `sort=updatedAt|-updatedAt` pages through the index instead of sorting every course of the tenant.
    index("courses_tenant_updated_idx").on(t.tenantId, t.updatedAt, t.id),
    index("courses_search_idx").using(
      "gin",
      t.tenantId,
      sql`aula_fold(${t.title} || ' ' || coalesce(${t.description}, '')) gin_trgm_ops`,
    ),
  ],
);
