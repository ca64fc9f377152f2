import { and, asc, desc, eq, gt, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { qualified } from "../../db/qualified.js";
import { liveClasses, liveClassOccurrences, videoProviders } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import * as audience from "./audience-list.js";
import type { ListLiveClassesQueryType, LiveClassRecord, OccurrenceRecord } from "./schemas.js";

const occurrenceColumns = {
  id: liveClassOccurrences.id,
  liveClassId: liveClassOccurrences.liveClassId,
  startsAt: liveClassOccurrences.startsAt,
  endsAt: liveClassOccurrences.endsAt,
  status: liveClassOccurrences.status,
  startedAt: liveClassOccurrences.startedAt,
  endedAt: liveClassOccurrences.endedAt,
};

/** A class's own columns: what a page of the list reads as it walks the index of its order. */
const ownColumns = {
  id: liveClasses.id,
  title: liveClasses.title,
  description: liveClasses.description,
  courseId: liveClasses.courseId,
  lessonId: liveClasses.lessonId,
  classGroupId: liveClasses.classGroupId,
  hostUserId: liveClasses.hostUserId,
  coHostIds: liveClasses.coHostIds,
  inviteeIds: liveClasses.inviteeIds,
  startsAt: liveClasses.startsAt,
  durationMinutes: liveClasses.durationMinutes,
  timezone: liveClasses.timezone,
  recurrence: liveClasses.recurrence,
  videoProviderId: liveClasses.videoProviderId,
  status: liveClasses.status,
  recordingEnabled: liveClasses.recordingEnabled,
  attendanceThresholdMinutes: liveClasses.attendanceThresholdMinutes,
  createdAt: liveClasses.createdAt,
  updatedAt: liveClasses.updatedAt,
  roomSecret: liveClasses.roomSecret,
};

/** What a class's record adds from other tables: its provider (the built-in Jitsi without one) and occurrences. */
const relatedColumns = {
  provider: sql<string>`coalesce((SELECT p.provider FROM ${videoProviders} p WHERE p.tenant_id = ${qualified(liveClasses.tenantId)} AND p.id = ${qualified(liveClasses.videoProviderId)}), 'jitsi')`,
  occurrenceCount: sql<number>`(SELECT count(*)::int FROM ${liveClassOccurrences} o WHERE o.tenant_id = ${qualified(liveClasses.tenantId)} AND o.live_class_id = ${qualified(liveClasses.id)})`,
};

const classColumns = { ...ownColumns, ...relatedColumns };

export type ClassRow = Omit<LiveClassRecord, "nextOccurrence"> & { roomSecret: string };

/**
 * The classes a user is in the audience of: as host or co-host, invitee, enrollee of the class's course (active or
 * completed) or member of its class group, the rule `inAudience` and the join links apply one class at a time.
 */
function audienceOf(userId: string): SQL {
  const tenant = qualified(liveClasses.tenantId);
  return sql`(${qualified(liveClasses.hostUserId)} = ${userId}
    OR ${userId}::uuid = ANY (${qualified(liveClasses.coHostIds)})
    OR ${userId}::uuid = ANY (${qualified(liveClasses.inviteeIds)})
    OR EXISTS (SELECT 1 FROM enrollments AS e WHERE e.tenant_id = ${tenant}
      AND e.course_id = ${qualified(liveClasses.courseId)} AND e.user_id = ${userId}
      AND e.status IN ('active', 'completed'))
    OR EXISTS (SELECT 1 FROM class_group_members AS m WHERE m.tenant_id = ${tenant}
      AND m.class_group_id = ${qualified(liveClasses.classGroupId)} AND m.user_id = ${userId}))`;
}

function classWhere(tenantId: string, q: Partial<ListLiveClassesQueryType>): SQL {
  const window =
    q.from === undefined && q.to === undefined
      ? undefined
      : sql`EXISTS (SELECT 1 FROM ${liveClassOccurrences} o WHERE o.tenant_id = ${qualified(liveClasses.tenantId)}
          AND o.live_class_id = ${qualified(liveClasses.id)}
          ${q.from === undefined ? sql`` : sql`AND o.ends_at > ${q.from}`}
          ${q.to === undefined ? sql`` : sql`AND o.starts_at < ${q.to}`})`;
  return and(
    eq(liveClasses.tenantId, tenantId),
    q.courseId === undefined ? undefined : eq(liveClasses.courseId, q.courseId),
    q.classGroupId === undefined ? undefined : eq(liveClasses.classGroupId, q.classGroupId),
    q.hostUserId === undefined ? undefined : eq(liveClasses.hostUserId, q.hostUserId),
    q.status === undefined ? undefined : eq(liveClasses.status, q.status),
    window,
  ) as SQL;
}

const ORDER = {
  startsAt: [asc(liveClasses.startsAt), asc(liveClasses.id)],
  "-startsAt": [desc(liveClasses.startsAt), desc(liveClasses.id)],
  createdAt: [asc(liveClasses.createdAt), asc(liveClasses.id)],
  "-createdAt": [desc(liveClasses.createdAt), desc(liveClasses.id)],
} as const;

/**
 * A page of the list: the page statement walks the index of the sort (live_classes_tenant_starts_idx or
 * live_classes_tenant_created_idx, backwards for a descending sort) and stops at the page, then the provider and
 * occurrence count are read for the page's classes alone. Asked in the page statement, they would run for every
 * row the statement reads (the page and the rows its offset skips), or for every class when it sorts. A
 * student's page reads the ids its audience puts on the page (audience-list.ts), then those classes.
 */
export async function listClasses(
  db: Executor,
  tenantId: string,
  q: ListLiveClassesQueryType,
  window: PageWindow,
  viewer?: string,
): Promise<ClassRow[]> {
  const sort = q.sort ?? "startsAt";
  const where =
    viewer === undefined
      ? classWhere(tenantId, q)
      : and(
          eq(liveClasses.tenantId, tenantId),
          sql`${liveClasses.id} IN (${audience.pageIds(tenantId, classWhere(tenantId, q), viewer, sort, window)})`,
        );
  const rows = await db
    .select(ownColumns)
    .from(liveClasses)
    .where(where)
    .orderBy(...ORDER[sort])
    .limit(window.limit)
    // A student's page ids are the page already (audience-list.ts).
    .offset(viewer === undefined ? window.offset : 0);
  if (rows.length === 0) return [];
  const related = await db
    .select({ id: liveClasses.id, ...relatedColumns })
    .from(liveClasses)
    .where(
      and(
        eq(liveClasses.tenantId, tenantId),
        inArray(
          liveClasses.id,
          rows.map((r) => r.id),
        ),
      ),
    );
  const byId = new Map(related.map((r) => [r.id, r]));
  return rows.map((r) => {
    const extra = byId.get(r.id);
    return { ...r, provider: extra?.provider ?? "jitsi", occurrenceCount: extra?.occurrenceCount ?? 0 };
  }) as ClassRow[];
}

/**
 * The list's total. Unfiltered, or filtered by status alone, it is a trigger-kept counter (`live_classes`,
 * `live_classes:status:<s>`, migration 0032), exact. Any other filter counts its matches up to the platform's
 * cap, walking the list's default order (`countCapped`); a student's, the parts of its audience (audience-list.ts).
 */
export async function countClasses(
  db: Executor,
  tenantId: string,
  q: ListLiveClassesQueryType,
  viewer?: string,
): Promise<CappedTotal> {
  const others = [q.from, q.to, q.courseId, q.classGroupId, q.hostUserId, viewer];
  if (others.every((v) => v === undefined)) {
    return exactTotal(
      await readCounter(
        db,
        tenantId,
        q.status === undefined ? "live_classes" : `live_classes:status:${q.status}`,
      ),
    );
  }
  if (viewer !== undefined) return audience.countAudience(db, tenantId, classWhere(tenantId, q), viewer);
  return countCapped(db, liveClasses, classWhere(tenantId, q), [...ORDER.startsAt]);
}

/** One class; with `viewer`, only if that user is in its audience (a student's read). */
export async function findClass(db: Executor, tenantId: string, id: string, lock = false, viewer?: string) {
  const query = db
    .select(classColumns)
    .from(liveClasses)
    .where(
      and(
        eq(liveClasses.tenantId, tenantId),
        eq(liveClasses.id, id),
        viewer === undefined ? undefined : audienceOf(viewer),
      ),
    );
  const rows = lock ? await query.for("update") : await query;
  return rows[0] as ClassRow | undefined;
}

/**
 * The next occurrence of each class that has not ended and is not canceled: for each class, the first of its
 * occurrences by start through live_class_occurrences_class_idx, one row read per class (a DISTINCT ON over the
 * classes' occurrences would read and sort all of them, past and future).
 */
export async function nextOccurrences(db: Executor, tenantId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, OccurrenceRecord>();
  const next = db
    .select(occurrenceColumns)
    .from(liveClassOccurrences)
    .where(
      and(
        sql`${liveClassOccurrences.tenantId} = ${qualified(liveClasses.tenantId)}`,
        sql`${liveClassOccurrences.liveClassId} = ${qualified(liveClasses.id)}`,
        sql`${liveClassOccurrences.status} IN ('scheduled', 'live')`,
        gt(liveClassOccurrences.endsAt, sql`now()`),
      ),
    )
    .orderBy(asc(liveClassOccurrences.startsAt))
    .limit(1)
    .as("next");
  const rows = await db
    .select({
      id: next.id,
      liveClassId: next.liveClassId,
      startsAt: next.startsAt,
      endsAt: next.endsAt,
      status: next.status,
      startedAt: next.startedAt,
      endedAt: next.endedAt,
    })
    .from(liveClasses)
    .innerJoinLateral(next, sql`true`)
    .where(and(eq(liveClasses.tenantId, tenantId), inArray(liveClasses.id, ids)));
  return new Map(rows.map((r) => [r.liveClassId, r as OccurrenceRecord]));
}

export type NewClass = typeof liveClasses.$inferInsert;

export async function insertClass(db: Executor, values: NewClass) {
  await db.insert(liveClasses).values(values);
}

export async function updateClass(db: Executor, tenantId: string, id: string, changes: Partial<NewClass>) {
  await db
    .update(liveClasses)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(liveClasses.tenantId, tenantId), eq(liveClasses.id, id)));
}

