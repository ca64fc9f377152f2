import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { rubricAssessments, rubricVersions } from "../../db/schema/index.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import type { Actor } from "../events/actor.js";
import { assertCourseStaff, learnerOf } from "./access.js";
import type {
  AssessmentRecord,
  AssessmentSummaryRecord,
  CreateAssessmentInput,
} from "./assessment-schemas.js";
import { quizAttemptTarget, recordAssessment, submissionTarget } from "./record.js";
import { assessmentCounter, findRubric } from "./repo.js";
import type { CriterionRecord } from "./schemas.js";

const columns = {
  id: rubricAssessments.id,
  rubricId: rubricAssessments.rubricId,
  rubricVersion: rubricAssessments.rubricVersion,
  targetType: rubricAssessments.targetType,
  targetId: rubricAssessments.targetId,
  courseId: rubricAssessments.courseId,
  userId: rubricAssessments.userId,
  assessedBy: rubricAssessments.assessedBy,
  type: rubricAssessments.type,
  criterionScores: rubricAssessments.criterionScores,
  totalPoints: rubricAssessments.totalPoints,
  createdAt: rubricAssessments.createdAt,
};

/** POST /rubrics/:id/assessments: the target resolved and the actor checked against its course, then recorded. */
export async function createAssessment(
  db: Executor,
  tenantId: string,
  actor: Actor,
  rubricId: string,
  input: CreateAssessmentInput,
): Promise<AssessmentRecord> {
  return db.transaction(async (tx) => {
    if ((await findRubric(tx, tenantId, rubricId)) === undefined) throw notFound();
    const targetId = input.targetId.toLowerCase();
    const target =
      input.targetType === "submission"
        ? await submissionTarget(tx, tenantId, targetId)
        : await quizAttemptTarget(tx, tenantId, targetId);
    const learner = learnerOf(actor);
    if (learner === undefined) await assertCourseStaff(tx, tenantId, actor, target.courseId);
    else {
      // A student assesses its own work, and only as `self` (which never writes a grade).
      if (target.userId !== learner)
        throw validationError("targetId", "field.unknown_target", { id: input.targetId.toLowerCase() });
      if ((input.type ?? "grading") !== "self")
        throw validationError("type", "field.enum", { values: "self" });
    }
    return recordAssessment(tx, tenantId, actor, rubricId, target, input);
  });
}

/**
 * 404 unless the rubric is the tenant's. A teacher's session reads the assessments of a course rubric of a course
 * it teaches; those of an institution rubric span courses, so it reads them one at a time (GET by id).
 */
async function readableRubric(db: Executor, tenantId: string, actor: Actor, rubricId: string) {
  const rubric = await findRubric(db, tenantId, rubricId);
  if (rubric === undefined) throw notFound();
  if (rubric.courseId === null && actor.kind === "session" && actor.role === "teacher")
    throw new AppError("forbidden", { messageKey: "forbidden.rubric_teacher" });
  await assertCourseStaff(db, tenantId, actor, rubric.courseId);
  return rubric;
}

/** A rubric's assessments, newest first; the total is the rubric's counter. */
export async function listAssessments(
  db: Executor,
  tenantId: string,
  actor: Actor,
  rubricId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  await readableRubric(db, tenantId, actor, rubricId);
  const [data, total] = await Promise.all([
    runPageQuery(db, "rubric_assessments", tenantId, { rubricId }, window, (p, name) =>
      db
        .select(columns)
        .from(rubricAssessments)
        .where(
          and(
            eq(rubricAssessments.tenantId, p.tenantId),
            eq(rubricAssessments.rubricId, p.rubricId as Bindable),
          ),
        )
        .orderBy(desc(rubricAssessments.createdAt), desc(rubricAssessments.id))
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
    ),
    readCounter(db, tenantId, assessmentCounter(rubricId)),
  ]);
  return cappedPageEnvelope(data as AssessmentSummaryRecord[], exactTotal(total), window);
}

/** One assessment with the criteria of the version it was made with. */
export async function getAssessment(
  db: Executor,
  tenantId: string,
  actor: Actor,
  rubricId: string,
  assessmentId: string,
): Promise<AssessmentRecord> {
  const [row] = await db
    .select({
      ...columns,
      criteria: rubricVersions.criteria,
      pointsPossible: sql<number>`${rubricVersions.pointsPossible}::float8`,
    })
    .from(rubricAssessments)
    .innerJoin(
      rubricVersions,
      and(
        eq(rubricVersions.tenantId, rubricAssessments.tenantId),
        eq(rubricVersions.rubricId, rubricAssessments.rubricId),
        eq(rubricVersions.version, rubricAssessments.rubricVersion),
      ),
    )
    .where(
      and(
        eq(rubricAssessments.tenantId, tenantId),
        eq(rubricAssessments.rubricId, rubricId),
        eq(rubricAssessments.id, assessmentId),
      ),
    );
  if (row === undefined) throw notFound();
  const learner = learnerOf(actor);
  if (learner === undefined) await assertCourseStaff(db, tenantId, actor, row.courseId);
  else if (row.userId !== learner) throw notFound();
  return { ...row, criteria: row.criteria as CriterionRecord[] } as AssessmentRecord;
}
