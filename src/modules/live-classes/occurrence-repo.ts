/**
 * A live class's occurrences: its schedule as rows (written, replaced, canceled), each one's state as it is held,
 * and the next one of each class that the list and the join links show. repo.ts re-exports these.
 */
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { qualified } from "../../db/qualified.js";
import { liveClasses, liveClassOccurrences } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { OccurrenceRecord } from "./schemas.js";

const occurrenceColumns = {
  id: liveClassOccurrences.id,
  liveClassId: liveClassOccurrences.liveClassId,
  startsAt: liveClassOccurrences.startsAt,
  endsAt: liveClassOccurrences.endsAt,
  status: liveClassOccurrences.status,
  startedAt: liveClassOccurrences.startedAt,
  endedAt: liveClassOccurrences.endedAt,
};

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
