import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { readerOf } from "../courses/audience.js";
import { assignmentRead, assignmentWrite, BASE, TEACHER_RULE, tags } from "./access.js";
import {
  Assignment,
  CreateAssignmentBody,
  Extension,
  ExtensionParams,
  PutExtensionBody,
  UpdateAssignmentBody,
} from "./schemas.js";
import * as service from "./service.js";
import { submissionRoutes } from "./submission-routes.js";
import { LessonParams } from "./submission-schemas.js";

const ForceQuery = Type.Object(
  { force: Type.Optional(Type.Boolean({ description: "Delete the submissions too." })) },
  { additionalProperties: false },
);

export function assignmentRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.post(
    `${BASE}/assignments`,
    {
      config: { access: assignmentWrite, errors: [409] },
      schema: {
        tags,
        summary: "Create an assignment's settings",
        description:
          "The settings of a lesson of type `assignment` (400 otherwise); one per lesson (409 `conflict`). " +
          "Defaults: `allowedKinds: [text]`, unlimited attempts, 100 points, no late deduction. To feed the " +
          "gradebook, create a grade item with `sourceType: assignment` and `sourceId` this assignment's id. " +
          TEACHER_RULE,
        body: CreateAssignmentBody,
        response: { 201: Assignment },
      },
    },
    async (request, reply) => {
      const assignment = await service.createAssignment(
        db,
        tenantOf(request).id,
        principalOf(request),
        request.body,
      );
      reply.code(201);
      return assignment;
    },
  );

  app.get(
    `${BASE}/assignments/:id`,
    {
      config: { access: assignmentRead },
      schema: {
        tags,
        summary: "Get an assignment's settings",
        description: "A student's session reads the assignments of lessons it may read (404 otherwise).",
        params: IdParams,
        response: { 200: Assignment },
      },
    },
    (request) =>
      service.getAssignment(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        readerOf(principalOf(request)),
      ),
  );

  app.get(
    `${BASE}/lessons/:lessonId/assignment`,
    {
      config: { access: assignmentRead },
      schema: {
        tags,
        summary: "Get a lesson's assignment settings",
        description:
          "The same record as `GET /assignments/:id`, found by its lesson: 404 when the lesson has none. A " +
          "student's session reads those of lessons it may read.",
        params: LessonParams,
        response: { 200: Assignment },
      },
    },
    (request) =>
      service.getLessonAssignment(
        db,
        tenantOf(request).id,
        requireUuid(request.params.lessonId),
        readerOf(principalOf(request)),
      ),
  );

  app.patch(
    `${BASE}/assignments/:id`,
    {
      config: { access: assignmentWrite },
      schema: {
        tags,
        summary: "Update an assignment's settings",
        description:
          "Changes the settings given. A new `dueAt` is swept again for missing submissions once it passes; " +
          `submissions already made keep their lateness. ${TEACHER_RULE}`,
        params: IdParams,
        body: UpdateAssignmentBody,
        response: { 200: Assignment },
      },
    },
    (request) =>
      service.updateAssignment(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.delete(
    `${BASE}/assignments/:id`,
    {
      config: { access: assignmentWrite, errors: [409] },
      schema: {
        tags,
        summary: "Delete an assignment's settings",
        description: `409 \`conflict\` once anything was submitted, unless \`force=true\`. ${TEACHER_RULE}`,
        params: IdParams,
        querystring: ForceQuery,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteAssignment(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.query.force === true,
      );
      reply.code(204).send(null);
    },
  );

  app.put(
    `${BASE}/assignments/:id/extensions/:userId`,
    {
      config: { access: assignmentWrite },
      schema: {
        tags,
        summary: "Set a student's extension",
        description:
          "The student's own due date (and lock date; the assignment's when left out, never before the due " +
          "date): lateness and the missing sweep use it. Creates (201) or replaces (200). The user must hold a " +
          `current student enrollment in the course (404 otherwise). ${TEACHER_RULE}`,
        params: ExtensionParams,
        body: PutExtensionBody,
        response: { 200: Extension, 201: Extension },
      },
    },
    async (request, reply) => {
      const { extension, created } = await service.putExtension(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        requireUuid(request.params.userId),
        request.body,
      );
      reply.code(created ? 201 : 200);
      return extension;
    },
  );

  app.delete(
    `${BASE}/assignments/:id/extensions/:userId`,
    {
      config: { access: assignmentWrite },
      schema: {
        tags,
        summary: "Remove a student's extension",
        description:
          "The assignment's dates apply to the student again: when its due date has passed, the next missing " +
          `pass (within 5 minutes) marks them \`missing\` unless they have handed it in. ${TEACHER_RULE}`,
        params: ExtensionParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteExtension(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        requireUuid(request.params.userId),
      );
      reply.code(204).send(null);
    },
  );

  submissionRoutes(app, ctx);
}
