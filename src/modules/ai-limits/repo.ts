import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { queryRows } from "../../db/rows.js";
import { exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { OverrideRecord, PolicyRecord, PutOverrideInput, SubjectType, Unit } from "./schemas.js";
import type { Period } from "./window.js";

const iso = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

export interface StoredPolicy {
  enabled: boolean;
  unit: Unit;
  period: Period;
  perUserLimit: number | null;
  institutionLimit: number | null;
  onExhausted: "block" | "notify_only";
  updatedAt: string | null;
}

export const DEFAULT_POLICY: StoredPolicy = {
  enabled: false,
  unit: "credits",
  period: "month",
  perUserLimit: null,
  institutionLimit: null,
  onExhausted: "block",
  updatedAt: null,
};

/** The policy and the institution's time zone, in one read. */
export async function findPolicy(db: Executor, tenantId: string): Promise<PolicyRecord> {
  const [row] = await queryRows<Partial<StoredPolicy> & { resetTimezone: string }>(
    db,
    sql`SELECT t.timezone AS "resetTimezone", p.enabled, p.unit, p.period, p.per_user_limit AS "perUserLimit",
        p.institution_limit AS "institutionLimit", p.on_exhausted AS "onExhausted", ${iso("p.updated_at")} AS "updatedAt"
      FROM tenants t LEFT JOIN ai_limit_policies p ON p.tenant_id = t.id WHERE t.id = ${tenantId}`,
  );
  if (row === undefined || row.enabled === null || row.enabled === undefined) {
    return { ...DEFAULT_POLICY, resetTimezone: row?.resetTimezone ?? "UTC" };
  }
  return row as PolicyRecord;
}

export async function upsertPolicy(db: Executor, tenantId: string, p: Omit<StoredPolicy, "updatedAt">) {
  await db.execute(sql`INSERT INTO ai_limit_policies
      (tenant_id, enabled, unit, period, per_user_limit, institution_limit, on_exhausted)
    VALUES (${tenantId}, ${p.enabled}, ${p.unit}, ${p.period}, ${p.perUserLimit}, ${p.institutionLimit}, ${p.onExhausted})
    ON CONFLICT (tenant_id) DO UPDATE SET enabled = excluded.enabled, unit = excluded.unit, period = excluded.period,
      per_user_limit = excluded.per_user_limit, institution_limit = excluded.institution_limit,
      on_exhausted = excluded.on_exhausted, updated_at = now()`);
}

const OVERRIDE = sql`SELECT subject_type AS "subjectType", subject_id AS "subjectId", "limit",
  ${iso("expires_at")} AS "expiresAt", reason, ${iso("created_at")} AS "createdAt", ${iso("updated_at")} AS "updatedAt"
  FROM ai_limit_overrides`;

export async function listOverrides(
  db: Executor,
  tenantId: string,
  type: SubjectType | undefined,
  w: PageWindow,
) {
  const where = sql`tenant_id = ${tenantId} ${type === undefined ? sql`` : sql`AND subject_type = ${type}`}`;
  // Totals from the counters of migration 0066: all overrides, or one subject type's.
  const [rows, total] = await Promise.all([
    queryRows<OverrideRecord>(
      db,
      sql`${OVERRIDE} WHERE ${where} ORDER BY subject_type, subject_id LIMIT ${w.limit} OFFSET ${w.offset}`,
    ),
    readCounter(
      db,
      tenantId,
      type === undefined ? "ai_limit_overrides" : `ai_limit_overrides:subject_type:${type}`,
    ).then(exactTotal),
  ]);
  return { rows, total };
}

export async function upsertOverride(
  db: Executor,
  tenantId: string,
  type: SubjectType,
  id: string,
  input: PutOverrideInput,
): Promise<{ row: OverrideRecord; created: boolean }> {
  const [row] = await queryRows<OverrideRecord & { created: boolean }>(
    db,
    sql`WITH up AS (
        INSERT INTO ai_limit_overrides (tenant_id, subject_type, subject_id, "limit", expires_at, reason)
        VALUES (${tenantId}, ${type}, ${id}, ${input.limit}, ${input.expiresAt ?? null}, ${input.reason ?? null})
        ON CONFLICT (tenant_id, subject_type, subject_id) DO UPDATE SET "limit" = excluded."limit",
          expires_at = excluded.expires_at, reason = excluded.reason, updated_at = now()
        RETURNING *, (xmax = 0) AS created)
      SELECT subject_type AS "subjectType", subject_id AS "subjectId", "limit", ${iso("expires_at")} AS "expiresAt",
        reason, ${iso("created_at")} AS "createdAt", ${iso("updated_at")} AS "updatedAt", created FROM up`,
  );
  const { created, ...record } = row as OverrideRecord & { created: boolean };
  return { row: record, created };
}

export async function deleteOverride(db: Executor, tenantId: string, type: SubjectType, id: string) {
  const rows = await queryRows(
    db,
    sql`DELETE FROM ai_limit_overrides WHERE tenant_id = ${tenantId} AND subject_type = ${type}
      AND subject_id = ${id} RETURNING 1`,
  );
  return rows.length > 0;
}

/**
 * The most specific live override for a user: their own, else the highest of their class groups', else the
 * course's (of the call), else their role's. One statement; an expired override no longer counts.
 */
export async function overrideFor(
  db: Executor,
  tenantId: string,
  user: { id: string; role: string },
  courseId: string | null,
): Promise<{ limit: number; source: SubjectType } | undefined> {
  const [row] = await queryRows<{ limit: number; source: SubjectType }>(
    db,
    sql`SELECT o."limit", o.subject_type AS source FROM ai_limit_overrides o
      WHERE o.tenant_id = ${tenantId} AND (o.expires_at IS NULL OR o.expires_at > now()) AND (
        (o.subject_type = 'user' AND o.subject_id = ${user.id})
        OR (o.subject_type = 'class_group' AND o.subject_id IN (SELECT m.class_group_id::text
          FROM class_group_members m WHERE m.tenant_id = ${tenantId} AND m.user_id = ${user.id}))
        OR (o.subject_type = 'course' AND o.subject_id = ${courseId ?? ""})
        OR (o.subject_type = 'role' AND o.subject_id = ${user.role}))
      ORDER BY CASE o.subject_type WHEN 'user' THEN 1 WHEN 'class_group' THEN 2 WHEN 'course' THEN 3 ELSE 4 END,
        o."limit" DESC
      LIMIT 1`,
  );
  return row;
}

export async function userRole(db: Executor, tenantId: string, userId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ role: string }>(
    db,
    sql`SELECT role FROM users WHERE tenant_id = ${tenantId} AND id = ${userId}`,
  );
  return row?.role;
}

export async function counterUsed(db: Executor, tenantId: string, type: string, id: string, start: Date) {
  const [row] = await queryRows<{ used: string }>(
    db,
    sql`SELECT used FROM ai_limit_counters WHERE tenant_id = ${tenantId} AND subject_type = ${type}
      AND subject_id = ${id} AND window_start = ${start.toISOString()}`,
  );
  return Number(row?.used ?? 0);
}

export async function resetCounter(db: Executor, tenantId: string, userId: string, start: Date) {
  await db.execute(sql`UPDATE ai_limit_counters SET used = 0, notified = false WHERE tenant_id = ${tenantId}
    AND subject_type = 'user' AND subject_id = ${userId} AND window_start = ${start.toISOString()}`);
}
