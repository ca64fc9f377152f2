import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import type { Principal } from "../../platform/auth/types.js";
import { notFound, validationError } from "../../platform/errors/app-error.js";
import { completesLessons, recordCompletion } from "../enrollments/completions.js";
import { lockCurrentEnrollment } from "../enrollments/enrollment-locks.js";
import { eventActorOf, subjectOf } from "../events/actor.js";
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
  actor: Principal,
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
  actor: Principal,
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
 * Grades (a score, with the late policy applied to a late submission), gives feedback, returns, or asks for a
 * resubmission. A score writes the grade of the assignment's grade item in the same transaction through the
 * gradebook (its log, the course grade, `grade_posted`/`grade_updated`), and emits `assignment_graded`.
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
    const set: Parameters<typeof repo.updateSubmission>[3] = { status };
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
    const row = await repo.updateSubmission(tx, tenantId, id, set);
    if (input.score !== undefined) {
      const percent = round2(((row.finalScore ?? 0) / assignment.pointsPossible) * 100);
      await recordSourceGrade(tx, tenantId, actor, {
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
    return detailOf(tx, tenantId, row);
  });
}
