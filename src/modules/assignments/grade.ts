import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import type { Principal } from "../../platform/auth/types.js";
import { notFound, validationError } from "../../platform/errors/app-error.js";
import { completesLessons, recordCompletion } from "../enrollments/completions.js";
import { lockCurrentEnrollment } from "../enrollments/enrollment-locks.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { gradedByOf } from "../gradebook/grade-write.js";
import { assertTeaches, recordSourceGrade } from "../gradebook/service.js";
import { findLesson } from "../lessons/service.js";
import { applyLatePolicy, round2 } from "./late.js";
import { type AssignmentRow, findAssignment } from "./repo.js";
import * as repo from "./submission-repo.js";
import {
  EXTRA_CREDIT,
  type SubmissionDetailRecord,
  type SubmissionStatus,
  type UpdateSubmissionInput,
} from "./submission-schemas.js";
import { detailOf } from "./submissions.js";

function nextStatus(row: repo.SubmissionRow, input: UpdateSubmissionInput): SubmissionStatus {
  if (input.status !== undefined) return input.status;
  if (input.score === undefined) return row.status;
  return row.status === "returned" ? "returned" : "graded";
}

/** Completes the lesson when its criterion is `min_score` and the final score reaches it. */
async function completeOnScore(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  row: repo.SubmissionRow,
  percent: number,
) {
  const lesson = await findLesson(tx, tenantId, row.lessonId);
  const criteria = lesson?.completionCriteria;
  if (criteria?.type !== "min_score" || percent < (criteria.minScorePercent ?? 100)) return;
  const enrollment = await lockCurrentEnrollment(tx, tenantId, row.userId, row.courseId);
  if (enrollment === undefined || !completesLessons(enrollment.status)) return;
  await recordCompletion(tx, {
    tenantId,
    lessonId: row.lessonId,
    userId: row.userId,
    source: "assignment",
    scorePercent: percent,
    actor,
  });
}

async function announce(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  assignment: AssignmentRow,
  before: repo.SubmissionRow,
  row: repo.SubmissionRow,
  percent: number,
) {
  const user = await repo.findUser(tx, tenantId, row.userId);
  await emitEvent(tx, {
    tenantId,
    type: "assignment_graded",
    data: {
      courseId: row.courseId,
      lessonId: row.lessonId,
      assignmentId: row.assignmentId,
      submissionId: row.id,
      userId: row.userId,
      enrollmentId: row.enrollmentId,
      attempt: Math.max(1, row.attempt),
      late: row.late,
      secondsLate: row.secondsLate,
      score: row.finalScore as number,
      rawScore: row.score as number,
      deductedPoints: row.deductedPoints ?? 0,
      maxScore: assignment.pointsPossible,
      percent,
      gradedBy: gradedByOf(actor),
      previousScore: before.finalScore,
    },
    actor: eventActorOf(actor),
    subject: user === undefined ? null : subjectOf(user),
  });
}

/**
 * The grading path every grade of a submission takes, inside the caller's transaction (`before` locked): the late
 * policy applied to a late submission's score, the grade of the assignment's grade item written through the
 * gradebook (its log, the course grade, `grade_posted`/`grade_updated`), `assignment_graded` emitted, and the
 * lesson completed on a `min_score` criterion. Answers the row and the grade items written.
 */
async function applyGrade(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  before: repo.SubmissionRow,
  input: UpdateSubmissionInput,
  extra: { rubricAssessmentId?: string | null } = {},
): Promise<{ row: repo.SubmissionRow; gradeItemIds: string[] }> {
  const assignment = (await findAssignment(tx, tenantId, before.assignmentId, "share")) as AssignmentRow;
  const max = round2(assignment.pointsPossible * EXTRA_CREDIT);
  if (input.score !== undefined && input.score > max) {
    throw validationError("score", "field.maximum", { limit: max });
  }
  const status = nextStatus(before, input);
  const score = input.score ?? before.score;
  if ((status === "graded" || status === "returned") && score === null) {
    throw validationError("score", "field.required");
  }
  const set: Parameters<typeof repo.updateSubmission>[3] = { status, ...extra };
  if (input.feedback !== undefined) set.feedback = input.feedback;
  if (input.score !== undefined) {
    const late = applyLatePolicy(
      input.score,
      before.secondsLate,
      assignment.pointsPossible,
      assignment.latePolicy,
    );
    Object.assign(set, {
      score: round2(input.score),
      ...late,
      gradedAt: sql`now()`,
      gradedBy: gradedByOf(actor),
    });
  }
  const row = await repo.updateSubmission(tx, tenantId, before.id, set);
  let gradeItemIds: string[] = [];
  if (input.score !== undefined) {
    const percent = round2(((row.finalScore ?? 0) / assignment.pointsPossible) * 100);
    gradeItemIds = await recordSourceGrade(tx, tenantId, actor, {
      courseId: row.courseId,
      sourceType: "assignment",
      sourceId: assignment.id,
      userId: row.userId,
      percent,
      status: row.late ? "late" : "graded",
      ...(input.feedback === undefined ? {} : { feedback: input.feedback }),
    });
    await announce(tx, tenantId, actor, assignment, before, row, percent);
    await completeOnScore(tx, tenantId, actor, row, percent);
  }
  return { row, gradeItemIds };
}

/**
 * Grades (a score, with the late policy applied to a late submission), gives feedback, returns, or asks for a
 * resubmission, through applyGrade.
 */
export async function updateSubmission(
  db: Executor,
  tenantId: string,
  actor: Principal,
  id: string,
  input: UpdateSubmissionInput,
): Promise<SubmissionDetailRecord> {
  return db.transaction(async (tx) => {
    const before = await repo.findSubmission(tx, tenantId, id, "update");
    if (before === undefined) throw notFound();
    await assertTeaches(tx, tenantId, actor, before.courseId);
    // A score given by hand is no rubric assessment's: the link goes with the score it gave.
    const extra = input.score === undefined ? {} : { rubricAssessmentId: null };
    const { row } = await applyGrade(tx, tenantId, actor, before, input, extra);
    return detailOf(tx, tenantId, row);
  });
}

/** A submission of the tenant as the rubrics module assesses it: whose, in which course, of which assignment. */
export async function submissionBrief(tx: Executor, tenantId: string, id: string) {
  const row = await repo.findSubmission(tx, tenantId, id);
  return row === undefined
    ? undefined
    : { id: row.id, courseId: row.courseId, userId: row.userId, assignmentId: row.assignmentId };
}

/**
 * What the rubrics module calls for a `grading` assessment of a submission, inside its transaction (which has
 * checked the assessor): the score is `fraction` of the assignment's points, graded as a teacher's score is
 * (applyGrade, so a late submission gets its deduction), and the submission names the assessment. Answers the
 * grade items written.
 */
export async function gradeSubmissionByRubric(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  grade: { assessmentId: string; fraction: number },
): Promise<string[]> {
  const before = await repo.findSubmission(tx, tenantId, id, "update");
  if (before === undefined) throw notFound();
  const assignment = (await findAssignment(tx, tenantId, before.assignmentId, "share")) as AssignmentRow;
  const score = round2(grade.fraction * assignment.pointsPossible);
  const { gradeItemIds } = await applyGrade(
    tx,
    tenantId,
    actor,
    before,
    { score },
    {
      rubricAssessmentId: grade.assessmentId,
    },
  );
  return gradeItemIds;
}
