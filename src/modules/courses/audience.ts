import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { courseModules, courses, enrollments, lessons } from "../../db/schema/index.js";
import type { Principal } from "../../platform/auth/types.js";
import { notFound } from "../../platform/errors/app-error.js";

/**
 * Who reads course material. Staff (teachers, administrators) and API keys read everything. A learner (a
 * student's session) reads only what is published (course, module, lesson) in the courses they hold an
 * enrollment of that gives access: `active` or `completed` (not pending, suspended, expired or dropped). Anything
 * else is 404 to them, as if it did not exist. Every read route of course material (courses, outline, modules,
 * lessons, quizzes) takes its reader from here, so the rule lives in one place.
 */
export type Reader = { kind: "staff" } | { kind: "learner"; userId: string };

export const STAFF: Reader = { kind: "staff" };

export function readerOf(principal: Principal): Reader {
  return principal.kind === "session" && principal.role === "student"
    ? { kind: "learner", userId: principal.userId }
    : STAFF;
}

/** Enrollment statuses that open a course's published material to its learner. */
const OPEN = sql`('active', 'completed')`;

/** The ids of the published courses this learner may read (driven by the learner's own enrollments). */
export function learnerCourseIds(tenantId: string, userId: string): SQL {
  return sql`SELECT e.course_id FROM ${enrollments} e
    JOIN ${courses} c ON c.tenant_id = e.tenant_id AND c.id = e.course_id AND c.status = 'published'
    WHERE e.tenant_id = ${tenantId} AND e.user_id = ${userId} AND e.status IN ${OPEN}`;
}

/** The ids of the published lessons, in published modules, of the courses this learner may read. */
export function learnerLessonIds(tenantId: string, userId: string): SQL {
  return sql`SELECT l.id FROM ${lessons} l
    JOIN ${courseModules} m ON m.tenant_id = l.tenant_id AND m.id = l.module_id AND m.status = 'published'
    WHERE l.tenant_id = ${tenantId} AND l.status = 'published'
      AND l.course_id IN (${learnerCourseIds(tenantId, userId)})`;
}

/**
 * The status filter a list applies for this reader: a learner's lists hold published material only, so asking a
 * learner's list for another status finds nothing (`null`).
 */
export function statusFor(reader: Reader, requested: string | undefined): string | undefined | null {
  if (reader.kind === "staff") return requested;
  return requested === undefined || requested === "published" ? "published" : null;
}

async function exists(db: Executor, query: SQL): Promise<boolean> {
  const result = (await db.execute(sql`SELECT EXISTS (${query}) AS ok`)) as unknown as {
    rows: { ok: boolean }[];
  };
  return result.rows[0]?.ok === true;
}

/**
 * 404 unless the reader may read this material: a course, a module of it, or a lesson of it (each published,
 * for a learner, along with what contains it). Staff pass without a query.
 */
export async function assertReadable(
  db: Executor,
  tenantId: string,
  reader: Reader,
  target: { courseId: string; moduleId?: string; lessonId?: string },
): Promise<void> {
  if (reader.kind === "staff") return;
  const { userId } = reader;
  const readable =
    target.lessonId !== undefined
      ? await exists(db, sql`${learnerLessonIds(tenantId, userId)} AND l.id = ${target.lessonId}`)
      : target.moduleId !== undefined
        ? await exists(
            db,
            sql`SELECT 1 FROM ${courseModules} m WHERE m.tenant_id = ${tenantId} AND m.id = ${target.moduleId}
              AND m.status = 'published' AND m.course_id IN (${learnerCourseIds(tenantId, userId)})`,
          )
        : await exists(db, sql`${learnerCourseIds(tenantId, userId)} AND e.course_id = ${target.courseId}`);
  if (!readable) throw notFound();
}
