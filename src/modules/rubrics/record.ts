import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { quizAttempts, quizzes, rubricAssessments } from "../../db/schema/index.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { gradeSubmissionByRubric, submissionBrief } from "../assignments/service.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import { recordRubricGrade, type SourceType } from "../gradebook/service.js";
import type { AssessmentRecord, CreateAssessmentInput, TargetType } from "./assessment-schemas.js";
import { findRubric } from "./repo.js";
import { scoreAssessment } from "./scoring.js";

/** The work assessed, as its owning module knows it: whose it is, in which course, and what grade source it is. */
export interface AssessedTarget {
  type: TargetType;
  id: string;
  courseId: string;
  userId: string;
  /** The grade items this work feeds (`quiz` and the quiz's id for an attempt). */
  source: { type: SourceType; id: string };
  /**
   * How a `grading` assessment grades the work when its owning module grades it itself (a submission: through the
   * assignment's grading path, with its late policy); without it, recordRubricGrade writes the items naming the
   * rubric. Answers the grade items written.
   */
  grade?: (
    tx: Executor,
    actor: Actor,
    grade: { assessmentId: string; fraction: number },
  ) => Promise<string[]>;
}

/** Who assessed, as an assessment stores it. */
export function assessedByOf(actor: Actor): { type: "user" | "api_key" | "system"; id: string | null } {
  const a = eventActorOf(actor);
  return a.type === "user" || a.type === "api_key"
    ? { type: a.type, id: a.id }
    : { type: "system", id: null };
}

/** A quiz attempt of the tenant as an assessed target (400 when unknown, 409 while still in progress). */
export async function quizAttemptTarget(tx: Executor, tenantId: string, id: string): Promise<AssessedTarget> {
  const [row] = await tx
    .select({
      userId: quizAttempts.userId,
      status: quizAttempts.status,
      quizId: quizzes.id,
      courseId: quizzes.courseId,
    })
    .from(quizAttempts)
    .innerJoin(quizzes, and(eq(quizzes.tenantId, quizAttempts.tenantId), eq(quizzes.id, quizAttempts.quizId)))
    .where(and(eq(quizAttempts.tenantId, tenantId), eq(quizAttempts.id, id)));
  if (row === undefined) throw validationError("targetId", "field.unknown_target", { id });
  if (row.status === "in_progress")
    throw new AppError("conflict", { messageKey: "conflict.attempt_not_submitted" });
  return {
    type: "quiz_attempt",
    id,
    courseId: row.courseId,
    userId: row.userId,
    source: { type: "quiz", id: row.quizId },
  };
}

/**
 * A submission of the tenant as an assessed target (400 when unknown): a grading assessment grades it through the
 * assignments module (gradeSubmissionByRubric), which applies the late policy and names the assessment on it.
 * Rubrics sits above assignments in the import graph (assignments knows nothing of rubrics), so no hook is needed.
 */
export async function submissionTarget(tx: Executor, tenantId: string, id: string): Promise<AssessedTarget> {
  const row = await submissionBrief(tx, tenantId, id);
  if (row === undefined) throw validationError("targetId", "field.unknown_target", { id });
  return {
    type: "submission",
    id,
    courseId: row.courseId,
    userId: row.userId,
    source: { type: "assignment", id: row.assignmentId },
    grade: (inner, actor, grade) => gradeSubmissionByRubric(inner, tenantId, actor, id, grade),
  };
}

/**
 * Records an assessment of `target` with the rubric's current version, inside the caller's transaction (which has
 * checked that the actor may assess the target): 404 for an unknown rubric, 409 for an archived one, 400 for a
 * course rubric of another course or scores that do not fit the criteria. The rubric is held shared until the
 * transaction ends, so its criteria cannot change under the assessment. A `grading` assessment grades the target
 * through its own module when it says how (`target.grade`), and otherwise writes the grade of the course's items
 * that name the rubric (recordRubricGrade); `peer_review` and `self` never write a grade.
 */
export async function recordAssessment(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  rubricId: string,
  target: AssessedTarget,
  input: Pick<CreateAssessmentInput, "type" | "criterionScores">,
): Promise<AssessmentRecord> {
  const rubric = await findRubric(tx, tenantId, rubricId, "share");
  if (rubric === undefined) throw notFound();
  if (rubric.status === "archived")
    throw new AppError("conflict", { messageKey: "conflict.rubric_archived" });
  if (rubric.courseId !== null && rubric.courseId !== target.courseId)
    throw validationError("targetId", "field.rubric_other_course");
  const { scores, total } = scoreAssessment(rubric.criteria, rubric.freeFormComments, input.criterionScores);
  const type = input.type ?? "grading";
  const [row] = await tx
    .insert(rubricAssessments)
    .values({
      tenantId,
      rubricId: rubric.id,
      rubricVersion: rubric.version,
      targetType: target.type,
      targetId: target.id,
      courseId: target.courseId,
      userId: target.userId,
      assessedBy: assessedByOf(actor),
      type,
      criterionScores: scores,
      totalPoints: total,
    })
    .returning({ id: rubricAssessments.id, createdAt: rubricAssessments.createdAt });
  const { id, createdAt } = row as { id: string; createdAt: string };
  const fraction = rubric.pointsPossible > 0 ? total / rubric.pointsPossible : 0;
  let gradeItemIds: string[] = [];
  if (type === "grading" && target.grade !== undefined)
    gradeItemIds = await target.grade(tx, actor, { assessmentId: id, fraction });
  else if (type === "grading")
    gradeItemIds = await recordRubricGrade(tx, tenantId, actor, {
      courseId: target.courseId,
      rubricId: rubric.id,
      source: target.source,
      userId: target.userId,
      fraction,
    });
  return {
    id,
    rubricId: rubric.id,
    rubricVersion: rubric.version,
    targetType: target.type,
    targetId: target.id,
    courseId: target.courseId,
    userId: target.userId,
    assessedBy: assessedByOf(actor),
    type,
    criterionScores: scores,
    totalPoints: total,
    createdAt,
    criteria: rubric.criteria,
    pointsPossible: rubric.pointsPossible,
    gradeItemIds,
  };
}
