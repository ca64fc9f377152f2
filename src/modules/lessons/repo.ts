import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { parentValueCounter, readCounter, soleFilter } from "../../db/counters.js";
import { orderedSiblings } from "../../db/ordered-siblings.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { courseModules, lessonCompletions, lessons, quizAttempts, quizzes } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { CompletionCriteria, LessonContent, LessonRecord, LessonSort } from "./schemas.js";

const columns = {
  id: lessons.id,
  courseId: lessons.courseId,
  moduleId: lessons.moduleId,
  title: lessons.title,
  type: lessons.type,
  content: lessons.content,
  position: lessons.position,
  status: lessons.status,
  isPreview: lessons.isPreview,
  durationSeconds: lessons.durationSeconds,
  requiredForCompletion: lessons.requiredForCompletion,
  completionCriteria: lessons.completionCriteria,
  unlockAt: lessons.unlockAt,
  dueAt: lessons.dueAt,
  createdAt: lessons.createdAt,
  updatedAt: lessons.updatedAt,
};

const ORDER: Record<LessonSort, SQL[]> = {
  position: [asc(lessons.position), asc(lessons.id)],
  "-position": [desc(lessons.position), desc(lessons.id)],
  title: [sql`aula_fold(${lessons.title})`, asc(lessons.title), asc(lessons.id)],
  "-title": [sql`aula_fold(${lessons.title}) DESC`, desc(lessons.title), desc(lessons.id)],
  createdAt: [asc(lessons.createdAt), asc(lessons.id)],
  "-createdAt": [desc(lessons.createdAt), desc(lessons.id)],
};

export interface LessonFilter {
  status?: string;
  type?: string;
}

function where(tenantId: Bindable, moduleId: Bindable, filter: { status?: Bindable; type?: Bindable }): SQL {
  return and(
    eq(lessons.tenantId, tenantId),
    eq(lessons.moduleId, moduleId),
    filter.status === undefined ? undefined : eq(lessons.status, filter.status),
    filter.type === undefined ? undefined : eq(lessons.type, filter.type),
  ) as SQL;
}

export async function listLessons(
  db: Executor,
  tenantId: string,
  moduleId: string,
  filter: LessonFilter,
  sort: LessonSort,
  window: PageWindow,
): Promise<LessonRecord[]> {
  const list = `lessons_${sort.replace("-", "desc_")}`;
  const rows = await runPageQuery(db, list, tenantId, { moduleId, ...filter }, window, (p, name) =>
    db
      .select(columns)
      .from(lessons)
      .where(where(p.tenantId, p.moduleId as Bindable, p))
      .orderBy(...ORDER[sort])
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as LessonRecord[];
}

/**
 * The module's counter when unfiltered (exact); a status or type filter counts its matches up to the platform's
 * cap, in position order through the module's status or type index.
 */
export async function countLessons(
  db: Executor,
  tenantId: string,
  moduleId: string,
  filter: LessonFilter,
): Promise<CappedTotal> {
  if (filter.status === undefined && filter.type === undefined) {
    return exactTotal(await readCounter(db, tenantId, `lessons:module_id:${moduleId}`));
  }
  const only = soleFilter(filter);
  if (only !== undefined) {
    const counter = parentValueCounter("lessons", { column: "module_id", id: moduleId }, ...only);
    return exactTotal(await readCounter(db, tenantId, counter));
  }
  return countCapped(db, lessons, where(tenantId, moduleId, filter), ORDER.position);
}

export async function findLesson(
  db: Executor,
  tenantId: string,
  id: string,
  lock?: "share" | "update",
): Promise<LessonRecord | undefined> {
  const query = db
    .select(columns)
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.id, id)));
  const rows =
    lock === undefined ? await query : await query.for(lock === "share" ? "share" : "no key update");
  return rows[0] as LessonRecord | undefined;
}

