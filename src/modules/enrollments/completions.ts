import type { Executor } from "../../db/client.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, totalFromPage } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { issueOnCompletion } from "../certificates/issue.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { type EventInput, emitEvents } from "../events/emit.js";
import { refreshPathProgress } from "../learning-paths/progress.js";
import type { CompletionRecord, ListCompletionsQueryType } from "./completion-schemas.js";
import * as repo from "./completions-repo.js";
import { lockCurrentEnrollment } from "./enrollment-locks.js";
import { enrollmentAbout } from "./events.js";
import { findUserBrief } from "./lookups.js";
import { findEnrollment } from "./repo.js";
import { type EnrollmentRecord, percentOf } from "./schemas.js";

export type { CompletionRecord };

/** Enrollments a completion may count against: the learner is taking the course, or has finished it. */
const CURRENT = new Set(["active", "completed"]);

/** Whether an enrollment in this status may record completions (a suspended or dropped one may not). */
export function completesLessons(status: string): boolean {
  return CURRENT.has(status);
}

export interface RecordCompletionInput {
  tenantId: string;
  lessonId: string;
  userId: string;
  /** `api` for keys, `teacher` for sessions, `quiz` for a quiz submission, … */
  source: string;
  timeSpentSeconds?: number | null;
  scorePercent?: number | null;
  actor: Actor;
}

/**
 * Records the first completion of a lesson by a user, inside the caller's transaction (the quiz module calls it
 * while submitting an attempt). A repeat writes nothing and emits nothing (`created: false`).
 *
 * The user's enrollment in the lesson's course is locked first, so concurrent completions by the same user take
 * turns: each sees the ones before it, and exactly one of them can finish a module or the course. A first
 * completion sets the enrollment's `startedAt` and `lastActivityAt`, emits `lesson_completed`, then
 * `module_completed` when it finishes the required lessons of its module (`all` of them, or `any` one), and
 * `enrollment_completed` (with the enrollment becoming `completed`) when it finishes those of the course, and then
 * `certificate_issued` when the course names an active certificate template.
 *
 * Throws 404 for an unknown lesson or user and 409 `conflict.not_enrolled` without an active or completed
 * enrollment in the course.
 */
export async function recordCompletion(
  tx: Executor,
  input: RecordCompletionInput,
): Promise<{ created: boolean; completion: CompletionRecord }> {
  const { tenantId, lessonId, userId } = input;
  const lesson = await repo.findLesson(tx, tenantId, lessonId);
  if (lesson === undefined) throw notFound();
  const user = await findUserBrief(tx, tenantId, userId);
  if (user === undefined) throw notFound();
  const enrollment = await lockCurrentEnrollment(tx, tenantId, userId, lesson.courseId);
  if (enrollment === undefined || !CURRENT.has(enrollment.status)) {
    throw new AppError("conflict", { messageKey: "conflict.not_enrolled" });
  }

  const completion = await repo.insertCompletion(tx, {
    tenantId,
    lessonId,
    userId,
    courseId: lesson.courseId,
    moduleId: lesson.moduleId,
    enrollmentId: enrollment.id,
    timeSpentSeconds: input.timeSpentSeconds ?? null,
    scorePercent: input.scorePercent ?? null,
    source: input.source,
  });
  if (completion === undefined) {
    const existing = await repo.findCompletion(tx, tenantId, lessonId, userId);
    return { created: false, completion: existing as CompletionRecord };
  }

  const at = completion.completedAt;
  const progress = await repo.courseProgress(tx, tenantId, lesson.courseId, userId, lesson.moduleId);
  const progressPercent = percentOf(progress.done, progress.total);
  const courseComplete = progress.total > 0 && progress.done === progress.total;
  const completesEnrollment = courseComplete && enrollment.status === "active";
  const { progressEventDue } = await repo.markActivity(tx, tenantId, enrollment.id, at, {
    completed: completesEnrollment,
    progressed: lesson.counts,
  });

  const ids = { courseId: lesson.courseId, enrollmentId: enrollment.id, userId };
  const events: EventInput[] = [];
  const actor = eventActorOf(input.actor);
  const subject = subjectOf(user);
  events.push({
    type: "lesson_completed",
    data: {
      ...ids,
      lessonId,
      moduleId: lesson.moduleId,
      completedAt: at,
      timeSpentSeconds: completion.timeSpentSeconds,
      scorePercent: completion.scorePercent,
      progressPercent,
      courseCompleted: courseComplete,
      completion,
    },
    actor,
    subject,
  });
  if (lesson.counts && finishesModule(lesson.moduleRequirement, progress)) {
    events.push({
      type: "module_completed",
      data: { ...ids, moduleId: lesson.moduleId, completedAt: at, progressPercent },
      actor,
      subject,
    });
  }
  // The enrollment events carry the enrollment as it now reads: one lookup, only when one of them fires.
  const after =
    progressEventDue || completesEnrollment
      ? ((await findEnrollment(tx, tenantId, enrollment.id)) as EnrollmentRecord)
      : undefined;
  if (progressEventDue && after !== undefined) {
    events.push({
      type: "enrollment_progressed",
      data: {
        ...enrollmentAbout(after),
        progressPercent,
        previousProgressPercent: percentOf(progress.done - 1, progress.total),
        lessonsCompleted: progress.done,
        lessonsTotal: progress.total,
      },
      actor,
      subject,
    });
  }
  if (completesEnrollment && after !== undefined) {
    events.push({
      type: "enrollment_completed",
      data: { ...enrollmentAbout(after), completedAt: at, progressPercent, finalScore: null },
      actor,
      subject,
    });
    // A course that names a certificate template issues its certificate in this same transaction.
    const issued = await issueOnCompletion(tx, tenantId, after, subject, actor);
    if (issued !== undefined) events.push(issued);
  }
  await emitEvents(tx, tenantId, events);
  // The course's completion counts toward the learning paths holding it, in this same transaction.
  if (completesEnrollment) {
    await refreshPathProgress(tx, tenantId, { userId, courseId: lesson.courseId }, input.actor);
  }
  return { created: true, completion };
}

