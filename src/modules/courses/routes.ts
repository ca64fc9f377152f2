import { Type } from "typebox";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { Course, CoursePage, CreateCourseBody, ListCoursesQuery, UpdateCourseBody } from "./schemas.js";
import * as service from "./service.js";

const tags = ["courses"];
const read = { kind: "authenticated", auth: ["key", "session"], scope: "courses:read" } as const;
const write = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "courses:write",
  roles: ["teacher", "institution_admin"],
} as const;

export function courseRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/courses",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List courses",
        description: "Newest first. `search` matches title and description, ignoring case and accents.",
        querystring: ListCoursesQuery,
        response: { 200: CoursePage },
      },
    },
    (request) => service.listCourses(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/courses",
    {
      config: { access: write },
      schema: { tags, summary: "Create a course", body: CreateCourseBody, response: { 201: Course } },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createCourse(db, tenantOf(request).id, request.body);
    },
  );

  app.get(
    "/api/institution/courses/:id",
    {
      config: { access: read },
      schema: { tags, summary: "Get a course", params: IdParams, response: { 200: Course } },
    },
    (request) => service.getCourse(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/courses/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a course",
        params: IdParams,
        body: UpdateCourseBody,
        response: { 200: Course },
      },
    },
    (request) => service.updateCourse(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    "/api/institution/courses/:id",
    {
      config: { access: write },
      schema: { tags, summary: "Delete a course", params: IdParams, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await service.deleteCourse(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );
}