/** All lessons of a course, module by module in position order: the outline's leaves. */
export async function lessonsOfCourse(
  db: Executor,
  tenantId: string,
  courseId: string,
): Promise<LessonRecord[]> {
  const rows = await db
    .select(columns)
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.courseId, courseId)))
    .orderBy(asc(lessons.moduleId), asc(lessons.position), asc(lessons.id));
  return rows as LessonRecord[];
}

/** A module's lessons in position order (the answer to a reorder). */
export async function lessonsOfModule(
  db: Executor,
  tenantId: string,
  moduleId: string,
): Promise<LessonRecord[]> {
  const rows = await db
    .select(columns)
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.moduleId, moduleId)))
    .orderBy(asc(lessons.position), asc(lessons.id));
  return rows as LessonRecord[];
}

export async function findModule(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<{ id: string; courseId: string } | undefined> {
  const rows = await db
    .select({ id: courseModules.id, courseId: courseModules.courseId })
    .from(courseModules)
    .where(and(eq(courseModules.tenantId, tenantId), eq(courseModules.id, id)));
  return rows[0];
}

export async function lessonIdsOfModule(db: Executor, tenantId: string, moduleId: string): Promise<string[]> {
  const rows = await db
    .select({ id: lessons.id })
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.moduleId, moduleId)));
  return rows.map((r) => r.id);
}

const siblings = orderedSiblings({
  table: lessons,
  tenantId: lessons.tenantId,
  parentId: lessons.moduleId,
  id: lessons.id,
  position: lessons.position,
});

export const countInModule = siblings.count;
export const shiftPositions = siblings.shift;
export const applyOrder = siblings.applyOrder;

export interface LessonValues {
  title: string;
  type: string;
  content: LessonContent;
  position: number;
  status: string;
  isPreview: boolean;
  durationSeconds: number | null;
  requiredForCompletion: boolean;
  completionCriteria: CompletionCriteria;
  unlockAt: string | null;
  dueAt: string | null;
}

export async function insertLesson(
  db: Executor,
  tenantId: string,
  parent: { courseId: string; moduleId: string },
  values: LessonValues,
): Promise<string> {
  const rows = await db
    .insert(lessons)
    .values({ tenantId, ...parent, ...values })
    .returning({ id: lessons.id });
  return (rows[0] as { id: string }).id;
}

export async function updateLesson(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<LessonValues> & { moduleId?: string },
): Promise<void> {
  await db
    .update(lessons)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.id, id)));
}

export async function deleteLesson(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.delete(lessons).where(and(eq(lessons.tenantId, tenantId), eq(lessons.id, id)));
}

/** Completions copy their lesson's module (for per-module progress); a moved lesson takes them along. */
export async function moveCompletions(
  db: Executor,
  tenantId: string,
  lessonId: string,
  moduleId: string,
): Promise<void> {
  await db
    .update(lessonCompletions)
    .set({ moduleId })
    .where(and(eq(lessonCompletions.tenantId, tenantId), eq(lessonCompletions.lessonId, lessonId)));
}

/**
 * True when a quiz of the lesson (or of any lesson of the module) has attempts. Attempts are grade history: the
 * quiz's own DELETE refuses to drop them, and deleting its lesson or module must not drop them by cascade either.
 */
export async function quizAttemptsExist(
  db: Executor,
  tenantId: string,
  of: { lessonId: string } | { moduleId: string },
): Promise<boolean> {
  const target = "lessonId" in of ? sql`l.id = ${of.lessonId}` : sql`l.module_id = ${of.moduleId}`;
  const result = (await db.execute(sql`
    SELECT EXISTS (
      SELECT 1 FROM ${lessons} l
      JOIN ${quizzes} q ON q.tenant_id = l.tenant_id AND q.lesson_id = l.id
      JOIN ${quizAttempts} a ON a.tenant_id = q.tenant_id AND a.quiz_id = q.id
      WHERE l.tenant_id = ${tenantId} AND ${target}
    ) AS found`)) as unknown as { rows: { found: boolean }[] };
  return result.rows[0]?.found === true;
}