/**
 * Whether the completion just counted is the one that finishes its module: the last required lesson under
 * `all`, the first under `any`. Progress already includes it.
 */
function finishesModule(requirement: string, progress: repo.CourseProgress): boolean {
  if (requirement === "any") return progress.moduleDone === 1;
  return progress.moduleTotal > 0 && progress.moduleDone === progress.moduleTotal;
}

/**
 * Removes a user's completion of a lesson (404 when there is none) and emits `lesson_completion_reset`. A
 * completed enrollment whose course is no longer complete becomes active again.
 */
export async function resetCompletion(
  db: Executor,
  tenantId: string,
  actor: Actor,
  lessonId: string,
  userId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const lesson = await repo.findLesson(tx, tenantId, lessonId);
    if (lesson === undefined) throw notFound();
    const user = await findUserBrief(tx, tenantId, userId);
    if (user === undefined) throw notFound();
    // Same lock order as recordCompletion (the enrollment, then the completion): no deadlock between them.
    const enrollment = await lockCurrentEnrollment(tx, tenantId, userId, lesson.courseId);
    const removed = await repo.deleteCompletion(tx, tenantId, lessonId, userId);
    if (removed === undefined) throw notFound();
    let progressPercent: number | null = null;
    let reopened = false;
    if (enrollment !== undefined) {
      const progress = await repo.courseProgress(tx, tenantId, lesson.courseId, userId, lesson.moduleId);
      progressPercent = percentOf(progress.done, progress.total);
      const stillComplete = progress.total > 0 && progress.done === progress.total;
      if (enrollment.status === "completed" && !stillComplete) {
        await repo.reopenEnrollment(tx, tenantId, enrollment.id);
        reopened = true;
      }
    }
    await emitEvents(tx, tenantId, [
      {
        type: "lesson_completion_reset",
        data: {
          courseId: lesson.courseId,
          userId,
          lessonId,
          moduleId: lesson.moduleId,
          enrollmentId: enrollment?.id ?? removed.enrollmentId,
          progressPercent,
        },
        actor: eventActorOf(actor),
        subject: subjectOf(user),
      },
    ]);
    if (reopened) await refreshPathProgress(tx, tenantId, { userId, courseId: lesson.courseId }, actor);
  });
}

export async function listCompletions(
  db: Executor,
  tenantId: string,
  lessonId: string,
  query: ListCompletionsQueryType,
) {
  if ((await repo.findLesson(db, tenantId, lessonId)) === undefined) throw notFound();
  const window = pageWindow(query);
  const filter = { userId: query.userId, since: query.since };
  const data = await repo.listCompletions(
    db,
    tenantId,
    lessonId,
    filter,
    query.sort ?? "-completedAt",
    window,
  );
  // A page that is not full is the last: its total needs no count (the usual `since` of a sync, matching few).
  const total =
    (filter.since === undefined ? undefined : totalFromPage(window, data)) ??
    (await repo.countCompletions(db, tenantId, lessonId, filter));
  return cappedPageEnvelope(data, total, window);
}
