import { Type } from "typebox";
import { signedIn, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import {
  Course,
  CourseOutline,
  CoursePage,
  CreateCourseBody,
  DeleteCourseQuery,
  DuplicateCourseBody,
  ListCoursesQuery,
  UpdateCourseBody,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["courses"];
const LEARNER_NOTE =
  "A student's session sees only the published courses it holds an active or completed enrollment of (other " +
  "courses are 404 to it), and only their published modules and lessons.";
const read = signedIn("courses:read");
const write = staff("courses:write");

export function courseRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/courses",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List courses",
        description:
          "Newest first unless `sort` says otherwise (ties broken by id). `search` matches title and description, " +
          "ignoring case and accents; `status` and `tag` (a tag id) narrow the list. " +
          cappedTotalNote("unfiltered and with `status` alone") +
          ` ${LEARNER_NOTE}`,
        querystring: ListCoursesQuery,
        response: { 200: CoursePage },
      },
    },
    (request) =>
      service.listCourses(db, tenantOf(request).id, request.query, service.readerOf(principalOf(request))),
  );

  app.post(
    "/api/institution/courses",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a course",
        description: "Emits `course_created`.",
        body: CreateCourseBody,
        response: { 201: Course },
      },
    },
    async (request, reply) => {
      const course = await service.createCourse(db, tenantOf(request).id, request.body, principalOf(request));
      reply.code(201);
      return course;
    },
  );

  app.get(
    "/api/institution/courses/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a course",
        description: `One course of this institution. ${LEARNER_NOTE}`,
        params: IdParams,
        response: { 200: Course },
      },
    },
    (request) =>
      service.getCourse(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        service.readerOf(principalOf(request)),
      ),
  );

  app.patch(
    "/api/institution/courses/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a course",
        description:
          "A change of `status` to `published` or `archived` emits `course_published` or `course_archived`.",
        params: IdParams,
        body: UpdateCourseBody,
        response: { 200: Course },
      },
    },
    (request) =>
      service.updateCourse(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.body,
        principalOf(request),
      ),
  );

  app.delete(
    "/api/institution/courses/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Delete a course",
        description:
          "Deletes the course with its modules, lessons, enrollments and completions, and emits `course_deleted`. " +
          "A course with enrollments that are not `dropped` is refused with 409 `conflict` unless `force=true`.",
        params: IdParams,
        querystring: DeleteCourseQuery,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteCourse(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        { force: request.query.force },
        principalOf(request),
      );
      reply.code(204).send(null);
    },
  );

  for (const [action, status] of [
    ["publish", "published"],
    ["archive", "archived"],
  ] as const) {
    app.post(
      `/api/institution/courses/:id/${action}`,
      {
        config: { access: write },
        schema: {
          tags,
          summary: `${action === "publish" ? "Publish" : "Archive"} a course`,
          description:
            `Sets \`status\` to \`${status}\` and emits \`course_${status}\`. Idempotent: a course already ` +
            `${status} is answered as it is and emits nothing.`,
          params: IdParams,
          response: { 200: Course },
        },
      },
      (request) =>
        service.setCourseStatus(
          db,
          tenantOf(request).id,
          requireUuid(request.params.id),
          status,
          principalOf(request),
        ),
    );
  }

  app.post(
    "/api/institution/courses/:id/duplicate",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Duplicate a course",
        description:
          'A new draft course (title default "<title> (copy)") with copies of the modules, lessons and quiz ' +
          "settings, prerequisites pointing at the copied modules; enrollments and completions are not copied. " +
          "Emits `course_created`.",
        params: IdParams,
        body: DuplicateCourseBody,
        response: { 201: Course },
      },
      // Every field is optional, so a request without a body means "all defaults" rather than a 400.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const course = await service.duplicateCourse(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.body,
        principalOf(request),
      );
      reply.code(201);
      return course;
    },
  );

  app.get(
    "/api/institution/courses/:id/outline",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a course's outline",
        description: `The course with its modules in position order, each with its lessons in position order. ${LEARNER_NOTE}`,
        params: IdParams,
        response: { 200: CourseOutline },
      },
    },
    (request) =>
      service.getOutline(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        service.readerOf(principalOf(request)),
      ),
  );
}
