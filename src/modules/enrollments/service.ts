import type { PlanConfig } from "../../config/plans.js";
import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { refreshPathProgress } from "../learning-paths/progress.js";
import { admitStudent } from "../users/service.js";
import { lockEnrollment } from "./enrollment-locks.js";
import { enrollmentAbout } from "./events.js";
import { existingClassGroups, existingCourses, findUserBrief, findUsers, type UserBrief } from "./lookups.js";
import * as repo from "./repo.js";
import type {
  CreateEnrollmentInput,
  DeleteMode,
  EnrollmentRecord,
  ListEnrollmentsQueryType,
  ListUserEnrollmentsQueryType,
  UpdateEnrollmentInput,
} from "./schemas.js";

export type { Actor };

/** Who made an enrollment: an integration's key, or someone at the institution by hand. */
export function sourceOf(actor: Actor): "api" | "manual" {
  return actor.kind === "session" ? "manual" : "api";
}

export function alreadyEnrolled(err: unknown): never {
  if (isUniqueViolation(err, "enrollments_current_key")) {
    throw new AppError("conflict", { messageKey: "conflict.already_enrolled" });
  }
  throw err;
}

/** `expiresAt` must come after the start of the enrollment; null (no expiry) always does. */
export function expiryDetail(expiresAt: string | null | undefined, startsAt: string): DetailKey | undefined {
  if (expiresAt === undefined || expiresAt === null) return undefined;
  if (Date.parse(expiresAt) > Date.parse(startsAt)) return undefined;
  return { field: "expiresAt", key: "field.after_starts_at", params: { startsAt } };
}

