import { Type } from "typebox";
import { adminSessionOnly, admins } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { createOutboundClient } from "../../platform/outbound/client.js";
import {
  CreateVideoProviderBody,
  ListVideoProvidersQuery,
  TestResult,
  UpdateVideoProviderBody,
  VideoProvider,
  VideoProviderPage,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["video-providers"];
const BASE = "/api/institution/video-providers";
const read = admins("settings:read");
const write = admins("settings:write");
const adminSession = adminSessionOnly();

const CREDENTIALS_TEXT =
  "Credentials by provider: `jitsi` none; `bigbluebutton` `sharedSecret` (and `settings.baseUrl`); `zoom` " +
  "`accountId`, `clientId`, `clientSecret` of a Server-to-Server OAuth app. Credentials are written by an " +
  "administrator's session only (an API key sending them is 403 `session_required`), stored encrypted, and " +
  "never returned: `credentialsFingerprint` tells two sets apart.";

/** The rule of providers/setting-roles.ts and credential-binding.ts, for integrators. */
const BINDING_TEXT =
  "A credential is bound to the endpoint it was entered for: on a connection that holds credentials, changing a " +
  "setting that decides where they are sent (`settings.baseUrl` of `bigbluebutton`; Jitsi has no credentials, " +
  "and Zoom's hosts are the platform's configuration, its account id a credential) needs an administrator's " +
  "session, like the credentials themselves: an API key doing it is 403 `session_required` and nothing changes. " +
  "Sending `settings` with the same endpoint (to change another setting) is open to keys.";

/**
 * The outbound client (SSRF-checked, no redirects) these routes and live classes call providers through.
 * One per app, closed with it.
 */
export function videoDeps(app: App, ctx: AppContext): () => service.VideoDeps {
  const client = createOutboundClient(ctx.config.outbound, { resolve: (name) => ctx.resolve(name) });
  app.addHook("onClose", () => client.destroy());
  return () => ({ ctx, db: ctx.database.db, config: ctx.config, client });
}

export function videoProviderRoutes(app: App, ctx: AppContext, deps: () => service.VideoDeps): void {
  const db = ctx.database.db;

  app.get(
    BASE,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List video provider connections",
        description: "Newest first unless `sort` says otherwise; filter by `purpose`, `provider`, `status`.",
        querystring: ListVideoProvidersQuery,
        response: { 200: VideoProviderPage },
      },
    },
    (request) => service.listProviders(db, tenantOf(request).id, request.query),
  );

  app.post(
    BASE,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Connect a video provider",
        description:
          `${CREDENTIALS_TEXT} \`isDefault: true\` makes it the purpose's default (live classes without a ` +
          "`videoProviderId` use it; with none, they use public Jitsi). A `baseUrl` that is not a public " +
          "http(s) URL is 400.",
        body: CreateVideoProviderBody,
        response: { 201: VideoProvider },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createProvider(deps(), tenantOf(request).id, principalOf(request), request.body);
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a video provider connection",
        params: IdParams,
        response: { 200: VideoProvider },
      },
    },
    (request) => service.getProvider(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    `${BASE}/:id`,
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Update a video provider connection",
        description:
          `${CREDENTIALS_TEXT} \`credentials\` and \`settings\` each replace the whole object. ` +
          "`status: disconnected` keeps the connection but stops new live classes from choosing it. " +
          BINDING_TEXT,
        params: IdParams,
        body: UpdateVideoProviderBody,
        response: { 200: VideoProvider },
      },
    },
    (request) =>
      service.updateProvider(
        deps(),
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: { access: adminSession, errors: [409] },
      schema: {
        tags,
        summary: "Delete a video provider connection",
        description: "An administrator's session only. 409 `conflict` while scheduled live classes use it.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteProvider(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );

  app.post(
    `${BASE}/:id/test`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Test a connection",
        description:
          "Calls the provider with the stored credentials (Jitsi: its home page; BigBlueButton: `getMeetings`, " +
          "signed; Zoom: an OAuth token, then `GET /users/me`) and records the outcome as `status`, " +
          "`lastCheckedAt` and `lastError`. 200 whether or not the check passed: `ok` says which.",
        params: IdParams,
        response: { 200: TestResult },
      },
    },
    (request) => service.testProvider(deps(), tenantOf(request).id, requireUuid(request.params.id)),
  );
}
