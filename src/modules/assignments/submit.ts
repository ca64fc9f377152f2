import type { Executor } from "../../db/client.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, type DetailKey, validationError } from "../../platform/errors/app-error.js";
import { completesLessons, recordCompletion } from "../enrollments/completions.js";
import { lockCurrentEnrollment } from "../enrollments/enrollment-locks.js";
import { eventActorOf, subjectOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { findLesson } from "../lessons/service.js";
import { assertUsableMedia } from "../media/service.js";
import { effectiveDates, secondsLate } from "./late.js";
import type { AssignmentRow } from "./repo.js";
import { findExtension } from "./repo.js";
import type { SubmissionKind } from "./schemas.js";
import * as repo from "./submission-repo.js";
import type { CreateSubmissionInput, SubmissionDetailRecord } from "./submission-schemas.js";
import { detailOf, learnerOf, lessonAssignment } from "./submissions.js";

const conflict = (messageKey: string, params?: Record<string, string>) =>
  new AppError("conflict", { messageKey, ...(params ? { params } : {}) });

function isHttps(value: string): boolean {
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}

/** What the body hands in, each kind checked against the assignment's `allowedKinds` (400 naming the field). */
function assertContent(assignment: AssignmentRow, input: CreateSubmissionInput): void {
  const given: [SubmissionKind, string][] = [];
  if (input.bodyText !== undefined) given.push(["text", "bodyText"]);
  if (input.attachmentMediaIds !== undefined) given.push(["file", "attachmentMediaIds"]);
  if (input.url !== undefined) given.push(["url", "url"]);
  if (given.length === 0) throw validationError("bodyText", "field.submission_empty");
  const details: DetailKey[] = [];
  for (const [kind, field] of given) {
    if (!assignment.allowedKinds.includes(kind))
      details.push({ field, key: "field.kind_not_allowed", params: { kind } });
  }
  if (input.url !== undefined && !isHttps(input.url)) details.push({ field: "url", key: "field.https_url" });
  if (details.length > 0) throw new AppError("validation_failed", { details });
}

/** Who the submission is for: a student's own session submits for itself; staff and keys name the student. */
function studentOf(principal: Principal, input: CreateSubmissionInput): string {
  const learner = learnerOf(principal);
  if (learner !== undefined) {
    if (input.userId !== undefined && input.userId.toLowerCase() !== learner) {
      throw new AppError("forbidden", { messageKey: "forbidden.submission_own" });
    }
    return learner;
  }
  if (input.userId === undefined) throw validationError("userId", "field.required");
  return input.userId.toLowerCase();
}

/**
 * Hands in an attempt for a student with a current student enrollment in the course (409 otherwise): before the
 * student's lock date (409 after), within its allowed attempts (409) unless a resubmission was requested. The
 * student's earlier attempt goes to the history; lateness is measured from the student's due date. Emits
 * `assignment_submitted`, and completes the lesson when its criterion is `submit`, in the same transaction.
 */
export async function createSubmission(
  db: Executor,
  tenantId: string,
  principal: Principal,
  lessonId: string,
  input: CreateSubmissionInput,
): Promise<SubmissionDetailRecord> {
  return db.transaction(async (tx) => {
    // Share-locked: the missing sweep (which locks the assignment to write missing rows) waits for this
    // submission or skips the assignment until its next pass, so the two never write the same student's row.
    const assignment = await lessonAssignment(tx, tenantId, principal, lessonId, "share");
    const userId = studentOf(principal, input);
    const user = await repo.findUser(tx, tenantId, userId);
    if (user === undefined) throw validationError("userId", "field.unknown_user", { id: userId });
    const enrollment = await lockCurrentEnrollment(tx, tenantId, userId, assignment.courseId);
    if (enrollment === undefined || enrollment.role !== "student") throw conflict("conflict.not_enrolled");
    assertContent(assignment, input);
    const mediaIds = [...new Set((input.attachmentMediaIds ?? []).map((id) => id.toLowerCase()))];
    for (const [i, id] of mediaIds.entries()) {
      await assertUsableMedia(tx, tenantId, id, `attachmentMediaIds[${i}]`);
    }

    const existing = await repo.submissionOf(tx, tenantId, assignment.lessonId, userId);
    const dates = effectiveDates(assignment, await findExtension(tx, tenantId, assignment.id, userId));
    const now = new Date();
    if (dates.lockAt !== null && now.getTime() > Date.parse(dates.lockAt)) {
      throw conflict("conflict.assignment_locked");
    }
    const used = existing?.attempt ?? 0;
    if (
      assignment.allowedAttempts !== null &&
      used >= assignment.allowedAttempts &&
      existing?.status !== "resubmission_requested"
    ) {
      throw conflict("conflict.submission_attempts_exhausted");
    }
    if (existing !== undefined) await repo.archiveAttempt(tx, tenantId, existing.id);
    const late = secondsLate(dates.dueAt, now);
    const row = await repo.writeAttempt(tx, tenantId, existing?.id, {
      assignmentId: assignment.id,
      lessonId: assignment.lessonId,
      courseId: assignment.courseId,
      userId,
      enrollmentId: enrollment.id,
      attempt: used + 1,
      bodyText: input.bodyText ?? null,
      attachmentMediaIds: mediaIds,
      url: input.url ?? null,
      late: late > 0,
      secondsLate: late,
      submittedAt: now.toISOString(),
    });
    await emitEvent(tx, {
      tenantId,
      type: "assignment_submitted",
      data: {
        courseId: row.courseId,
        lessonId: row.lessonId,
        assignmentId: row.assignmentId,
        submissionId: row.id,
        userId,
        enrollmentId: row.enrollmentId,
        attempt: row.attempt,
        late: row.late,
        secondsLate: row.secondsLate,
        submittedAt: row.submittedAt as string,
      },
      actor: eventActorOf(principal),
      subject: subjectOf(user),
    });
    const lesson = await findLesson(tx, tenantId, assignment.lessonId);
    if (lesson?.completionCriteria.type === "submit" && completesLessons(enrollment.status)) {
      await recordCompletion(tx, {
        tenantId,
        lessonId: assignment.lessonId,
        userId,
        source: "assignment",
        actor: principal,
      });
    }
    return detailOf(tx, tenantId, row);
  });
}
