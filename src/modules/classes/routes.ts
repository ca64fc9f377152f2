import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { TOTAL_CAP } from "../../platform/pagination/capped.js";
import { read, tags, write } from "./access.js";
import { memberRoutes } from "./member-routes.js";
import { ClassGroup, ClassGroupPage, CreateClassBody, ListClassesQuery, UpdateClassBody } from "./schemas.js";
import * as service from "./service.js";

export function classRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/classes",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List classes",
        description:
          "Newest first unless `sort` says otherwise. Filter by `status`, by `courseId` (classes that follow the " +
          "course) and by `search`, which matches name and code ignoring case and accents. `pagination.total` " +
          "is exact unfiltered and with `status` or `courseId` alone; a search, or a course with `status`, counts its " +
          `matches exactly up to ${TOTAL_CAP}, beyond which it is a lower bound (\`totalRelation: "gte"\`).`,
        querystring: ListClassesQuery,
        response: { 200: ClassGroupPage },
      },
    },
    (request) => service.listClasses(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/classes",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a class",
        description:
          "A class (cohort) groups users, optionally around courses. `code` is unique in the institution (409 " +
          "`conflict`); every `courseIds` entry must name a course of the institution (400); `endsAt` must be " +
          "after `startsAt`.",
        body: CreateClassBody,
        response: { 201: ClassGroup },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createClass(db, tenantOf(request).id, request.body);
    },
  );

  app.get(
    "/api/institution/classes/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a class",
        description: "`memberCount` is exact.",
        params: IdParams,
        response: { 200: ClassGroup },
      },
    },
    (request) => service.getClass(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/classes/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Update a class",
        description:
          "Changes only the fields given. A `capacity` below the current number of members is 409 `conflict`.",
        params: IdParams,
        body: UpdateClassBody,
        response: { 200: ClassGroup },
      },
    },
    (request) => service.updateClass(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    "/api/institution/classes/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Delete a class",
        description:
          "Removes the class and its memberships. Enrollments made through the class stay, without a class.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteClass(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
      );
      reply.code(204).send(null);
    },
  );

  memberRoutes(app, ctx);
}
