import { and, asc, desc, eq, inArray, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { parentValueCounter, readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { enrollments, lessonCompletions, lessons } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { LockedEnrollment } from "./enrollment-locks.js";
import {
  type EnrollmentRecord,
  type EnrollmentRole,
  type EnrollmentSort,
  type EnrollmentStatus,
  percentOf,
} from "./schemas.js";

/** The stored columns of an enrollment, as the record names them, plus what progress is computed from. */
const stored = {
  id: enrollments.id,
  tenantId: enrollments.tenantId,
  userId: enrollments.userId,
  courseId: enrollments.courseId,
  classGroupId: enrollments.classGroupId,
  role: enrollments.role,
  status: enrollments.status,
  source: enrollments.source,
  enrolledAt: enrollments.enrolledAt,
  startedAt: enrollments.startedAt,
  completedAt: enrollments.completedAt,
  expiresAt: enrollments.expiresAt,
  lastActivityAt: enrollments.lastActivityAt,
  createdAt: enrollments.createdAt,
  updatedAt: enrollments.updatedAt,
};

/**
 * Progress of the enrollments of the subquery aliased `e`, computed per output row (after LIMIT/OFFSET, so a page
 * costs what its rows cost): published required lessons of the course, and the user's completions of them
 * (found through lesson_completions_course_user_idx). The outer columns are written as `e.…` on purpose:
 * Drizzle prints a column of a single-table query without its table, which inside these subqueries would bind
 * to the inner table instead.
 */
const lessonsTotal = sql<number>`(SELECT count(*)::int FROM ${lessons} l
  WHERE l.tenant_id = e.tenant_id AND l.course_id = e.course_id
    AND l.status = 'published' AND l.required_for_completion)`;
const lessonsCompleted = sql<number>`(SELECT count(*)::int FROM ${lessonCompletions} c
  JOIN ${lessons} l ON l.tenant_id = c.tenant_id AND l.id = c.lesson_id
  WHERE c.tenant_id = e.tenant_id AND c.course_id = e.course_id AND c.user_id = e.user_id
    AND l.course_id = e.course_id AND l.status = 'published' AND l.required_for_completion)`;

type StoredSubquery = ReturnType<typeof storedSubquery>;
function storedSubquery(
  db: Executor,
  where: SQL,
  order: SQL[],
  page?: { limit: Placeholder | number; offset: Placeholder | number },
) {
  const q = db
    .select(stored)
    .from(enrollments)
    .where(where)
    .orderBy(...order);
  return (page === undefined ? q : q.limit(page.limit).offset(page.offset)).as("e");
}

function withProgress(db: Executor, e: StoredSubquery) {
  return db
    .select({
      id: e.id,
      userId: e.userId,
      courseId: e.courseId,
      classGroupId: e.classGroupId,
      role: e.role,
      status: e.status,
      source: e.source,
      enrolledAt: e.enrolledAt,
      startedAt: e.startedAt,
      completedAt: e.completedAt,
      expiresAt: e.expiresAt,
      lastActivityAt: e.lastActivityAt,
      createdAt: e.createdAt,
      updatedAt: e.updatedAt,
      lessonsCompleted,
      lessonsTotal,
    })
    .from(e);
}

type Row = Omit<EnrollmentRecord, "progressPercent">;

function toRecord(row: Row): EnrollmentRecord {
  return { ...row, progressPercent: percentOf(row.lessonsCompleted, row.lessonsTotal) };
}

export interface EnrollmentFilter {
  userId?: string;
  courseId?: string;
  classGroupId?: string;
  status?: EnrollmentStatus;
  role?: EnrollmentRole;
}

function where(tenantId: Bindable, f: { [K in keyof EnrollmentFilter]?: Bindable }): SQL {
  return and(
    eq(enrollments.tenantId, tenantId),
    f.userId === undefined ? undefined : eq(enrollments.userId, f.userId),
    f.courseId === undefined ? undefined : eq(enrollments.courseId, f.courseId),
    f.classGroupId === undefined ? undefined : eq(enrollments.classGroupId, f.classGroupId),
    f.status === undefined ? undefined : eq(enrollments.status, f.status),
    f.role === undefined ? undefined : eq(enrollments.role, f.role),
  ) as SQL;
}

/**
 * One page with its progress in one statement, prepared per filter shape and sort. `courseId` walks
 * enrollments_course_created_idx, `userId` enrollments_user_created_idx, neither the tenant's index; both
 * backwards for newest first.
 */
export async function listEnrollments(
  db: Executor,
  tenantId: string,
  filter: EnrollmentFilter,
  sort: EnrollmentSort,
  window: PageWindow,
): Promise<EnrollmentRecord[]> {
  const list = sort === "createdAt" ? "enrollments_asc" : "enrollments";
  const rows = await runPageQuery(db, list, tenantId, { ...filter }, window, (p, name) =>
    pageQuery(db, p, sort).prepare(name),
  );
  return (rows as Row[]).map(toRecord);
}

type PageBindings = { [K in keyof EnrollmentFilter]?: Bindable } & {
  tenantId: Bindable;
  limit: Placeholder | number;
  offset: Placeholder | number;
};

/** The page statement, with placeholders when prepared (or values, for EXPLAIN in the tests). */
export function pageQuery(db: Executor, p: PageBindings, sort: EnrollmentSort) {
  const dir = sort === "createdAt" ? asc : desc;
  const e = storedSubquery(db, where(p.tenantId, p), [dir(enrollments.createdAt), dir(enrollments.id)], p);
  return withProgress(db, e).orderBy(dir(e.createdAt), dir(e.id));
}

/**
 * Exact totals from the trigger-kept counters when the filter is at most a status, a course or a user, or a
 * course or a user with a status (migration 0045); otherwise its matches counted up to the cap
 * (`countCapped`), walking the list's default order.
 */
export async function countEnrollments(
  db: Executor,
  tenantId: string,
  filter: EnrollmentFilter,
): Promise<CappedTotal> {
  const counter = counterOf(filter);
  if (counter !== undefined) return exactTotal(await readCounter(db, tenantId, counter));
  return countCapped(db, enrollments, where(tenantId, filter), [
    desc(enrollments.createdAt),
    desc(enrollments.id),
  ]);
}

/** The counter that holds `filter`'s total, if one does. Ids are keyed by their canonical (lowercase) text. */
function counterOf(filter: EnrollmentFilter): string | undefined {
  const { status, courseId, userId, classGroupId, role } = filter;
  if (classGroupId !== undefined || role !== undefined) return undefined;
  if (courseId !== undefined && userId !== undefined) return undefined;
  const parent =
    courseId !== undefined
      ? { column: "course_id", id: courseId.toLowerCase() }
      : userId !== undefined
        ? { column: "user_id", id: userId.toLowerCase() }
        : undefined;
  if (parent === undefined) return status === undefined ? "enrollments" : `enrollments:status:${status}`;
  // The course's and the user's own totals are kept under `course_enrollments` (migrations 0012 and 0045).
  if (status === undefined) return `course_enrollments:${parent.column}:${parent.id}`;
  return parentValueCounter("enrollments", parent, "status", status);
}

export async function findEnrollments(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<EnrollmentRecord[]> {
  if (ids.length === 0) return [];
  const e = storedSubquery(
    db,
    and(eq(enrollments.tenantId, tenantId), inArray(enrollments.id, [...ids])) as SQL,
    [asc(enrollments.createdAt), asc(enrollments.id)],
  );
  const rows = (await withProgress(db, e)) as Row[];
  return rows.map(toRecord);
}

export async function findEnrollment(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<EnrollmentRecord | undefined> {
  return (await findEnrollments(db, tenantId, [id]))[0];
}

export type NewEnrollment = Omit<typeof enrollments.$inferInsert, "tenantId" | "id">;

/** Inserts one enrollment; a current one of the same user and course fails on enrollments_current_key. */
export async function insertEnrollment(db: Executor, tenantId: string, row: NewEnrollment): Promise<string> {
  const rows = await db
    .insert(enrollments)
    .values({ ...row, tenantId })
    .returning({ id: enrollments.id });
  return (rows[0] as { id: string }).id;
}

export type EnrollmentChanges = Partial<
  Pick<typeof enrollments.$inferInsert, "status" | "expiresAt" | "classGroupId" | "completedAt">
>;

export async function updateEnrollment(
  db: Executor,
  tenantId: string,
  id: string,
  changes: EnrollmentChanges,
): Promise<void> {
  await db
    .update(enrollments)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(enrollments.tenantId, tenantId), eq(enrollments.id, id)));
}

export async function deleteEnrollment(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.delete(enrollments).where(and(eq(enrollments.tenantId, tenantId), eq(enrollments.id, id)));
}

/** Completions outlive a deleted enrollment (they are the user's record of a lesson), without a dangling id. */
export async function detachCompletions(
  db: Executor,
  tenantId: string,
  enrollment: LockedEnrollment,
): Promise<void> {
  await db
    .update(lessonCompletions)
    .set({ enrollmentId: null })
    .where(
      and(
        eq(lessonCompletions.tenantId, tenantId),
        eq(lessonCompletions.courseId, enrollment.courseId),
        eq(lessonCompletions.userId, enrollment.userId),
        eq(lessonCompletions.enrollmentId, enrollment.id),
      ),
    );
}
