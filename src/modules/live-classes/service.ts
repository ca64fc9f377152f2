import { randomBytes, randomUUID } from "node:crypto";
import type { Db, Executor } from "../../db/client.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, type DetailKey, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { resolveLiveConnection, type VideoDeps } from "../video-providers/service.js";
import { checkPeople, slotsOf, zoneOf } from "./class-input.js";
import { requireHostRight, requireOwnHost } from "./host.js";
import * as repo from "./repo.js";
import type {
  CreateLiveClassInput,
  ListLiveClassesQueryType,
  LiveClassRecord,
  UpdateLiveClassInput,
} from "./schemas.js";

export function lifecycle(c: repo.ClassRow) {
  return {
    liveClassId: c.id,
    title: c.title,
    startsAt: c.startsAt,
    durationMinutes: c.durationMinutes,
    courseId: c.courseId,
    classGroupId: c.classGroupId,
    provider: c.provider,
  };
}

function toRecord(c: repo.ClassRow, next: Map<string, LiveClassRecord["nextOccurrence"]>): LiveClassRecord {
  const { roomSecret: _secret, ...rest } = c;
  return { ...rest, nextOccurrence: next.get(c.id) ?? null };
}

/**
 * Whose audience a read is limited to: a student's session sees the classes it is in the audience of (and a class
 * it is not in is 404, as another institution's would be); staff and keys see the institution's.
 */
export function viewerOf(principal: Principal): string | undefined {
  return principal.kind === "session" && principal.role === "student" ? principal.userId : undefined;
}

export async function getClass(
  db: Executor,
  tenantId: string,
  id: string,
  viewer?: string,
): Promise<LiveClassRecord> {
  const c = await repo.findClass(db, tenantId, id, false, viewer);
  if (c === undefined) throw notFound();
  return toRecord(c, await repo.nextOccurrences(db, tenantId, [id]));
}

export async function listClasses(
  db: Executor,
  tenantId: string,
  query: ListLiveClassesQueryType,
  viewer?: string,
) {
  const window = pageWindow(query);
  const [rows, total] = await Promise.all([
    repo.listClasses(db, tenantId, query, window, viewer),
    repo.countClasses(db, tenantId, query, viewer),
  ]);
  const next = await repo.nextOccurrences(
    db,
    tenantId,
    rows.map((r) => r.id),
  );
  return cappedPageEnvelope(
    rows.map((r) => toRecord(r, next)),
    total,
    window,
  );
}

export async function createClass(
  deps: VideoDeps,
  tenantId: string,
  principal: Principal,
  input: CreateLiveClassInput,
): Promise<LiveClassRecord> {
  const db = deps.db;
  const details: DetailKey[] = [];
  const hostUserId = input.hostUserId ?? (principal.kind === "session" ? principal.userId : undefined);
  if (hostUserId === undefined) throw validationError("hostUserId", "field.required");
  requireOwnHost(principal, hostUserId);
  let courseId = input.courseId ?? null;
  const classGroupId = input.classGroupId ?? null;
  const lessonId = input.lessonId ?? null;
  const inviteeIds = input.inviteeIds ?? [];
  const coHostIds = input.coHostIds ?? [];
  if (courseId === null && classGroupId === null && inviteeIds.length === 0 && lessonId === null) {
    details.push({ field: "courseId", key: "field.audience_required" });
  }
  if (lessonId !== null) {
    const lessonCourse = await repo.lessonCourse(db, tenantId, lessonId);
    if (lessonCourse === undefined || (courseId !== null && courseId !== lessonCourse)) {
      details.push({ field: "lessonId", key: "field.lesson_not_in_course" });
    } else courseId = lessonCourse;
  }
  if (courseId !== null && input.courseId && !(await repo.courseExists(db, tenantId, courseId))) {
    details.push({ field: "courseId", key: "field.unknown_course", params: { id: courseId } });
  }
  if (classGroupId !== null && !(await repo.classGroupExists(db, tenantId, classGroupId))) {
    details.push({ field: "classGroupId", key: "field.unknown_class_group", params: { id: classGroupId } });
  }
  await checkPeople(db, tenantId, details, [
    { field: "hostUserId", ids: [hostUserId], staff: true },
    { field: "coHostIds", ids: coHostIds, staff: true },
    { field: "inviteeIds", ids: inviteeIds, staff: false },
  ]);
  const timezone = await zoneOf(db, tenantId, input.timezone, details);
  const { rule, slots } = slotsOf(
    {
      startsAt: input.startsAt,
      durationMinutes: input.durationMinutes,
      timezone,
      recurrence: input.recurrence ?? null,
    },
    details,
  );
  if (details.length > 0) throw new AppError("validation_failed", { details });
  const connection = await resolveLiveConnection(deps, tenantId, input.videoProviderId);
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await repo.insertClass(tx, {
      tenantId,
      id,
      title: input.title.trim(),
      description: input.description ?? null,
      courseId,
      lessonId,
      classGroupId,
      hostUserId,
      coHostIds,
      inviteeIds,
      startsAt: new Date(input.startsAt).toISOString(),
      durationMinutes: input.durationMinutes,
      timezone,
      recurrence: rule,
      videoProviderId: connection.id,
      roomSecret: randomBytes(12).toString("hex"),
      recordingEnabled: input.recordingEnabled ?? false,
      attendanceThresholdMinutes: input.attendanceThresholdMinutes ?? null,
    });
    await repo.insertOccurrences(tx, tenantId, id, slots);
    const created = (await repo.findClass(tx, tenantId, id)) as repo.ClassRow;
    await emitEvent(tx, {
      tenantId,
      type: "live_class_scheduled",
      data: { ...lifecycle(created), occurrences: slots.length },
      actor: eventActorOf(principal),
    });
  });
  return getClass(db, tenantId, id);
}

