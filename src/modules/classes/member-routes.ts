import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { renderItemErrors, summarise } from "../../platform/http/bulk.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { read, tags, write } from "./access.js";
import {
  AddMembersBody,
  AddMembersResponse,
  ClassMemberPage,
  ListMembersQuery,
  MAX_MEMBERS_PER_REQUEST,
  MemberParams,
} from "./member-schemas.js";
import * as service from "./service.js";

export function memberRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/classes/:id/members",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a class's members",
        description:
          "Most recently joined first unless `sort` says otherwise. Filter by the member `role`. " +
          '`pagination.total` is exact, with or without `role` (`totalRelation` is always `"eq"` here).',
        params: IdParams,
        querystring: ListMembersQuery,
        response: { 200: ClassMemberPage },
      },
    },
    (request) => service.listMembers(db, tenantOf(request).id, requireUuid(request.params.id), request.query),
  );

  app.post(
    "/api/institution/classes/:id/members",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Add members to a class",
        description:
          `Adds up to ${MAX_MEMBERS_PER_REQUEST} users with one \`role\` (default \`student\`) and answers 200 ` +
          "with one result per item, in order: `created` (with the member), `skipped` with `reason: " +
          "already_member`, or `failed` with the error envelope the item would have had alone (an unknown user " +
          "is `validation_failed`; an item past the class's capacity is `conflict`). Each added member emits " +
          "`class_member_added`.",
        params: IdParams,
        body: AddMembersBody,
        response: { 200: AddMembersResponse },
      },
    },
    async (request) => {
      const results = await service.addMembers(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      );
      return { results: renderItemErrors(request, results), summary: summarise(results) };
    },
  );

  app.delete(
    "/api/institution/classes/:id/members/:userId",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Remove a member from a class",
        description: "Emits `class_member_removed`. A user who is not a member is 404.",
        params: MemberParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.removeMember(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        requireUuid(request.params.userId),
      );
      reply.code(204).send(null);
    },
  );
}
