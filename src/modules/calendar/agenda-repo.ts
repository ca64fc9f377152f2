/**
 * What an agenda or a feed shows over a window, one source at a time: custom events, live class occurrences,
 * lesson due dates and expiring enrollments, for the whole institution or for one person's audience.
 */
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import {
  calendarEvents,
  classGroupMembers,
  courses,
  enrollments,
  lessons,
  liveClasses,
  liveClassOccurrences,
  tenants,
} from "../../db/schema/index.js";
import { uuidArray } from "../../db/uuid-array.js";
import { MAX_DURATION_MINUTES } from "../live-classes/schemas.js";
import { eventColumns } from "./repo.js";
import type { CalendarEventRecord } from "./schemas.js";

export interface Window {
  from: string;
  to: string;
}

/**
 * Whom a personal agenda covers: the courses the user is enrolled in (not dropped) and the class groups they
 * belong to. Both sets are small (a person's own), so they are read once and passed to every source.
 */
export async function audienceOf(db: Executor, tenantId: string, userId: string) {
  const [courseRows, groupRows] = await Promise.all([
    db
      .select({ id: enrollments.courseId })
      .from(enrollments)
      .where(
        and(
          eq(enrollments.tenantId, tenantId),
          eq(enrollments.userId, userId),
          sql`${enrollments.status} <> 'dropped'`,
        ),
      ),
    db
      .select({ id: classGroupMembers.classGroupId })
      .from(classGroupMembers)
      .where(and(eq(classGroupMembers.tenantId, tenantId), eq(classGroupMembers.userId, userId))),
  ]);
  return { courseIds: courseRows.map((r) => r.id), classGroupIds: groupRows.map((r) => r.id) };
}

export type Audience = Awaited<ReturnType<typeof audienceOf>> & { userId: string };

/** The earliest a live class can start and still be running as the window opens (none lasts longer). */
const earliestStart = (window: Window) =>
  new Date(Date.parse(window.from) - MAX_DURATION_MINUTES * 60_000).toISOString();

/** The window as a range, `[from, to)`. */
const windowRange = (window: Window) =>
  sql`tstzrange(${window.from}::timestamptz, ${window.to}::timestamptz, '[)')`;

/**
 * Custom events whose series overlaps the window (recurring ones are expanded by the caller). Without an
 * audience (the institution's calendar), users' own events are left out unless `withPersonal`.
 */
export async function customEventsIn(
  db: Executor,
  tenantId: string,
  window: Window,
  audience?: Audience,
  withPersonal = false,
) {
  const visible =
    audience === undefined
      ? withPersonal
        ? undefined
        : sql`${calendarEvents.contextType} <> 'user'`
      : sql`(${calendarEvents.contextType} = 'institution'
          OR (${calendarEvents.contextType} = 'user' AND ${calendarEvents.contextId} = ${audience.userId})
          OR (${calendarEvents.contextType} = 'course' AND ${calendarEvents.contextId} = ANY(${uuidArray(audience.courseIds)}))
          OR (${calendarEvents.contextType} = 'class_group' AND ${calendarEvents.contextId} = ANY(${uuidArray(audience.classGroupIds)})))`;
  return db
    .select(eventColumns)
    .from(calendarEvents)
    .innerJoin(tenants, eq(tenants.id, calendarEvents.tenantId))
    .where(
      and(
        eq(calendarEvents.tenantId, tenantId),
        // The span index's expression, so the overlap is found in the index (both ends bounded); the two
        // comparisons after it are the exact rule (an event ending as the window starts is out).
        sql`tstzrange(${calendarEvents.startsAt}, ${calendarEvents.lastEndsAt}, '[]') && ${windowRange(window)}`,
        lt(calendarEvents.startsAt, window.to),
        gt(calendarEvents.lastEndsAt, window.from),
        visible,
      ),
    ) as Promise<CalendarEventRecord[]>;
}

