import { and, asc, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { courseModules, enrollments, lessonCompletions, lessons } from "../../db/schema/index.js";
import {
  type CappedTotal,
  countCapped,
  counterAndCapped,
  exactTotal,
} from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { CompletionRecord, CompletionSort } from "./completion-schemas.js";

const columns = {
  lessonId: lessonCompletions.lessonId,
  userId: lessonCompletions.userId,
  courseId: lessonCompletions.courseId,
  moduleId: lessonCompletions.moduleId,
  enrollmentId: lessonCompletions.enrollmentId,
  completedAt: lessonCompletions.completedAt,
  timeSpentSeconds: lessonCompletions.timeSpentSeconds,
  scorePercent: lessonCompletions.scorePercent,
  source: lessonCompletions.source,
};

export interface CompletableLesson {
  id: string;
  courseId: string;
  moduleId: string;
  /** Published and required: only such a lesson moves progress. */
  counts: boolean;
  /** The module's rule: `all` of its required lessons, or `any` one of them. */
  moduleRequirement: string;
}

export async function findLesson(
  db: Executor,
  tenantId: string,
  lessonId: string,
): Promise<CompletableLesson | undefined> {
  const rows = await db
    .select({
      id: lessons.id,
      courseId: lessons.courseId,
      moduleId: lessons.moduleId,
      counts: sql<boolean>`(${lessons.status} = 'published' AND ${lessons.requiredForCompletion})`,
      moduleRequirement: courseModules.completionRequirement,
    })
    .from(lessons)
    .innerJoin(
      courseModules,
      and(eq(courseModules.tenantId, lessons.tenantId), eq(courseModules.id, lessons.moduleId)),
    )
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.id, lessonId)));
  return rows[0];
}

/** The first completion; a repeat (the primary key) inserts nothing and returns undefined. */
export async function insertCompletion(
  db: Executor,
  row: typeof lessonCompletions.$inferInsert,
): Promise<CompletionRecord | undefined> {
  const rows = await db.insert(lessonCompletions).values(row).onConflictDoNothing().returning(columns);
  return rows[0] as CompletionRecord | undefined;
}

function one(tenantId: string, lessonId: string, userId: string): SQL {
  return and(
    eq(lessonCompletions.tenantId, tenantId),
    eq(lessonCompletions.lessonId, lessonId),
    eq(lessonCompletions.userId, userId),
  ) as SQL;
}

export async function findCompletion(
  db: Executor,
  tenantId: string,
  lessonId: string,
  userId: string,
): Promise<CompletionRecord | undefined> {
  const rows = await db
    .select(columns)
    .from(lessonCompletions)
    .where(one(tenantId, lessonId, userId));
  return rows[0] as CompletionRecord | undefined;
}

export async function deleteCompletion(
  db: Executor,
  tenantId: string,
  lessonId: string,
  userId: string,
): Promise<CompletionRecord | undefined> {
  const rows = await db
    .delete(lessonCompletions)
    .where(one(tenantId, lessonId, userId))
    .returning(columns);
  return rows[0] as CompletionRecord | undefined;
}

export interface CourseProgress {
  total: number;
  done: number;
  moduleTotal: number;
  moduleDone: number;
}

/**
 * The user's progress in the course and in one of its modules, in one statement over the course's published
 * lessons (lessons_course_idx) and the user's completions of them (the completions' primary key).
 */
export async function courseProgress(
  db: Executor,
  tenantId: string,
  courseId: string,
  userId: string,
  moduleId: string,
): Promise<CourseProgress> {
  const required = sql`${lessons.requiredForCompletion}`;
  const inModule = sql`${lessons.moduleId} = ${moduleId}`;
  const rows = await db
    .select({
      total: sql<number>`count(*) FILTER (WHERE ${required})::int`,
      done: sql<number>`count(${lessonCompletions.userId}) FILTER (WHERE ${required})::int`,
      moduleTotal: sql<number>`count(*) FILTER (WHERE ${required} AND ${inModule})::int`,
      moduleDone: sql<number>`count(${lessonCompletions.userId}) FILTER (WHERE ${required} AND ${inModule})::int`,
    })
    .from(lessons)
    .leftJoin(
      lessonCompletions,
      and(
        eq(lessonCompletions.tenantId, lessons.tenantId),
        eq(lessonCompletions.lessonId, lessons.id),
        eq(lessonCompletions.userId, userId),
      ),
    )
    .where(
      and(eq(lessons.tenantId, tenantId), eq(lessons.courseId, courseId), eq(lessons.status, "published")),
    );
  return rows[0] ?? { total: 0, done: 0, moduleTotal: 0, moduleDone: 0 };
}

/**
 * Records activity on the enrollment: `startedAt` the first time, `lastActivityAt` every time, and, when the
 * course is complete, `completed` with its completion time.
 */
/**
 * Records activity on the enrollment (and its completion). When its progress grew, also answers whether
 * `enrollment_progressed` is due: at most one a minute per enrollment, claimed in this same statement under the
 * row lock the caller holds, so concurrent completions cannot both claim it.
 */
