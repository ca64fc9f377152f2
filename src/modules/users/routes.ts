import { Type } from "typebox";
import { admins, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { renderItemErrors, summarise } from "../../platform/http/bulk.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { TOTAL_CAP } from "../../platform/pagination/capped.js";
import { mailDepsOf } from "../email/service.js";
import {
  BulkCreateUsersBody,
  BulkCreateUsersResponse,
  CreatedUser,
  CreateUserBody,
  ListUsersQuery,
  MAX_BULK_USERS,
  UpdateUserBody,
  User,
  UserPage,
} from "./schemas.js";

/** How a user created here first signs in (the answer's `signIn`, see its schema). */
const signInOf = (invited: boolean) =>
  invited
    ? ({ method: "invitation", via: "POST /api/invites/accept" } as const)
    : ({ method: "password_reset", via: "POST /api/auth/password-reset" } as const);

import * as service from "./service.js";

const tags = ["users"];
const read = staff("users:read");
const write = admins("users:write");

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
          "Newest first unless `sort` says otherwise. Filter by `role`, `status`, `classGroupId` (members of the " +
          "class), `tag` (a tag id), `email` (exact, ignoring case) and `createdSince`; `search` matches name and " +
          "e-mail, ignoring case and accents; `profile.<key>=value` (up to three) keeps users whose custom profile " +
          "field `<key>` holds that value (compared as stored: trimmed, ignoring case; for a multiselect field, " +
          "one of its choices), 400 for a key that is not an active field. Filters combine with AND. " +
          "`pagination.total` is exact unfiltered and with `role`, `classGroupId` or one `profile.<key>` of a " +
          "single-valued field alone; other filters, `search` and combinations count their matches exactly up to " +
          `${TOTAL_CAP}, beyond which it is a lower bound (\`totalRelation: "gte"\`).`,
        querystring: ListUsersQuery,
        response: { 200: UserPage },
      },
    },
    (request) => service.listUsers(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/users",
    {
      config: { access: write, errors: [422, 503] },
      schema: {
        tags,
        summary: "Create a user",
        description:
          "A `student` counts against the plan's student limit: 422 `student_limit_reached` when it is reached " +
          "(its message names the plan, the limit and the billing route that raises it; `details` name the " +
          "`plan` and the `limit`), 503 `student_limit_unverifiable` when it cannot be checked; nothing is " +
          "created in either case. " +
          "Creating an `institution_admin` needs an administrator's session. The answer's `signIn` says how " +
          "the user will first sign in: through the invitation mailed now (`sendInvite: true`), or, without " +
          "it, by asking for a password reset with their e-mail (`POST /api/auth/password-reset`), since the " +
          "account has no password yet.",
        body: CreateUserBody,
        response: { 201: CreatedUser },
      },
    },
    async (request, reply) => {
      const user = await service.createUser(
        db,
        plans,
        tenantOf(request).id,
        principalOf(request),
        request.body,
        { mail: mailDepsOf(ctx.config, publicOrigin(request)) },
      );
      reply.code(201);
      return { ...user, signIn: signInOf(request.body.sendInvite === true) };
    },
  );

  app.post(
    "/api/institution/users/bulk",
    {
      config: { access: write, errors: [503] },
      schema: {
        tags,
        summary: "Create users in bulk",
        description:
          `Creates up to ${MAX_BULK_USERS} users and answers 200 with one result per item, in order: \`created\` ` +
          "(with the user), `skipped` with `reason: email_taken` (the e-mail belongs to a user, or to an earlier " +
          "item of the batch), or `failed` with the error envelope the item would have had alone: `forbidden` " +
          "(an `institution_admin` without an administrator's session), `validation_failed` (an unknown class " +
          "group), `conflict` (a full class) or `student_limit_reached` (the students past the seats the plan " +
          "has left, in item order). Each item is created whole or not at all. When the student limit cannot " +
          "be verified the whole call is 503 `student_limit_unverifiable` and nothing is created. Emits " +
          "`user_created` per user and `class_member_added` per membership.",
        body: BulkCreateUsersBody,
        response: { 200: BulkCreateUsersResponse },
      },
    },
    async (request) => {
      const results = await service.bulkCreateUsers(
        db,
        plans,
        tenantOf(request).id,
        principalOf(request),
        request.body,
      );
      return { results: renderItemErrors(request, results), summary: summarise(results) };
    },
  );

  app.get(
    "/api/institution/users/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a user",
        description: "`classGroupIds` lists the classes the user is a member of.",
        params: IdParams,
        response: { 200: User },
      },
    },
    (request) => service.getUser(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/users/:id",
    {
      config: { access: write, errors: [409, 422, 503] },
      schema: {
        tags,
        summary: "Update a user",
        description:
          "Changes only the fields given; `classGroupIds` replaces the user's classes. Emits `user_updated` with " +
          "`changedFields` when something really changed (and `class_member_added` / `class_member_removed`).",
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
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Delete a user",
        description:
          "Removes the user and their memberships. The last active administrator cannot be removed.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
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
