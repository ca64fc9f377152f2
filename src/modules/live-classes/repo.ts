/**
 * Live classes themselves: the list and its total, one class, writes. The occurrences, attendance and audience
 * queries live in their own files and are re-exported at the end, so the service reads every query as `repo.*`.
 */
import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { qualified } from "../../db/qualified.js";
import { liveClasses, liveClassOccurrences, videoProviders } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import * as audience from "./audience-list.js";
import type { ListLiveClassesQueryType, LiveClassRecord } from "./schemas.js";

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

export * from "./attendance-repo.js";
export * from "./audience-repo.js";
export * from "./occurrence-repo.js";