/** Live class occurrences overlapping the window: the calendar entry of every live class. */
export async function liveOccurrencesIn(db: Executor, tenantId: string, window: Window, audience?: Audience) {
  const visible =
    audience === undefined
      ? undefined
      : sql`(${liveClasses.hostUserId} = ${audience.userId}
          OR ${audience.userId} = ANY(${liveClasses.coHostIds})
          OR ${audience.userId} = ANY(${liveClasses.inviteeIds})
          OR ${liveClasses.courseId} = ANY(${uuidArray(audience.courseIds)})
          OR ${liveClasses.classGroupId} = ANY(${uuidArray(audience.classGroupIds)}))`;
  return db
    .select({
      occurrenceId: liveClassOccurrences.id,
      liveClassId: liveClasses.id,
      title: liveClasses.title,
      description: liveClasses.description,
      startsAt: liveClassOccurrences.startsAt,
      endsAt: liveClassOccurrences.endsAt,
      timezone: liveClasses.timezone,
      courseId: liveClasses.courseId,
      classGroupId: liveClasses.classGroupId,
      status: liveClassOccurrences.status,
    })
    .from(liveClassOccurrences)
    .innerJoin(
      liveClasses,
      and(
        eq(liveClasses.tenantId, liveClassOccurrences.tenantId),
        eq(liveClasses.id, liveClassOccurrences.liveClassId),
      ),
    )
    .where(
      and(
        eq(liveClassOccurrences.tenantId, tenantId),
        // No occurrence lasts longer than a class may (MAX_DURATION_MINUTES), so one that overlaps the window
        // starts at most that long before it: both ends of the window bound the start, whichever index on
        // starts_at the planner takes (the tenant's, or a class's).
        gt(liveClassOccurrences.startsAt, earliestStart(window)),
        lt(liveClassOccurrences.startsAt, window.to),
        gt(liveClassOccurrences.endsAt, window.from),
        visible,
      ),
    );
}

/** Published lessons with a due date in the window, of published courses (the audience's, for an agenda). */
export async function lessonDueDatesIn(db: Executor, tenantId: string, window: Window, audience?: Audience) {
  return db
    .select({
      lessonId: lessons.id,
      title: lessons.title,
      courseId: lessons.courseId,
      courseTitle: courses.title,
      dueAt: sql<string>`${lessons.dueAt}`.mapWith(calendarEvents.startsAt),
    })
    .from(lessons)
    .innerJoin(courses, and(eq(courses.tenantId, lessons.tenantId), eq(courses.id, lessons.courseId)))
    .where(
      and(
        eq(lessons.tenantId, tenantId),
        eq(lessons.status, "published"),
        // lessons_due_idx is partial on these two conditions: both are written out so the planner can use it.
        sql`${lessons.dueAt} IS NOT NULL AND ${lessons.dueAt} >= ${window.from} AND ${lessons.dueAt} < ${window.to}`,
        audience === undefined ? undefined : sql`${lessons.courseId} = ANY(${uuidArray(audience.courseIds)})`,
      ),
    );
}

/** The user's current enrollments that expire in the window (a personal agenda only). */
export async function enrollmentExpiriesIn(db: Executor, tenantId: string, window: Window, userId: string) {
  return db
    .select({
      enrollmentId: enrollments.id,
      courseId: enrollments.courseId,
      courseTitle: courses.title,
      expiresAt: sql<string>`${enrollments.expiresAt}`.mapWith(calendarEvents.startsAt),
    })
    .from(enrollments)
    .innerJoin(courses, and(eq(courses.tenantId, enrollments.tenantId), eq(courses.id, enrollments.courseId)))
    .where(
      and(
        eq(enrollments.tenantId, tenantId),
        eq(enrollments.userId, userId),
        sql`${enrollments.status} IN ('active', 'completed')`,
        sql`${enrollments.expiresAt} >= ${window.from} AND ${enrollments.expiresAt} < ${window.to}`,
      ),
    );
}
