import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { CreateUserBody, ListUsersQuery, UpdateUserBody, User, UserPage } from "./schemas.js";
import * as service from "./service.js";

const tags = ["users"];
const read = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "users:read",
  roles: ["teacher", "institution_admin"],
} as const;
const write = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "users:write",
  roles: ["institution_admin"],
} as const;

export function userRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;
  const plans = ctx.config.plans;

  app.get(
    "/api/institution/users",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List users",
        description:
          "Newest first. Filter by `role`; `search` matches name and e-mail, ignoring case and accents.",
        querystring: ListUsersQuery,
        response: { 200: UserPage },
      },
    },
    (request) => service.listUsers(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/users",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a user",
        description:
          "A `student` counts against the plan's student limit: 422 `student_limit_reached` when it is reached, " +
          "503 `student_limit_unverifiable` when it cannot be checked; nothing is created in either case. " +
          "Creating an `institution_admin` needs an administrator's session.",
        body: CreateUserBody,
        response: { 201: User },
      },
    },
    async (request, reply) => {
      const user = await service.createUser(
        db,
        plans,
        tenantOf(request).id,
        principalOf(request),
        request.body,
      );
      reply.code(201);
      return user;
    },
  );

  app.get(
    "/api/institution/users/:id",
    {
      config: { access: read },
      schema: { tags, summary: "Get a user", params: IdParams, response: { 200: User } },
    },
    (request) => service.getUser(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/users/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a user",
        params: IdParams,
        body: UpdateUserBody,
        response: { 200: User },
      },
    },
    (request) =>
      service.updateUser(
        db,
        plans,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.delete(
    "/api/institution/users/:id",
    {
      config: { access: write },
      schema: { tags, summary: "Delete a user", params: IdParams, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await service.deleteUser(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
      );
      reply.code(204).send(null);
    },
  );
}
