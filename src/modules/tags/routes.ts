import { Type } from "typebox";
import { signedIn, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { TOTAL_CAP } from "../../platform/pagination/capped.js";
import * as assignments from "./assignments.js";
import {
  AssignmentPage,
  AttachBody,
  Attached,
  CreateTagBody,
  ListAssignmentsQuery,
  ListTagsQuery,
  RemoveBody,
  Removed,
  Tag,
  TagPage,
  UpdateTagBody,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["tags"];
const read = signedIn("tags:read");
/**
 * A tag's resources name users, questions and draft courses: staff material, not a learner's (a student's
 * session reads tags, but not what they are attached to).
 */
const readResources = staff("tags:read");
const write = staff("tags:write");

export function tagRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/tags",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List tags",
        description:
          "Newest first unless `sort` says otherwise. `appliesTo` keeps the tags that may go on that type; " +
          "`search` matches the name, ignoring case and accents. `pagination.total` is exact unfiltered; a " +
          `filter or search counts its matches exactly up to ${TOTAL_CAP}, beyond which it is a lower bound ` +
          '(`totalRelation: "gte"`).',
        querystring: ListTagsQuery,
        response: { 200: TagPage },
      },
    },
    (request) => service.listTags(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/tags",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a tag",
        description:
          "The slug is derived from the name. A name already used in the institution, ignoring case, is 409 " +
          "`conflict`.",
        body: CreateTagBody,
        response: { 201: Tag },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createTag(db, tenantOf(request).id, request.body);
    },
  );

  app.get(
    "/api/institution/tags/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a tag",
        description: "With `usageCount`, the number of resources it is attached to.",
        params: IdParams,
        response: { 200: Tag },
      },
    },
    (request) => service.getTag(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/tags/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Update a tag",
        description:
          "Renaming re-derives the slug. Removing a type from `appliesTo` while the tag is still on resources " +
          "of that type is 409 `conflict`: detach them first.",
        params: IdParams,
        body: UpdateTagBody,
        response: { 200: Tag },
      },
    },
    (request) => service.updateTag(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    "/api/institution/tags/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Delete a tag",
        description:
          "Detaches it from every resource. No `user_tag_removed` events are emitted for a deleted tag.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteTag(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );

  app.get(
    "/api/institution/tags/:id/resources",
    {
      config: { access: readResources },
      schema: {
        tags,
        summary: "List a tag's resources",
        description:
          "The resources the tag is attached to, most recently attached first; filter by `resourceType`. " +
          '`pagination.total` is exact, with or without `resourceType` (`totalRelation` is always `"eq"` here).',
        params: IdParams,
        querystring: ListAssignmentsQuery,
        response: { 200: AssignmentPage },
      },
    },
    (request) =>
      assignments.listAssignments(db, tenantOf(request).id, requireUuid(request.params.id), request.query),
  );

  app.post(
    "/api/institution/tags/:id/resources",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Attach a tag to resources",
        description:
          "Idempotent, in one transaction. `resourceType` must be in the tag's `appliesTo` (400 otherwise). " +
          "Ids with no such resource in this institution are listed in `notFound`; the others are attached. " +
          "Each user newly tagged emits `user_tag_added`.",
        params: IdParams,
        body: AttachBody,
        response: { 200: Attached },
      },
    },
    (request) =>
      assignments.attachTag(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.post(
    "/api/institution/tags/:id/resources/remove",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Detach a tag from resources",
        description:
          "In one transaction; ids the tag is not on are ignored. Each user untagged emits `user_tag_removed`.",
        params: IdParams,
        body: RemoveBody,
        response: { 200: Removed },
      },
    },
    (request) =>
      assignments.removeTag(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );
}