/**
 * Changing the schedule (start, length, zone, rule) rebuilds the occurrences, so it is only allowed while none
 * has started, ended or been canceled (409 otherwise: that history belongs to the old schedule).
 */
export async function updateClass(
  deps: VideoDeps,
  tenantId: string,
  principal: Principal,
  id: string,
  input: UpdateLiveClassInput,
): Promise<LiveClassRecord> {
  if (input.status === "canceled") {
    await cancelClass(deps.db, tenantId, principal, id);
    if (Object.keys(input).length === 1) return getClass(deps.db, tenantId, id);
  }
  const db = deps.db;
  const current = await repo.findClass(db, tenantId, id);
  if (current === undefined) throw notFound();
  requireHostRight(principal, current, "manage");
  const details: DetailKey[] = [];
  await checkPeople(db, tenantId, details, [
    { field: "coHostIds", ids: input.coHostIds ?? [], staff: true },
    { field: "inviteeIds", ids: input.inviteeIds ?? [], staff: false },
  ]);
  const reschedule =
    input.startsAt !== undefined ||
    input.durationMinutes !== undefined ||
    input.timezone !== undefined ||
    input.recurrence !== undefined;
  const timezone =
    input.timezone === undefined ? current.timezone : await zoneOf(db, tenantId, input.timezone, details);
  const schedule = {
    startsAt: input.startsAt ?? current.startsAt,
    durationMinutes: input.durationMinutes ?? current.durationMinutes,
    timezone,
    recurrence: input.recurrence === undefined ? current.recurrence : input.recurrence,
  };
  const planned = reschedule ? slotsOf(schedule, details) : undefined;
  if (details.length > 0) throw new AppError("validation_failed", { details });
  await db.transaction(async (tx) => {
    const locked = await repo.findClass(tx, tenantId, id, true);
    if (locked === undefined) throw notFound();
    if (reschedule && (locked.status !== "scheduled" || (await repo.hasHistory(tx, tenantId, id)))) {
      throw new AppError("conflict");
    }
    const changes: Partial<repo.NewClass> = {};
    if (input.title !== undefined) changes.title = input.title.trim();
    if (input.description !== undefined) changes.description = input.description;
    if (input.coHostIds !== undefined) changes.coHostIds = input.coHostIds;
    if (input.inviteeIds !== undefined) changes.inviteeIds = input.inviteeIds;
    if (input.recordingEnabled !== undefined) changes.recordingEnabled = input.recordingEnabled;
    if (input.attendanceThresholdMinutes !== undefined) {
      changes.attendanceThresholdMinutes = input.attendanceThresholdMinutes;
    }
    if (planned !== undefined) {
      Object.assign(changes, {
        startsAt: new Date(schedule.startsAt).toISOString(),
        durationMinutes: schedule.durationMinutes,
        timezone,
        recurrence: planned.rule,
      });
      await repo.deleteOccurrences(tx, tenantId, id);
      await repo.insertOccurrences(tx, tenantId, id, planned.slots);
    }
    await repo.updateClass(tx, tenantId, id, changes);
  });
  return getClass(db, tenantId, id);
}

/** Cancels the class and every occurrence still to come; a class already canceled stays as it is. */
export async function cancelClass(db: Db, tenantId: string, principal: Principal, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const c = await repo.findClass(tx, tenantId, id, true);
    if (c === undefined) throw notFound();
    requireHostRight(principal, c, "manage");
    if (c.status === "canceled") return;
    await repo.cancelScheduled(tx, tenantId, id);
    await repo.updateClass(tx, tenantId, id, { status: "canceled" });
    await emitEvent(tx, {
      tenantId,
      type: "live_class_canceled",
      data: { ...lifecycle(c), occurrenceId: null },
      actor: eventActorOf(principal),
    });
  });
}
