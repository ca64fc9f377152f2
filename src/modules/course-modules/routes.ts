import { Type } from "typebox";
import { signedIn, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { readerOf } from "../courses/audience.js";
import {
  CourseModule,
  CreateModuleBody,
  ListModulesQuery,
  ModuleList,
  ModuleOrderBody,
  ModulePage,
  UpdateModuleBody,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["modules"];
const read = signedIn("courses:read");
const write = staff("courses:write");

const PREREQUISITES =
  "`prerequisiteModuleIds` must name modules of the same course at a lower position (400 otherwise).";

export function courseModuleRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/courses/:id/modules",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a course's modules",
        description:
          "In position order unless `sort` says otherwise; filter by `status`. `lessonCount` counts every lesson (a student's session: the published ones). " +
          "A student's session sees the published modules of the published courses it is enrolled in (active or " +
          "completed); other courses are 404 to it. " +
          '`pagination.total` is exact, with or without `status` (`totalRelation` is always `"eq"` here).',
        params: IdParams,
        querystring: ListModulesQuery,
        response: { 200: ModulePage },
      },
    },
    (request) =>
      service.listModules(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.query,
        readerOf(principalOf(request)),
      ),
  );

  app.post(
    "/api/institution/courses/:id/modules",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a module",
        description: `Without \`position\` the module goes last; at a position, the following modules move down. ${PREREQUISITES}`,
        params: IdParams,
        body: CreateModuleBody,
        response: { 201: CourseModule },
      },
    },
    async (request, reply) => {
      const module = await service.createModule(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.body,
      );
      reply.code(201);
      return module;
    },
  );

  app.put(
    "/api/institution/courses/:id/modules/order",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Reorder a course's modules",
        description:
          "`moduleIds` must list every module of the course exactly once; positions become 1..n in that order. " +
          "An order placing a module before one of its prerequisites is refused (400). Answers the modules in " +
          "their new order.",
        params: IdParams,
        body: ModuleOrderBody,
        response: { 200: ModuleList },
      },
    },
    (request) =>
      service.reorderModules(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.get(
    "/api/institution/modules/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a module",
        description:
          "One module of a course, with its lesson count. To a student's session, only a published module of a " +
          "published course it is enrolled in (active or completed) exists.",
        params: IdParams,
        response: { 200: CourseModule },
      },
    },
    (request) =>
      service.getModule(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        readerOf(principalOf(request)),
      ),
  );

  app.patch(
    "/api/institution/modules/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a module",
        description: `A new \`position\` moves the module and renumbers the course's modules 1..n; a move that would put a module before one of its prerequisites is refused. ${PREREQUISITES}`,
        params: IdParams,
        body: UpdateModuleBody,
        response: { 200: CourseModule },
      },
    },
    (request) => service.updateModule(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    "/api/institution/modules/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Delete a module",
        description:
          "Deletes the module with its lessons and their completions; the following modules move up and no " +
          "module keeps it as a prerequisite.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteModule(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );
}
