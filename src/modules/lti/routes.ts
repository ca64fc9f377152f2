import { Type } from "typebox";
import { adminSessionOnly, admins } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import { requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { dynamicRoutes } from "./dynamic-routes.js";
import { currentKey, publishedKeys, rotateKey } from "./keys.js";
import { launchRoutes } from "./launch-routes.js";
import {
  CreateLtiToolBody,
  Jwks,
  KeyRotation,
  ListLtiToolsQuery,
  LtiTool,
  LtiToolPage,
  PlatformConfig,
  ToolIdParams,
  UpdateLtiToolBody,
} from "./schemas.js";
import { serviceRoutes } from "./service-routes.js";
import * as tools from "./tools.js";

const tags = ["lti-tools"];
const BASE = "/api/institution/lti-tools";
const read = admins("lti:read");
const write = admins("lti:write");
const adminSession = adminSessionOnly();

const KEYS_TEXT =
  "A tool's keys (`jwksUrl`, `publicJwk`) and the URLs launches and tokens are sent to (`oidcInitiationUrl`, " +
  "`targetLinkUri`, `redirectUris`) are credentials: only an administrator's session writes them (an API key " +
  "sending any of them is 403 `session_required`). `jwksUrl` is fetched through the outbound SSRF rule, so it " +
  "must be a public http(s) URL. One of `jwksUrl` and `publicJwk` is required.";

export async function ltiRoutes(app: App, ctx: AppContext): Promise<void> {
  const deps = (request: Parameters<typeof publicOrigin>[0]): tools.LtiDeps => ({
    ctx,
    origin: publicOrigin(request),
  });

  app.get(
    BASE,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List LTI tools",
        description: "Newest first; filter by `status`.",
        querystring: ListLtiToolsQuery,
        response: { 200: LtiToolPage },
      },
    },
    (request) => tools.listTools(deps(request), tenantOf(request).id, request.query),
  );

  app.post(
    BASE,
    {
      config: { access: adminSession },
      schema: {
        tags,
        summary: "Register an LTI 1.3 tool by hand",
        description:
          `An administrator's session only. The platform issues \`clientId\` and one deployment id. ${KEYS_TEXT} ` +
          "`platform` gives the values the tool's administrator enters on the tool's side.",
        body: CreateLtiToolBody,
        response: { 201: LtiTool },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return tools.createTool(deps(request), tenantOf(request).id, request.body);
    },
  );

  app.get(
    `${BASE}/platform-config`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "The platform's LTI configuration",
        description: "Issuer, OIDC authorization, token and JWKS URLs, on the host of this request.",
        response: { 200: PlatformConfig },
      },
    },
    (request) => tools.platformOf(publicOrigin(request)),
  );

  app.post(
    `${BASE}/platform-keys/rotations`,
    {
      config: { access: adminSession },
      schema: {
        tags,
        summary: "Rotate the platform's signing key",
        description:
          "An administrator's session only. A new RS256 key signs from now on; the previous one stays in the " +
          "JWKS until every launch and access token it signed has expired (one hour), then is removed.",
        response: { 201: KeyRotation },
      },
    },
    async (request, reply) => {
      const tenantId = tenantOf(request).id;
      // Rotating before any launch still leaves a previous key to retire: make the first one if needed.
      await currentKey(ctx.database.db, ctx.config, tenantId);
      reply.code(201);
      return rotateKey(ctx.database.db, ctx.config, tenantId);
    },
  );

  app.get(
    `${BASE}/:toolId`,
    {
      config: { access: read },
      schema: { tags, summary: "Get an LTI tool", params: ToolIdParams, response: { 200: LtiTool } },
    },
    (request) => tools.getTool(deps(request), tenantOf(request).id, requireUuid(request.params.toolId)),
  );

  app.patch(
    `${BASE}/:toolId`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update an LTI tool",
        description: `${KEYS_TEXT} \`status: disabled\` refuses new launches and tokens for the tool.`,
        params: ToolIdParams,
        body: UpdateLtiToolBody,
        response: { 200: LtiTool },
      },
    },
    (request) =>
      tools.updateTool(
        deps(request),
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.toolId),
        request.body,
      ),
  );

  app.delete(
    `${BASE}/:toolId`,
    {
      config: { access: adminSession },
      schema: {
        tags,
        summary: "Delete an LTI tool",
        description: "An administrator's session only. Its launches, tokens and line-item links go with it.",
        params: ToolIdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await tools.deleteTool(deps(request), tenantOf(request).id, requireUuid(request.params.toolId));
      reply.code(204).send(null);
    },
  );

  app.get(
    `${tools.LTI_PATH}/jwks`,
    {
      config: { access: { kind: "tenant" } },
      schema: {
        tags,
        summary: "The platform's public keys (JWKS)",
        description:
          "No credentials: tools verify launches with these. Includes a rotated key until it retires.",
        response: { 200: Jwks },
      },
    },
    async (request) => ({ keys: await publishedKeys(ctx.database.db, tenantOf(request).id) }),
  );

  launchRoutes(app, ctx);
  dynamicRoutes(app, ctx);
  await serviceRoutes(app, ctx);
}
