import { Type } from "typebox";
import { adminSessionOnly, admins } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { ApiKeyPage, CreateApiKeyBody, CreatedApiKey, ListApiKeysQuery } from "./schemas.js";
import * as service from "./service.js";

const tags = ["api-keys"];
const adminSession = adminSessionOnly();
/** Listing shows no secret: administrators, or keys with `settings:read`. */
const listKeys = admins("settings:read");

export function apiKeyRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.post(
    "/api/institution/api-keys",
    {
      config: { access: adminSession },
      schema: {
        tags,
        summary: "Create an API key",
        description:
          "The `secret` (`mia_` + 40 hex) is shown in this response only; only its SHA-256 is stored. " +
          "`scopes: []` grants every scope. `customLimits` is required for the `custom` tier and refused otherwise.",
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const userId = principal.kind === "session" ? principal.userId : null;
      const key = await service.createApiKey(db, tenantOf(request).id, userId, request.body);
      reply.code(201).header("cache-control", "no-store");
      return key;
    },
  );

  app.get(
    "/api/institution/api-keys",
    {
      config: {
        access: listKeys,
        openWhileInactive: true,
      },
      schema: {
        tags,
        summary: "List API keys",
        description: "Active keys, newest first, without secrets or hashes.",
        querystring: ListApiKeysQuery,
        response: { 200: ApiKeyPage },
      },
    },
    (request) => service.listApiKeys(db, tenantOf(request).id, request.query),
  );

  app.delete(
    "/api/institution/api-keys/:id",
    {
      config: { access: adminSession },
      schema: { tags, summary: "Revoke an API key", params: IdParams, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      const id = requireUuid(request.params.id);
      await service.revokeApiKey(db, tenantOf(request).id, id);
      // This process refuses the key before this answer leaves; the others as soon as they hear the broadcast.
      await ctx.apiKeys.revoked(id);
      reply.code(204).send(null);
    },
  );
}
