import type { Db, Executor } from "../../db/client.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { completesLessons, recordCompletion } from "../enrollments/completions.js";
import { lockCurrentEnrollment } from "../enrollments/enrollment-locks.js";
import { eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import {
  openLiveConnection,
  ProviderError,
  providerAttendance,
  providerDeps,
  type VideoDeps,
} from "../video-providers/service.js";
import { gradeAttendance } from "./attendance-grades.js";
import type { PutAttendanceInput } from "./attendance-schemas.js";
import { requireHostRight } from "./host.js";
import { meetingOf } from "./join.js";
import * as repo from "./repo.js";

/** Joining this long after the start counts as `late`. */
const LATE_AFTER_MS = 10 * 60_000;

export async function listAttendance(
  db: Executor,
  tenantId: string,
  liveClassId: string,
  query: { page?: number; perPage?: number; occurrenceId?: string },
) {
  if ((await repo.findClass(db, tenantId, liveClassId)) === undefined) throw notFound();
  const window = pageWindow(query);
  const { rows, total } = await repo.listAttendance(db, tenantId, liveClassId, query.occurrenceId, window);
  return pageEnvelope(rows, total, window);
}

/**
 * Writes the occurrence's attendance, grades it where the class feeds a grade item (attendance-grades.ts), and,
 * for each user newly past the class's threshold (present or late, for
 * at least `attendanceThresholdMinutes`), emits `live_class_attended` once and completes the class's lesson
 * through the enrollments' completion path (which emits `lesson_completed`; a user without a current
 * enrollment completes nothing). All in the caller's transaction.
 */
async function record(
  tx: Executor,
  tenantId: string,
  principal: Principal,
  c: repo.ClassRow,
  occurrenceId: string,
  values: repo.AttendanceValues[],
): Promise<number> {
  const stored = await repo.upsertAttendance(tx, tenantId, c.id, occurrenceId, values);
  await gradeAttendance(
    tx,
    tenantId,
    principal,
    c,
    values.map((v) => v.userId),
  );
  const threshold = c.attendanceThresholdMinutes;
  if (threshold === null) return 0;
  let attended = 0;
  const actor = eventActorOf(principal);
  for (const row of stored) {
    if (row.attendedAt !== null || !["present", "late"].includes(row.status)) continue;
    if (row.durationSeconds < threshold * 60) continue;
    if (!(await repo.markAttended(tx, tenantId, occurrenceId, row.userId))) continue;
    attended++;
    const source = values.find((v) => v.userId === row.userId)?.source ?? "manual";
    await emitEvent(tx, {
      tenantId,
      type: "live_class_attended",
      data: {
        liveClassId: c.id,
        occurrenceId,
        userId: row.userId,
        durationSeconds: row.durationSeconds,
        status: row.status,
        source,
        lessonId: c.lessonId,
      },
      actor,
    });
    if (c.lessonId !== null && c.courseId !== null) {
      const enrollment = await lockCurrentEnrollment(tx, tenantId, row.userId, c.courseId);
      if (enrollment === undefined || !completesLessons(enrollment.status)) continue;
      await recordCompletion(tx, {
        tenantId,
        lessonId: c.lessonId,
        userId: row.userId,
        source: "live_class",
        timeSpentSeconds: row.durationSeconds,
        actor: principal,
      });
    }
  }
  return attended;
}

export async function putAttendance(
  db: Db,
  tenantId: string,
  principal: Principal,
  liveClassId: string,
  input: PutAttendanceInput,
) {
  const ids = [...new Set(input.records.map((r) => r.userId))];
  return db.transaction(async (tx) => {
    const c = await repo.findClass(tx, tenantId, liveClassId, true);
    if (c === undefined) throw notFound();
    requireHostRight(principal, c, "run");
    const o = await repo.findOccurrence(tx, tenantId, liveClassId, input.occurrenceId);
    if (o === undefined)
      throw new AppError("validation_failed", {
        details: [{ field: "occurrenceId", key: "field.unknown_occurrence" }],
      });
    const known = new Set((await repo.findUsers(tx, tenantId, ids)).map((u) => u.id));
    const details: DetailKey[] = ids
      .filter((id) => !known.has(id))
      .map((id) => ({ field: "records", key: "field.unknown_user", params: { id } }));
    if (details.length > 0) throw new AppError("validation_failed", { details });
    const byUser = new Map(input.records.map((r) => [r.userId, r]));
    const values = [...byUser.values()].map((r) => ({
      userId: r.userId,
      joinedAt: r.joinedAt ?? null,
      leftAt: r.leftAt ?? null,
      durationSeconds: r.durationSeconds ?? (r.status === "absent" ? 0 : c.durationMinutes * 60),
      status: r.status,
      source: "manual" as const,
    }));
    const attended = await record(tx, tenantId, principal, c, o.id, values);
    return { recorded: values.length, attended, unmatched: [] };
  });
}

/**
 * Reads the provider's participants report (Zoom: the past meeting's participants) outside any transaction,
 * sums each person's joins, matches them to users by e-mail, and records them as `provider` attendance.
 * A provider that reports nothing (Jitsi, BigBlueButton without a webhook) is 409: record attendance by hand.
 */
export async function syncAttendance(
  deps: VideoDeps,
  tenantId: string,
  principal: Principal,
  liveClassId: string,
  occurrenceId: string,
) {
  const db = deps.db;
  const c = await repo.findClass(db, tenantId, liveClassId);
  if (c === undefined) throw notFound();
  requireHostRight(principal, c, "run");
  const o = await repo.findOccurrence(db, tenantId, liveClassId, occurrenceId);
  if (o === undefined) throw notFound();
  const connection = await openLiveConnection(deps, tenantId, c.videoProviderId);
  let report: Awaited<ReturnType<typeof providerAttendance>>;
  try {
    report = await providerAttendance(providerDeps(deps), connection, meetingOf(c, o));
  } catch (error) {
    if (error instanceof ProviderError) throw new AppError("video_provider_error", { cause: error });
    throw error;
  }
  if (report === undefined)
    throw new AppError("conflict", { messageKey: "conflict.attendance_not_reported" });
  const byEmail = new Map<string, { joinedAt: string; leftAt: string; durationSeconds: number }>();
  for (const p of report) {
    const seen = byEmail.get(p.email);
    byEmail.set(
      p.email,
      seen === undefined
        ? { joinedAt: p.joinedAt, leftAt: p.leftAt, durationSeconds: p.durationSeconds }
        : {
            joinedAt: p.joinedAt < seen.joinedAt ? p.joinedAt : seen.joinedAt,
            leftAt: p.leftAt > seen.leftAt ? p.leftAt : seen.leftAt,
            durationSeconds: seen.durationSeconds + p.durationSeconds,
          },
    );
  }
  const people = await repo.findUsersByEmail(db, tenantId, [...byEmail.keys()]);
  const userOf = new Map(people.map((u) => [u.email.toLowerCase(), u.id]));
  const unmatched = [...byEmail.keys()].filter((e) => !userOf.has(e)).sort();
  const start = Date.parse(o.startsAt);
  const values = [...byEmail].flatMap(([email, a]) => {
    const userId = userOf.get(email);
    if (userId === undefined) return [];
    const late = Date.parse(a.joinedAt) - start > LATE_AFTER_MS;
    return [{ userId, ...a, status: late ? "late" : "present", source: "provider" as const }];
  });
  const attended = await db.transaction(async (tx) => {
    const locked = await repo.findClass(tx, tenantId, liveClassId, true);
    if (locked === undefined) throw notFound();
    return record(tx, tenantId, principal, locked, occurrenceId, values);
  });
  return { recorded: values.length, attended, unmatched };
}
