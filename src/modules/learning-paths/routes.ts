import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { read, write } from "./access.js";
import { pathEnrollmentRoutes } from "./enrollment-routes.js";
import {
  CreatePathBody,
  DeletePathQuery,
  LearningPath,
  ListPathsQuery,
  PathPage,
  UpdatePathBody,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["learning-paths"];
const LEARNER_NOTE =
  "A student's session sees only the published paths it is enrolled in (others are 404 to it), each with its own " +
  "`progress` and, per course, `completed` and `locked`.";
const COURSES_NOTE =
  "`courses` holds 1 to 50 distinct courses of this institution (400 naming each unknown or repeated one), at " +
  "least one `required`; `position` defaults to the item's place in the list and must not repeat; " +
  "`prerequisites` name other courses of the same path, without cycles (400 `validation_failed`).";

export function learningPathRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/learning-paths",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List learning paths",
        description:
          "Newest first unless `sort` says otherwise (ties broken by id). `search` matches title and description, " +
          "ignoring case and accents; `status` narrows the list. `enrolledCount` is a counter, not a count. " +
          `${cappedTotalNote("unfiltered and with `status` alone")} ${LEARNER_NOTE}`,
        querystring: ListPathsQuery,
        response: { 200: PathPage },
      },
    },
    (request) =>
      service.listPaths(db, tenantOf(request).id, request.query, service.readerOf(principalOf(request))),
  );

  app.post(
    "/api/institution/learning-paths",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a learning path",
        description: COURSES_NOTE,
        body: CreatePathBody,
        response: { 201: LearningPath },
      },
    },
    async (request, reply) => {
      const path = await service.createPath(db, tenantOf(request).id, request.body);
      reply.code(201);
      return path;
    },
  );

  app.get(
    "/api/institution/learning-paths/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a learning path",
        description: `One path of this institution, its courses in position order. ${LEARNER_NOTE}`,
        params: IdParams,
        response: { 200: LearningPath },
      },
    },
    (request) =>
      service.getPath(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        service.readerOf(principalOf(request)),
      ),
  );

  app.patch(
    "/api/institution/learning-paths/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a learning path",
        description:
          `\`courses\`, when given, replaces the whole list. ${COURSES_NOTE} The progress of the users enrolled ` +
          "is counted again in the same transaction (which may complete the path for some: " +
          "`learning_path_completed`). Users already enrolled are not enrolled in courses added here: enrolling " +
          "them in the path again does that.",
        params: IdParams,
        body: UpdatePathBody,
        response: { 200: LearningPath },
      },
    },
    (request) =>
      service.updatePath(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.body,
        principalOf(request),
      ),
  );

  app.delete(
    "/api/institution/learning-paths/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Delete a learning path",
        description:
          "Deletes the path and its path enrollments; the course enrollments it made stay. A path users are " +
          "enrolled in is refused with 409 `conflict` unless `force=true`.",
        params: IdParams,
        querystring: DeletePathQuery,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deletePath(db, tenantOf(request).id, requireUuid(request.params.id), {
        force: request.query.force,
      });
      reply.code(204).send(null);
    },
  );

  pathEnrollmentRoutes(app, ctx);
}