export async function listEnrollments(db: Executor, tenantId: string, query: ListEnrollmentsQueryType) {
  const window = pageWindow(query);
  const filter = {
    userId: query.userId,
    courseId: query.courseId,
    classGroupId: query.classGroupId,
    status: query.status,
    role: query.role,
  };
  const [data, total] = await Promise.all([
    repo.listEnrollments(db, tenantId, filter, query.sort ?? "-createdAt", window),
    repo.countEnrollments(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(data, total, window);
}

export async function listUserEnrollments(
  db: Executor,
  tenantId: string,
  userId: string,
  query: ListUserEnrollmentsQueryType,
) {
  if ((await findUserBrief(db, tenantId, userId)) === undefined) throw notFound();
  return listEnrollments(db, tenantId, { ...query, userId });
}

export async function getEnrollment(db: Executor, tenantId: string, id: string): Promise<EnrollmentRecord> {
  const enrollment = await repo.findEnrollment(db, tenantId, id);
  if (enrollment === undefined) throw notFound();
  return enrollment;
}

/** The user, the course and the class group must all be the tenant's; every missing one is named. */
async function resolveReferences(
  tx: Executor,
  tenantId: string,
  input: CreateEnrollmentInput,
): Promise<UserBrief> {
  const classGroupId = input.classGroupId ?? null;
  const users = await findUsers(tx, tenantId, [input.userId], [], "share");
  const courses = await existingCourses(tx, tenantId, [input.courseId]);
  const groups = await existingClassGroups(tx, tenantId, classGroupId === null ? [] : [classGroupId]);
  const details: DetailKey[] = [];
  if (users.length === 0)
    details.push({ field: "userId", key: "field.unknown_user", params: { id: input.userId } });
  if (!courses.has(input.courseId))
    details.push({ field: "courseId", key: "field.unknown_course", params: { id: input.courseId } });
  if (classGroupId !== null && !groups.has(classGroupId))
    details.push({ field: "classGroupId", key: "field.unknown_class_group", params: { id: classGroupId } });
  if (details.length > 0) throw new AppError("validation_failed", { details });
  return users[0] as UserBrief;
}

/**
 * Enrolls a user. A student enrollment of a user who is not a `student` counts against the plan's student limit
 * (422 when no seat is left, 503 when it cannot be verified), unless the user holds one already.
 */
export async function createEnrollment(
  db: Executor,
  plans: PlanConfig,
  tenantId: string,
  actor: Actor,
  given: CreateEnrollmentInput,
): Promise<EnrollmentRecord> {
  // Ids as the database returns them, so the existence checks compare like with like.
  const input = {
    ...given,
    userId: given.userId.toLowerCase(),
    courseId: given.courseId.toLowerCase(),
    classGroupId: given.classGroupId?.toLowerCase() ?? null,
  };
  const startsAt = input.startsAt ?? new Date().toISOString();
  const badExpiry = expiryDetail(input.expiresAt, startsAt);
  if (badExpiry !== undefined) throw new AppError("validation_failed", { details: [badExpiry] });
  return db.transaction(async (tx) => {
    const user = await resolveReferences(tx, tenantId, input);
    const role = input.role ?? "student";
    if (role === "student" && user.role !== "student") await admitStudent(tx, plans, tenantId, user.id);
    const id = await repo
      .insertEnrollment(tx, tenantId, {
        userId: input.userId,
        courseId: input.courseId,
        classGroupId: input.classGroupId ?? null,
        role,
        source: sourceOf(actor),
        enrolledAt: startsAt,
        expiresAt: input.expiresAt ?? null,
      })
      .catch(alreadyEnrolled);
    const enrollment = (await repo.findEnrollment(tx, tenantId, id)) as EnrollmentRecord;
    await emitEvent(tx, {
      tenantId,
      type: "enrollment_created",
      data: {
        ...enrollmentAbout(enrollment),
        role: enrollment.role,
        status: enrollment.status,
        source: enrollment.source,
        classGroupId: enrollment.classGroupId,
      },
      actor: eventActorOf(actor),
      subject: subjectOf(user),
    });
    return enrollment;
  });
}

/** `enrollment_dropped`, carrying the enrollment as it reads after the drop, or as it read before deletion. */
async function emitDropped(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  enrollment: EnrollmentRecord,
  mode: DeleteMode,
): Promise<void> {
  const user = await findUserBrief(tx, tenantId, enrollment.userId);
  await emitEvent(tx, {
    tenantId,
    type: "enrollment_dropped",
    data: { ...enrollmentAbout(enrollment), mode },
    actor: eventActorOf(actor),
    subject: user === undefined ? null : subjectOf(user),
  });
}

export async function updateEnrollment(
  db: Executor,
  plans: PlanConfig,
  tenantId: string,
  actor: Actor,
  id: string,
  input: UpdateEnrollmentInput,
): Promise<EnrollmentRecord> {
  return db.transaction(async (tx) => {
    const current = await lockEnrollment(tx, tenantId, id);
    if (current === undefined) throw notFound();
    const details: DetailKey[] = [];
    const badExpiry = expiryDetail(input.expiresAt, current.enrolledAt);
    if (badExpiry !== undefined) details.push(badExpiry);
    const groupId = input.classGroupId?.toLowerCase() ?? null;
    if (groupId !== null && !(await existingClassGroups(tx, tenantId, [groupId])).has(groupId)) {
      details.push({ field: "classGroupId", key: "field.unknown_class_group", params: { id: groupId } });
    }
    if (details.length > 0) throw new AppError("validation_failed", { details });
    // A dropped student enrollment taken back counts again, like a new one.
    if (
      current.role === "student" &&
      current.status === "dropped" &&
      (input.status ?? "dropped") !== "dropped"
    ) {
      const [user] = await findUsers(tx, tenantId, [current.userId], [], "share");
      if (user !== undefined && user.role !== "student") await admitStudent(tx, plans, tenantId, user.id);
    }
    // Taking a dropped enrollment back can meet the user's newer current one in the same course.
    await repo.updateEnrollment(tx, tenantId, id, input).catch(alreadyEnrolled);
    const updated = (await repo.findEnrollment(tx, tenantId, id)) as EnrollmentRecord;
    if (input.status === "dropped" && current.status !== "dropped") {
      await emitDropped(tx, tenantId, actor, updated, "drop");
    }
    await leftCompletion(tx, tenantId, actor, current, updated.status);
    return updated;
  });
}

/** A completed enrollment that no longer is (dropped, suspended, deleted) stops counting toward its learning paths. */
async function leftCompletion(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  before: { userId: string; courseId: string; status: string },
  after: string | undefined,
): Promise<void> {
  if (before.status !== "completed" || after === "completed") return;
  await refreshPathProgress(tx, tenantId, { userId: before.userId, courseId: before.courseId }, actor);
}

/**
 * `drop` keeps the enrollment as history with status `dropped` (dropping a dropped one changes nothing and emits
 * nothing); `delete` removes it. The user's lesson completions stay either way: a new enrollment in the course
 * picks its progress up again.
 */
export async function deleteEnrollment(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  mode: DeleteMode,
): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await lockEnrollment(tx, tenantId, id);
    if (current === undefined) throw notFound();
    if (mode === "delete") {
      const before = (await repo.findEnrollment(tx, tenantId, id)) as EnrollmentRecord;
      await repo.detachCompletions(tx, tenantId, current);
      await repo.deleteEnrollment(tx, tenantId, id);
      await emitDropped(tx, tenantId, actor, before, mode);
    } else if (current.status !== "dropped") {
      await repo.updateEnrollment(tx, tenantId, id, { status: "dropped" });
      await emitDropped(
        tx,
        tenantId,
        actor,
        (await repo.findEnrollment(tx, tenantId, id)) as EnrollmentRecord,
        mode,
      );
    }
    await leftCompletion(tx, tenantId, actor, current, mode === "delete" ? undefined : "dropped");
  });
}
