import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { learningPathEnrollments } from "../../db/schema/index.js";
import { percentOf } from "../enrollments/schemas.js";
import type { PathEnrollmentRecord, PathEnrollmentSort } from "./enrollment-schemas.js";
import type { PathEnrollmentStatus } from "./schemas.js";

const columns = {
  learningPathId: learningPathEnrollments.pathId,
  userId: learningPathEnrollments.userId,
  status: learningPathEnrollments.status,
  requiredCompleted: learningPathEnrollments.requiredCompleted,
  enrolledAt: learningPathEnrollments.enrolledAt,
  completedAt: learningPathEnrollments.completedAt,
};

type Row = Omit<PathEnrollmentRecord, "requiredTotal" | "progressPercent">;

/** The stored row with the path's required total: progress is read, never counted here. */
export function withTotal(row: Row, requiredTotal: number): PathEnrollmentRecord {
  return { ...row, requiredTotal, progressPercent: percentOf(row.requiredCompleted, requiredTotal) };
}

const ORDER: Record<PathEnrollmentSort, SQL[]> = {
  enrolledAt: [asc(learningPathEnrollments.enrolledAt), asc(learningPathEnrollments.userId)],
  "-enrolledAt": [desc(learningPathEnrollments.enrolledAt), desc(learningPathEnrollments.userId)],
};

function where(tenantId: Bindable, f: { pathId: Bindable; status?: Bindable }): SQL {
  return and(
    eq(learningPathEnrollments.tenantId, tenantId),
    eq(learningPathEnrollments.pathId, f.pathId),
    f.status === undefined ? undefined : eq(learningPathEnrollments.status, f.status),
  ) as SQL;
}

/** A page of a path's enrollments through (tenant, path[, status], enrolled_at, user), prepared per shape. */
export async function listPathEnrollments(
  db: Executor,
  tenantId: string,
  filter: { pathId: string; status?: PathEnrollmentStatus },
  sort: PathEnrollmentSort,
  window: { limit: number; offset: number },
): Promise<Row[]> {
  const list = sort === "-enrolledAt" ? "learning_path_enrollments" : "learning_path_enrollments_asc";
  const rows = await runPageQuery(db, list, tenantId, filter, window, (p, name) =>
    db
      .select(columns)
      .from(learningPathEnrollments)
      .where(where(p.tenantId, { pathId: p.pathId as Bindable, status: p.status }))
      .orderBy(...ORDER[sort])
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as Row[];
}

/** Exact from the counters the triggers keep: the path's, or the path's for one status. */
export function countPathEnrollments(
  db: Executor,
  tenantId: string,
  filter: { pathId: string; status?: PathEnrollmentStatus },
): Promise<number> {
  const path = filter.pathId.toLowerCase();
  const counter =
    filter.status === undefined
      ? `learning_path_enrollments:path_id:${path}`
      : `learning_path_enrollments:path_id+status:${path}:${filter.status}`;
  return readCounter(db, tenantId, counter);
}

/** Enrolls these users in the path, leaving out those enrolled already; answers the ids enrolled now. */
export async function insertPathEnrollments(
  db: Executor,
  tenantId: string,
  pathId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const result = (await db.execute(sql`
    INSERT INTO ${learningPathEnrollments} (tenant_id, path_id, user_id)
    SELECT ${tenantId}::uuid, ${pathId}::uuid, u FROM unnest(${sql.param([...userIds])}::uuid[]) AS u
    ON CONFLICT DO NOTHING RETURNING user_id`)) as unknown as { rows: { user_id: string }[] };
  return new Set(result.rows.map((r) => r.user_id));
}

/** These users' enrollments in the path (one statement through the primary key). */
export async function findPathEnrollments(
  db: Executor,
  tenantId: string,
  pathId: string,
  userIds: readonly string[],
): Promise<Map<string, Row>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select(columns)
    .from(learningPathEnrollments)
    .where(
      and(
        eq(learningPathEnrollments.tenantId, tenantId),
        eq(learningPathEnrollments.pathId, pathId),
        sql`${learningPathEnrollments.userId} = ANY(${sql.param([...userIds])}::uuid[])`,
      ),
    );
  return new Map(rows.map((r) => [r.userId, r as Row]));
}

export async function deletePathEnrollment(
  db: Executor,
  tenantId: string,
  pathId: string,
  userId: string,
): Promise<boolean> {
  const rows = await db
    .delete(learningPathEnrollments)
    .where(
      and(
        eq(learningPathEnrollments.tenantId, tenantId),
        eq(learningPathEnrollments.pathId, pathId),
        eq(learningPathEnrollments.userId, userId),
      ),
    )
    .returning({ userId: learningPathEnrollments.userId });
  return rows.length > 0;
}
