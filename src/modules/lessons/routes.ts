import { Type } from "typebox";
import { signedIn, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { readerOf } from "../courses/audience.js";
import {
  CreateLessonBody,
  Lesson,
  LessonList,
  LessonOrderBody,
  LessonPage,
  ListLessonsQuery,
  MoveLessonBody,
  UpdateLessonBody,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["lessons"];
const read = signedIn("courses:read");
const write = staff("courses:write");

export function lessonRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/modules/:id/lessons",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a module's lessons",
        description:
          "In position order unless `sort` says otherwise. Filter by `status` and `type`. A student's session sees " +
          "the published lessons of a published module of a published course it is enrolled in (active or " +
          "completed); other modules are 404 to it. " +
          cappedTotalNote("unfiltered and with `status` or `type` alone"),
        params: IdParams,
        querystring: ListLessonsQuery,
        response: { 200: LessonPage },
      },
    },
    (request) =>
      service.listLessons(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.query,
        readerOf(principalOf(request)),
      ),
  );

  app.post(
    "/api/institution/modules/:id/lessons",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a lesson",
        description:
          "`content` is checked against `type` (text `{bodyHtml}`; video, audio, pdf, file `{url}` or `{mediaId}`; " +
          "embed `{url}`; quiz and assignment `{}` or `{instructions}`; URLs must be https). Without `position` " +
          "the lesson goes last; at a position, the following lessons move down. `dueAt` may not precede " +
          "`unlockAt`.",
        params: IdParams,
        body: CreateLessonBody,
        response: { 201: Lesson },
      },
    },
    async (request, reply) => {
      const lesson = await service.createLesson(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.body,
      );
      reply.code(201);
      return lesson;
    },
  );

  app.put(
    "/api/institution/modules/:id/lessons/order",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Reorder a module's lessons",
        description:
          "`lessonIds` must list every lesson of the module exactly once (400 otherwise); positions become 1..n " +
          "in that order. Answers the module's lessons in their new order.",
        params: IdParams,
        body: LessonOrderBody,
        response: { 200: LessonList },
      },
    },
    (request) =>
      service.reorderLessons(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.get(
    "/api/institution/lessons/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a lesson",
        description:
          "One lesson with its content and completion criteria. To a student's session, only a published lesson " +
          "of a published module and course it is enrolled in (active or completed) exists.",
        params: IdParams,
        response: { 200: Lesson },
      },
    },
    (request) =>
      service.getLesson(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        readerOf(principalOf(request)),
      ),
  );

  app.patch(
    "/api/institution/lessons/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a lesson",
        description:
          "`type` cannot change (create a new lesson instead). A new `position` moves the lesson inside its " +
          "module and renumbers the others 1..n. `content` and `completionCriteria` are checked against the " +
          "lesson's type.",
        params: IdParams,
        body: UpdateLessonBody,
        response: { 200: Lesson },
      },
    },
    (request) => service.updateLesson(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    "/api/institution/lessons/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Delete a lesson",
        description: "Deletes the lesson with its completions; the following lessons move up.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteLesson(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );

  app.post(
    "/api/institution/lessons/:id/move",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Move a lesson to another module",
        description:
          "`moduleId` must be a module of the same course (400 otherwise). The lesson goes to `position` there " +
          "(default last); both modules stay numbered 1..n, and the lesson's completions move with it.",
        params: IdParams,
        body: MoveLessonBody,
        response: { 200: Lesson },
      },
    },
    (request) => service.moveLesson(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );
}
