import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { liveClassAttendance, liveClassOccurrences, tenantCounters } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { AttendanceRecord } from "./attendance-schemas.js";

const attendanceColumns = {
  occurrenceId: liveClassAttendance.occurrenceId,
  userId: liveClassAttendance.userId,
  joinedAt: liveClassAttendance.joinedAt,
  leftAt: liveClassAttendance.leftAt,
  durationSeconds: liveClassAttendance.durationSeconds,
  status: liveClassAttendance.status,
  source: liveClassAttendance.source,
  attended: sql<boolean>`(${liveClassAttendance.attendedAt} IS NOT NULL)`,
  updatedAt: liveClassAttendance.updatedAt,
};

/**
 * A class's page in (occurrence, user) order through live_class_attendance_class_idx. The class's total is the
 * trigger-kept counter `live_class_attendance:live_class_id:<id>` (migration 0041); an occurrence's, its
 * `live_class_attendance:occurrence_id:<id>` (0045).
 */
export async function listAttendance(
  db: Executor,
  tenantId: string,
  liveClassId: string,
  occurrenceId: string | undefined,
  window: PageWindow,
) {
  const where = and(
    eq(liveClassAttendance.tenantId, tenantId),
    eq(liveClassAttendance.liveClassId, liveClassId),
    occurrenceId === undefined ? undefined : eq(liveClassAttendance.occurrenceId, occurrenceId),
  );
  const [rows, total] = await Promise.all([
    db
      .select(attendanceColumns)
      .from(liveClassAttendance)
      .where(where)
      .orderBy(asc(liveClassAttendance.occurrenceId), asc(liveClassAttendance.userId))
      .limit(window.limit)
      .offset(window.offset),
    occurrenceId === undefined
      ? readCounter(db, tenantId, `live_class_attendance:live_class_id:${liveClassId}`)
      : occurrenceTotal(db, tenantId, liveClassId, occurrenceId),
  ]);
  return { rows: rows as AttendanceRecord[], total };
}

/**
 * The occurrence's counter, read through the occurrence so that an occurrence of another class (whose rows this
 * class's page never shows) totals 0, as its page does.
 */
async function occurrenceTotal(
  db: Executor,
  tenantId: string,
  liveClassId: string,
  occurrenceId: string,
): Promise<number> {
  const rows = await db
    .select({ value: tenantCounters.value })
    .from(liveClassOccurrences)
    .innerJoin(
      tenantCounters,
      and(
        eq(tenantCounters.tenantId, liveClassOccurrences.tenantId),
        eq(tenantCounters.counter, sql`'live_class_attendance:occurrence_id:' || ${liveClassOccurrences.id}`),
      ),
    )
    .where(
      and(
        eq(liveClassOccurrences.tenantId, tenantId),
        eq(liveClassOccurrences.liveClassId, liveClassId),
        eq(liveClassOccurrences.id, occurrenceId),
      ),
    );
  return rows[0]?.value ?? 0;
}

export interface AttendanceValues {
  userId: string;
  joinedAt: string | null;
  leftAt: string | null;
  durationSeconds: number;
  status: string;
  source: "provider" | "manual";
}

/**
 * Writes attendance rows; returns each user's row as stored, with whether `live_class_attended` was already
 * emitted for it (`attendedAt`). Rows are locked so that two syncs cannot both emit for one user.
 */
export async function upsertAttendance(
  db: Executor,
  tenantId: string,
  liveClassId: string,
  occurrenceId: string,
  values: AttendanceValues[],
) {
  if (values.length === 0) return [];
  return db
    .insert(liveClassAttendance)
    .values(values.map((v) => ({ tenantId, liveClassId, occurrenceId, ...v })))
    .onConflictDoUpdate({
      target: [liveClassAttendance.tenantId, liveClassAttendance.occurrenceId, liveClassAttendance.userId],
      set: {
        joinedAt: sql`excluded.joined_at`,
        leftAt: sql`excluded.left_at`,
        durationSeconds: sql`excluded.duration_seconds`,
        status: sql`excluded.status`,
        source: sql`excluded.source`,
        updatedAt: sql`now()`,
      },
    })
    .returning({
      userId: liveClassAttendance.userId,
      durationSeconds: liveClassAttendance.durationSeconds,
      status: liveClassAttendance.status,
      attendedAt: liveClassAttendance.attendedAt,
    });
}

export async function markAttended(db: Executor, tenantId: string, occurrenceId: string, userId: string) {
  const rows = await db
    .update(liveClassAttendance)
    .set({ attendedAt: sql`now()` })
    .where(
      and(
        eq(liveClassAttendance.tenantId, tenantId),
        eq(liveClassAttendance.occurrenceId, occurrenceId),
        eq(liveClassAttendance.userId, userId),
        sql`${liveClassAttendance.attendedAt} IS NULL`,
      ),
    )
    .returning({ userId: liveClassAttendance.userId });
  return rows.length > 0;
}
