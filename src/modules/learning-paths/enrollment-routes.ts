import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { renderItemErrors, summarise } from "../../platform/http/bulk.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { enrollmentsRead, enrollmentsWrite } from "./access.js";
import { enrollInPath, listPathEnrollments, unenrollFromPath } from "./enroll.js";
import {
  EnrollInPathBody,
  EnrollInPathResponse,
  ListPathEnrollmentsQuery,
  MAX_PATH_ENROLL_USERS,
  PathEnrollmentPage,
  PathUserParams,
} from "./enrollment-schemas.js";

const tags = ["learning-paths"];

export function pathEnrollmentRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.post(
    "/api/institution/learning-paths/:id/enrollments",
    {
      config: { access: enrollmentsWrite, errors: [503] },
      schema: {
        tags,
        summary: "Enroll users in a learning path",
        description:
          `Up to ${MAX_PATH_ENROLL_USERS} users, each enrolled in the path and, as a student, in every course of ` +
          "it, in one transaction. Answers 200 with one result per user: `created` (with the path enrollment and " +
          "how many course enrollments were made), `skipped` with `reason: already_enrolled` (in the path " +
          "already, or named earlier in the request; its missing course enrollments are still made), or " +
          "`failed` with the error envelope (an unknown user; a non-student past the plan's student limit, " +
          "`student_limit_reached`, who gets nothing). Course enrollments a user already holds are left as they " +
          "are. Emits `enrollment_created` per course enrollment made, `learning_path_enrolled` per user " +
          "enrolled, and `learning_path_completed` for a user whose completed courses already complete the path. " +
          "Needs `enrollments:write`, as `POST /enrollments/bulk` does.",
        params: IdParams,
        body: EnrollInPathBody,
        response: { 200: EnrollInPathResponse },
      },
    },
    async (request) => {
      const results = await enrollInPath(
        db,
        ctx.config.plans,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body.userIds,
      );
      return { results: renderItemErrors(request, results), summary: summarise(results) };
    },
  );

  app.get(
    "/api/institution/learning-paths/:id/enrollments",
    {
      config: { access: enrollmentsRead },
      schema: {
        tags,
        summary: "List a learning path's enrollments",
        description:
          "Newest first unless `sort=enrolledAt`; `status` narrows to `active` or `completed`. Each user's " +
          "progress (`requiredCompleted` of `requiredTotal`) is kept as course enrollments complete, not counted " +
          "per page; `pagination.total` is exact (a counter).",
        params: IdParams,
        querystring: ListPathEnrollmentsQuery,
        response: { 200: PathEnrollmentPage },
      },
    },
    (request) => listPathEnrollments(db, tenantOf(request).id, requireUuid(request.params.id), request.query),
  );

  app.delete(
    "/api/institution/learning-paths/:id/enrollments/:userId",
    {
      config: { access: enrollmentsWrite },
      schema: {
        tags,
        summary: "Remove a user from a learning path",
        description:
          "Removes the user's path enrollment only (404 when there is none): the course enrollments stay as they " +
          "are; drop them through `/enrollments` if wanted.",
        params: PathUserParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await unenrollFromPath(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        requireUuid(request.params.userId),
      );
      reply.code(204).send(null);
    },
  );
}