export async function insertOccurrences(
  db: Executor,
  tenantId: string,
  liveClassId: string,
  slots: { startsAt: string; endsAt: string }[],
) {
  await db.insert(liveClassOccurrences).values(slots.map((s) => ({ tenantId, liveClassId, ...s })));
}

export async function deleteOccurrences(db: Executor, tenantId: string, liveClassId: string) {
  await db
    .delete(liveClassOccurrences)
    .where(
      and(eq(liveClassOccurrences.tenantId, tenantId), eq(liveClassOccurrences.liveClassId, liveClassId)),
    );
}

/** Whether any occurrence left `scheduled` (started, ended or canceled): the schedule is then history. */
export async function hasHistory(db: Executor, tenantId: string, liveClassId: string): Promise<boolean> {
  const rows = await db
    .select({ id: liveClassOccurrences.id })
    .from(liveClassOccurrences)
    .where(
      and(
        eq(liveClassOccurrences.tenantId, tenantId),
        eq(liveClassOccurrences.liveClassId, liveClassId),
        sql`${liveClassOccurrences.status} <> 'scheduled'`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Cancels every occurrence still to come; returns how many. */
export async function cancelScheduled(db: Executor, tenantId: string, liveClassId: string): Promise<number> {
  const rows = await db
    .update(liveClassOccurrences)
    .set({ status: "canceled" })
    .where(
      and(
        eq(liveClassOccurrences.tenantId, tenantId),
        eq(liveClassOccurrences.liveClassId, liveClassId),
        eq(liveClassOccurrences.status, "scheduled"),
      ),
    )
    .returning({ id: liveClassOccurrences.id });
  return rows.length;
}

export async function listOccurrences(
  db: Executor,
  tenantId: string,
  liveClassId: string,
  status: string | undefined,
  window: PageWindow,
) {
  const where = and(
    eq(liveClassOccurrences.tenantId, tenantId),
    eq(liveClassOccurrences.liveClassId, liveClassId),
    status === undefined ? undefined : eq(liveClassOccurrences.status, status),
  );
  const [rows, count] = await Promise.all([
    db
      .select(occurrenceColumns)
      .from(liveClassOccurrences)
      .where(where)
      .orderBy(asc(liveClassOccurrences.startsAt))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(liveClassOccurrences).where(where),
  ]);
  return { rows: rows as OccurrenceRecord[], total: count[0]?.n ?? 0 };
}

export async function findOccurrence(
  db: Executor,
  tenantId: string,
  liveClassId: string,
  id: string,
  lock = false,
) {
  const query = db
    .select({
      ...occurrenceColumns,
      externalMeetingId: liveClassOccurrences.externalMeetingId,
      externalJoinUrl: liveClassOccurrences.externalJoinUrl,
    })
    .from(liveClassOccurrences)
    .where(
      and(
        eq(liveClassOccurrences.tenantId, tenantId),
        eq(liveClassOccurrences.liveClassId, liveClassId),
        eq(liveClassOccurrences.id, id),
      ),
    );
  const rows = lock ? await query.for("update") : await query;
  return rows[0];
}

/** The occurrence a join link is for by default: the first one not over and not canceled. */
export async function currentOccurrenceId(db: Executor, tenantId: string, liveClassId: string) {
  const map = await nextOccurrences(db, tenantId, [liveClassId]);
  return map.get(liveClassId)?.id;
}

export async function updateOccurrence(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<typeof liveClassOccurrences.$inferInsert>,
) {
  await db
    .update(liveClassOccurrences)
    .set(changes)
    .where(and(eq(liveClassOccurrences.tenantId, tenantId), eq(liveClassOccurrences.id, id)));
}

/** Stores the provider's meeting unless another request stored one first; returns the one kept. */
export async function claimExternalMeeting(
  db: Executor,
  tenantId: string,
  id: string,
  meeting: { externalMeetingId: string; joinUrl: string },
) {
  await db
    .update(liveClassOccurrences)
    .set({ externalMeetingId: meeting.externalMeetingId, externalJoinUrl: meeting.joinUrl })
    .where(
      and(
        eq(liveClassOccurrences.tenantId, tenantId),
        eq(liveClassOccurrences.id, id),
        sql`${liveClassOccurrences.externalMeetingId} IS NULL`,
      ),
    );
}

export * from "./attendance-repo.js";
export * from "./audience-repo.js";
