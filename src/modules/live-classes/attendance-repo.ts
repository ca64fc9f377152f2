import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { liveClassAttendance } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { AttendanceRecord } from "./schemas.js";

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
 * trigger-kept counter `live_class_attendance:live_class_id:<id>` (migration 0041); an occurrence's rows (one
 * occurrence's audience) are counted.
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
      : db
          .select({ n: sql<number>`count(*)::int` })
          .from(liveClassAttendance)
          .where(where)
          .then((count) => count[0]?.n ?? 0),
  ]);
  return { rows: rows as AttendanceRecord[], total };
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
