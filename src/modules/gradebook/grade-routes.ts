import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { renderItemErrors } from "../../platform/http/bulk.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { BASE, LEARNER_RULE, read, TEACHER_RULE, tags, write } from "./access.js";
import { COURSE_GRADE_RULE } from "./compute.js";
import {
  BulkGradesBody,
  BulkGradesResponse,
  EXTRA_CREDIT,
  Grade,
  GradePage,
  GradeParams,
  ListGradesQuery,
  MAX_BULK_GRADES,
  PostGradesBody,
  PostGradesResponse,
  PutGradeBody,
} from "./grade-schemas.js";
import { bulkGrades, listGrades, postGrades, putGrade } from "./grades.js";

const WRITE_RULE =
  `A score and an override are 0 to maxPoints × ${EXTRA_CREDIT} (400 beyond). On an item whose \`postPolicy\` is ` +
  "`automatic` a grade is posted (visible to the student) as soon as its status is not `pending`; on a `manual` " +
  "one it stays hidden until `POST /courses/:id/grades/post`. Every change of score, override, status or posting " +
  "is logged (`GET /courses/:id/grade-changes`) and the student's course grade is recomputed in the same " +
  "transaction. Emits `grade_posted` when a grade becomes visible, `grade_updated` when a visible grade " +
  "changes, `course_grade_changed` when the course grade the student sees changes. Source: `manual` from a " +
  "session, `import` from an API key.";

export function gradeRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    `${BASE}/grade-items/:id/grades`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List an item's grades",
        description:
          "Oldest first; `pagination.total` is exact (the item's counter). `percent` and `letter` come from the " +
          `effective score and the institution's grading scale. ${TEACHER_RULE} ${LEARNER_RULE}`,
        params: IdParams,
        querystring: ListGradesQuery,
        response: { 200: GradePage },
      },
    },
    (request) =>
      listGrades(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.query,
      ),
  );

  app.put(
    `${BASE}/grade-items/:id/grades/:userId`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Set a student's grade on an item",
        description:
          "Creates (201) or updates (200) the grade; fields left out keep their value. The user must hold a " +
          "current (not dropped) student enrollment in the item's course: any other user, like an unknown one, is " +
          `404 \`not_found\` (the grade has no address). ${WRITE_RULE} ${TEACHER_RULE}`,
        params: GradeParams,
        body: PutGradeBody,
        response: { 200: Grade, 201: Grade },
      },
    },
    async (request, reply) => {
      const { created, grade } = await putGrade(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        requireUuid(request.params.userId),
        request.body,
      );
      reply.code(created ? 201 : 200);
      return grade;
    },
  );

  app.post(
    `${BASE}/courses/:id/grades/bulk`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Set many grades of a course at once",
        description:
          `Up to ${MAX_BULK_GRADES} items (400 beyond, before anything is done), each \`{gradeItemId, userId}\` with ` +
          "a `score`, an `overrideScore` or a `status` (and optional `feedback`). Answers 200 with one result per " +
          "item: `created`, `updated` or `unchanged` with the grade, or `failed` with the envelope a PUT would give " +
          "(`validation_failed` naming `gradeItemId` when it is not an item of this course, `userId` when the user " +
          "is not a current student of it or the pair was named before in the request). One transaction and a " +
          `fixed number of statements for the whole batch. ${WRITE_RULE} ${TEACHER_RULE}`,
        params: IdParams,
        body: BulkGradesBody,
        response: { 200: BulkGradesResponse },
      },
    },
    async (request) => {
      const results = await bulkGrades(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body.items,
      );
      const summary = { total: results.length, created: 0, updated: 0, unchanged: 0, failed: 0 };
      for (const r of results) summary[r.status]++;
      return { results: renderItemErrors(request, results), summary };
    },
  );

  app.post(
    `${BASE}/courses/:id/grades/post`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Post the hidden grades of items",
        description:
          "Makes every hidden grade of these items visible to its student (400 naming an id that is not an item " +
          "of the course). Emits `grade_posted` per grade with a score, and `course_grade_changed` where the " +
          `course grade the student sees moves. ${COURSE_GRADE_RULE} ${TEACHER_RULE}`,
        params: IdParams,
        body: PostGradesBody,
        response: { 200: PostGradesResponse },
      },
    },
    (request) =>
      postGrades(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );
}
