import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { BASE, learnerRead, learnerWrite, read, tags } from "./access.js";
import {
  Assessment,
  AssessmentPage,
  AssessmentParams,
  CreateAssessmentBody,
  ListAssessmentsQuery,
} from "./assessment-schemas.js";
import { createAssessment, getAssessment, listAssessments } from "./assessments.js";

export function assessmentRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.post(
    `${BASE}/rubrics/:id/assessments`,
    {
      config: { access: learnerWrite, errors: [409] },
      schema: {
        tags,
        summary: "Assess work with a rubric",
        description:
          "Records an assessment with the rubric's current version: one score per criterion, whose `points` are " +
          "the chosen rating's (or any rating's, which is then chosen), within the rating's range when the " +
          "criterion has `useRange` (above the next lower rating's points, up to its own), or anywhere from 0 " +
          "to the criterion's points when the rubric has `freeFormComments`; a `comment` is always allowed. " +
          "`targetType` `quiz_attempt`: a submitted attempt of the institution (400 unknown, 409 in progress); " +
          "`submission`: a submission of the institution (400 unknown), graded by a `grading` assessment as " +
          "`PATCH /submissions/:id` grades it (score `totalPoints / pointsPossible ×` the assignment's points, " +
          "late policy applied, its grade item, `assignment_graded`; the submission's `rubricAssessmentId` is " +
          "set). A course rubric assesses work of " +
          "its course only (400). The assessed `userId` is the target's. A `grading` assessment of an attempt writes the " +
          "grade of every item of the target's course that names this rubric and takes no other source (or the " +
          "target's quiz): `totalPoints / pointsPossible × maxPoints`, as any grade (change log, course grade, " +
          "`grade_posted`/`grade_updated`, source `manual`), in the same transaction; `gradeItemIds` names them. " +
          "`peer_review` and `self` never write grades. 409 for an archived rubric. Teachers' sessions assess " +
          "work of the courses they teach only (403). A student's session records `self` assessments of its own " +
          "attempts and submissions only (400 for another type; another's attempt is an unknown `targetId`).",
        params: IdParams,
        body: CreateAssessmentBody,
        response: { 201: Assessment },
      },
    },
    async (request, reply) => {
      const assessment = await createAssessment(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      );
      reply.code(201);
      return assessment;
    },
  );

  app.get(
    `${BASE}/rubrics/:id/assessments`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a rubric's assessments",
        description:
          "Newest first, with every version's assessments (`rubricVersion` says which); `pagination.total` is " +
          "exact. A teacher's session lists those of a course rubric of a course it teaches (403 otherwise, " +
          "and for an institution rubric, whose assessments span courses: it reads them one by one).",
        params: IdParams,
        querystring: ListAssessmentsQuery,
        response: { 200: AssessmentPage },
      },
    },
    (request) =>
      listAssessments(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.query,
      ),
  );

  app.get(
    `${BASE}/rubrics/:id/assessments/:assessmentId`,
    {
      config: { access: learnerRead },
      schema: {
        tags,
        summary: "Get an assessment",
        description:
          "With the criteria and points possible of the version it was made with, whatever the rubric's current " +
          "version. A teacher's session reads those of the courses it teaches (403 otherwise); a student's session " +
          "the assessments of its own work (404 otherwise).",
        params: AssessmentParams,
        response: { 200: Assessment },
      },
    },
    (request) =>
      getAssessment(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        requireUuid(request.params.assessmentId),
      ),
  );
}
