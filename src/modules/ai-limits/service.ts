import { sql } from "drizzle-orm";
import type { Db, Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { ROLES } from "../../platform/auth/types.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { isUuid } from "../../platform/http/schemas.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import * as repo from "./repo.js";
import { userLimit } from "./reserve.js";
import {
  type PolicyRecord,
  type PutOverrideInput,
  type PutPolicyInput,
  SUBJECT_TYPES,
  type SubjectType,
  type UsageRecord,
} from "./schemas.js";
import { windowOf } from "./window.js";

export function subjectTypeOf(raw: string): SubjectType {
  if (!(SUBJECT_TYPES as readonly string[]).includes(raw)) throw notFound();
  return raw as SubjectType;
}

export const getPolicy = (db: Executor, tenantId: string) => repo.findPolicy(db, tenantId);

/** Fields left out keep their stored value (or the default). */
export async function putPolicy(db: Db, tenantId: string, input: PutPolicyInput): Promise<PolicyRecord> {
  const current = await repo.findPolicy(db, tenantId);
  await repo.upsertPolicy(db, tenantId, {
    enabled: input.enabled,
    unit: input.unit ?? current.unit,
    period: input.period ?? current.period,
    perUserLimit: input.perUserLimit === undefined ? current.perUserLimit : input.perUserLimit,
    institutionLimit:
      input.institutionLimit === undefined ? current.institutionLimit : input.institutionLimit,
    onExhausted: input.onExhausted ?? current.onExhausted,
  });
  return repo.findPolicy(db, tenantId);
}

export async function listOverrides(
  db: Executor,
  tenantId: string,
  q: { page?: number; perPage?: number; subjectType?: SubjectType },
) {
  const window = pageWindow(q);
  const { rows, total } = await repo.listOverrides(db, tenantId, q.subjectType, window);
  return cappedPageEnvelope(rows, total, window);
}

const SUBJECT_TABLE: Record<Exclude<SubjectType, "role">, string> = {
  user: "users",
  class_group: "class_groups",
  course: "courses",
};

/** The subject must exist in this tenant (another tenant's id is 404, like an unknown one); a role must be a role. */
async function requireSubject(
  db: Executor,
  tenantId: string,
  type: SubjectType,
  id: string,
): Promise<string> {
  if (type === "role") {
    if (!(ROLES as readonly string[]).includes(id)) throw notFound();
    return id;
  }
  if (!isUuid(id)) throw notFound();
  const table = sql.raw(SUBJECT_TABLE[type]);
  const rows = await queryRows(db, sql`SELECT 1 FROM ${table} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  if (rows.length === 0) throw notFound();
  return id.toLowerCase();
}

export async function putOverride(
  db: Db,
  tenantId: string,
  type: SubjectType,
  id: string,
  input: PutOverrideInput,
) {
  const subject = await requireSubject(db, tenantId, type, id);
  if (input.expiresAt != null && Date.parse(input.expiresAt) <= Date.now()) {
    throw new AppError("validation_failed", {
      details: [{ field: "expiresAt", key: "field.future_required" }],
    });
  }
  return repo.upsertOverride(db, tenantId, type, subject, input);
}

export async function deleteOverride(db: Db, tenantId: string, type: SubjectType, id: string) {
  const subject = type === "role" || !isUuid(id) ? id : id.toLowerCase();
  if (!(await repo.deleteOverride(db, tenantId, type, subject))) throw notFound();
}

/** A user's (or, without one, the institution's) spending in the current window and the limit that applies. */
export async function usage(
  db: Executor,
  tenantId: string,
  q: { userId?: string; courseId?: string },
): Promise<UsageRecord> {
  const policy = await repo.findPolicy(db, tenantId);
  const window = windowOf(policy.period, policy.resetTimezone);
  let subject: { type: "user" | "institution"; id: string };
  let limit: number | null;
  let source: UsageRecord["limitSource"];
  if (q.userId !== undefined) {
    const role = await repo.userRole(db, tenantId, q.userId);
    if (role === undefined) throw notFound();
    subject = { type: "user", id: q.userId.toLowerCase() };
    const found = await userLimit(
      db,
      tenantId,
      { id: subject.id, role },
      q.courseId ?? null,
      policy.perUserLimit,
    );
    limit = found.limit;
    source = found.source;
  } else {
    subject = { type: "institution", id: tenantId };
    limit = policy.institutionLimit;
    source = limit === null ? null : "institution";
  }
  const used = await repo.counterUsed(db, tenantId, subject.type, subject.id, window.start);
  return {
    subjectType: subject.type,
    subjectId: subject.id,
    used,
    limit: policy.enabled ? limit : null,
    remaining: policy.enabled && limit !== null ? Math.max(0, limit - used) : null,
    limitSource: policy.enabled ? source : null,
    periodStart: window.start.toISOString(),
    resetsAt: window.end.toISOString(),
  };
}

export async function resetUsage(db: Db, tenantId: string, userId: string): Promise<UsageRecord> {
  if (!isUuid(userId) || (await repo.userRole(db, tenantId, userId)) === undefined) throw notFound();
  const policy = await repo.findPolicy(db, tenantId);
  await repo.resetCounter(
    db,
    tenantId,
    userId.toLowerCase(),
    windowOf(policy.period, policy.resetTimezone).start,
  );
  return usage(db, tenantId, { userId });
}
