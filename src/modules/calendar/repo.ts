import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import {
  calendarEvents,
  calendarFeeds,
  classGroupMembers,
  classGroups,
  courses,
  enrollments,
  lessons,
  liveClasses,
  liveClassOccurrences,
  tenants,
  users,
} from "../../db/schema/index.js";
import { MAX_DURATION_MINUTES } from "../live-classes/schemas.js";
import type { CalendarEventRecord } from "./schemas.js";

const columns = {
  id: calendarEvents.id,
  title: calendarEvents.title,
  description: calendarEvents.description,
  startsAt: calendarEvents.startsAt,
  endsAt: calendarEvents.endsAt,
  allDay: calendarEvents.allDay,
  timezone: sql<string>`coalesce(${calendarEvents.timezone}, ${tenants.timezone})`,
  locationName: calendarEvents.locationName,
  locationAddress: calendarEvents.locationAddress,
  url: calendarEvents.url,
  contextType: calendarEvents.contextType,
  contextId: calendarEvents.contextId,
  recurrence: calendarEvents.recurrence,
  status: calendarEvents.status,
  createdAt: calendarEvents.createdAt,
  updatedAt: calendarEvents.updatedAt,
};

export async function timezoneOf(db: Executor, tenantId: string): Promise<string> {
  const rows = await db.select({ tz: tenants.timezone }).from(tenants).where(eq(tenants.id, tenantId));
  return rows[0]?.tz ?? "UTC";
}

export async function findEvent(
  db: Executor,
  tenantId: string,
  id: string,
  lock = false,
): Promise<CalendarEventRecord | undefined> {
  const query = db
    .select(columns)
    .from(calendarEvents)
    .innerJoin(tenants, eq(tenants.id, calendarEvents.tenantId))
    .where(and(eq(calendarEvents.tenantId, tenantId), eq(calendarEvents.id, id)));
  const rows = lock ? await query.for("update", { of: calendarEvents }) : await query;
  return rows[0] as CalendarEventRecord | undefined;
}

/** The event's own zone (null: it follows the institution's). */
export async function ownTimezone(db: Executor, tenantId: string, id: string): Promise<string | null> {
  const rows = await db
    .select({ tz: calendarEvents.timezone })
    .from(calendarEvents)
    .where(and(eq(calendarEvents.tenantId, tenantId), eq(calendarEvents.id, id)));
  return rows[0]?.tz ?? null;
}

/** Who created the event (null: an API key); undefined when there is no such event. */
export async function creatorOf(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<string | null | undefined> {
  const rows = await db
    .select({ createdBy: calendarEvents.createdBy })
    .from(calendarEvents)
    .where(and(eq(calendarEvents.tenantId, tenantId), eq(calendarEvents.id, id)));
  return rows[0] === undefined ? undefined : rows[0].createdBy;
}

export type EventValues = Omit<typeof calendarEvents.$inferInsert, "tenantId" | "id">;

export async function insertEvent(db: Executor, tenantId: string, values: EventValues): Promise<string> {
  const rows = await db
    .insert(calendarEvents)
    .values({ tenantId, ...values })
    .returning({ id: calendarEvents.id });
  return (rows[0] as { id: string }).id;
}

export async function updateEvent(db: Executor, tenantId: string, id: string, values: Partial<EventValues>) {
  await db
    .update(calendarEvents)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(calendarEvents.tenantId, tenantId), eq(calendarEvents.id, id)));
}

export async function deleteEvent(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(calendarEvents)
    .where(and(eq(calendarEvents.tenantId, tenantId), eq(calendarEvents.id, id)))
    .returning({ id: calendarEvents.id });
  return rows.length > 0;
}

/** Whether the context a custom event names exists in this institution. */
export async function contextExists(
  db: Executor,
  tenantId: string,
  type: string,
  id: string,
): Promise<boolean> {
  const table = type === "course" ? courses : type === "class_group" ? classGroups : users;
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.tenantId, tenantId), eq(table.id, id)));
  return rows.length > 0;
}

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

const uuidArray = (ids: string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

/**
 * Custom events whose series overlaps the window (recurring ones are expanded by the caller). Without an
 * audience (the institution's calendar), users' own events are left out unless `withPersonal`.
 */
const earliestStart = (window: Window) =>
  new Date(Date.parse(window.from) - MAX_DURATION_MINUTES * 60_000).toISOString();

/** The window as a range, `[from, to)`. */
const windowRange = (window: Window) =>
  sql`tstzrange(${window.from}::timestamptz, ${window.to}::timestamptz, '[)')`;

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
    .select(columns)
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

export async function userExists(db: Executor, tenantId: string, userId: string): Promise<boolean> {
  return contextExists(db, tenantId, "user", userId);
}

export async function findFeed(db: Executor, tenantId: string, userId: string) {
  const rows = await db
    .select({ createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.tenantId, tenantId), eq(calendarFeeds.userId, userId)));
  return rows[0];
}

/** One feed per user: a new token replaces the old one, which stops working at once. */
export async function upsertFeed(db: Executor, tenantId: string, userId: string, tokenHash: string) {
  const rows = await db
    .insert(calendarFeeds)
    .values({ tenantId, userId, tokenHash })
    .onConflictDoUpdate({
      target: [calendarFeeds.tenantId, calendarFeeds.userId],
      set: { tokenHash, createdAt: sql`now()` },
    })
    .returning({ createdAt: calendarFeeds.createdAt });
  return (rows[0] as { createdAt: string }).createdAt;
}

export async function deleteFeed(db: Executor, tenantId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(calendarFeeds)
    .where(and(eq(calendarFeeds.tenantId, tenantId), eq(calendarFeeds.userId, userId)))
    .returning({ userId: calendarFeeds.userId });
  return rows.length > 0;
}

/** The active user a feed token belongs to, in this institution only. */
export async function feedOwner(db: Executor, tenantId: string, tokenHash: string) {
  const rows = await db
    .select({ userId: calendarFeeds.userId, name: users.name })
    .from(calendarFeeds)
    .innerJoin(users, and(eq(users.tenantId, calendarFeeds.tenantId), eq(users.id, calendarFeeds.userId)))
    .where(
      and(
        eq(calendarFeeds.tenantId, tenantId),
        eq(calendarFeeds.tokenHash, tokenHash),
        eq(users.status, "active"),
      ),
    );
  return rows[0];
}