export async function markActivity(
  db: Executor,
  tenantId: string,
  enrollmentId: string,
  at: string,
  change: { completed: boolean; progressed: boolean },
): Promise<{ progressEventDue: boolean }> {
  const rows = await db
    .update(enrollments)
    .set({
      startedAt: sql`coalesce(${enrollments.startedAt}, ${at}::timestamptz)`,
      lastActivityAt: at,
      updatedAt: sql`now()`,
      ...(change.completed ? { status: "completed", completedAt: at } : {}),
      ...(change.progressed
        ? {
            progressEventAt: sql`CASE WHEN ${enrollments.progressEventAt} IS NULL
              OR ${enrollments.progressEventAt} <= now() - interval '1 minute'
              THEN now() ELSE ${enrollments.progressEventAt} END`,
          }
        : {}),
    })
    .where(and(eq(enrollments.tenantId, tenantId), eq(enrollments.id, enrollmentId)))
    // The column keeps milliseconds (timestamp(3)); now() has microseconds on PostgreSQL, so compare at the
    // column's precision.
    .returning({ due: sql<boolean>`${enrollments.progressEventAt} = now()::timestamptz(3)` });
  return { progressEventDue: change.progressed && rows[0]?.due === true };
}

/** A completed enrollment whose course is no longer complete (a completion was reset) is active again. */
export async function reopenEnrollment(db: Executor, tenantId: string, enrollmentId: string): Promise<void> {
  await db
    .update(enrollments)
    .set({ status: "active", completedAt: null, updatedAt: sql`now()` })
    .where(and(eq(enrollments.tenantId, tenantId), eq(enrollments.id, enrollmentId)));
}

export interface OutlineLesson {
  lessonId: string;
  moduleId: string;
  title: string;
  required: boolean;
  completedAt: string | null;
}

/** The course's published lessons in outline order (module, then lesson position), with the user's completions. */
export async function outline(
  db: Executor,
  tenantId: string,
  courseId: string,
  userId: string,
): Promise<OutlineLesson[]> {
  return db
    .select({
      lessonId: lessons.id,
      moduleId: lessons.moduleId,
      title: lessons.title,
      required: lessons.requiredForCompletion,
      completedAt: lessonCompletions.completedAt,
    })
    .from(lessons)
    .innerJoin(
      courseModules,
      and(eq(courseModules.tenantId, lessons.tenantId), eq(courseModules.id, lessons.moduleId)),
    )
    .leftJoin(
      lessonCompletions,
      and(
        eq(lessonCompletions.tenantId, lessons.tenantId),
        eq(lessonCompletions.lessonId, lessons.id),
        eq(lessonCompletions.userId, userId),
      ),
    )
    .where(
      and(eq(lessons.tenantId, tenantId), eq(lessons.courseId, courseId), eq(lessons.status, "published")),
    )
    .orderBy(asc(courseModules.position), asc(courseModules.id), asc(lessons.position), asc(lessons.id));
}

export interface CompletionFilter {
  userId?: string;
  since?: string;
}

function where(tenantId: Bindable, lessonId: Bindable, f: { userId?: Bindable; since?: Bindable }): SQL {
  return and(
    eq(lessonCompletions.tenantId, tenantId),
    eq(lessonCompletions.lessonId, lessonId),
    f.userId === undefined ? undefined : eq(lessonCompletions.userId, f.userId),
    f.since === undefined ? undefined : gte(lessonCompletions.completedAt, f.since),
  ) as SQL;
}

/** A lesson's completions, through lesson_completions_lesson_completed_idx, prepared per filter shape and sort. */
export async function listCompletions(
  db: Executor,
  tenantId: string,
  lessonId: string,
  filter: CompletionFilter,
  sort: CompletionSort,
  window: PageWindow,
): Promise<CompletionRecord[]> {
  const dir = sort === "completedAt" ? asc : desc;
  const list = sort === "completedAt" ? "lesson_completions_asc" : "lesson_completions";
  const rows = await runPageQuery(db, list, tenantId, { ...filter, lessonId }, window, (p, name) =>
    db
      .select(columns)
      .from(lessonCompletions)
      .where(where(p.tenantId, p.lessonId as Bindable, p))
      .orderBy(dir(lessonCompletions.completedAt), dir(lessonCompletions.userId))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as CompletionRecord[];
}

/**
 * The lesson's counter when unfiltered; a `since` alone, the counter less the completions before it when fewer
 * than the cap are; otherwise the matches up to the cap, newest first through the page's index.
 */
export async function countCompletions(
  db: Executor,
  tenantId: string,
  lessonId: string,
  filter: CompletionFilter,
): Promise<CappedTotal> {
  const counter = `lesson_completions:lesson_id:${lessonId}`;
  if (filter.userId === undefined && filter.since === undefined) {
    return exactTotal(await readCounter(db, tenantId, counter));
  }
  if (filter.userId === undefined && filter.since !== undefined) {
    const before = and(
      eq(lessonCompletions.tenantId, tenantId),
      eq(lessonCompletions.lessonId, lessonId),
      lt(lessonCompletions.completedAt, filter.since),
    ) as SQL;
    const { stored, counted } = await counterAndCapped(db, tenantId, counter, lessonCompletions, before, [
      asc(lessonCompletions.completedAt),
      asc(lessonCompletions.userId),
    ]);
    if (counted !== undefined) return exactTotal(stored - counted);
  }
  return countCapped(db, lessonCompletions, where(tenantId, lessonId, filter), [
    desc(lessonCompletions.completedAt),
    desc(lessonCompletions.userId),
  ]);
}
