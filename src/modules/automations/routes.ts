import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { AppError } from "../../platform/errors/app-error.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { rateLimited, secondsUntil } from "../../platform/rate-limit/limiter.js";
import {
  adminSessionAccess as adminSession,
  readAccess as read,
  signingSecretRoutes,
  writeAccess as write,
} from "./access.js";
import { deliveryRoutes } from "./delivery-routes.js";
import { acceptInbound } from "./inbound.js";
import {
  Automation,
  AutomationPage,
  CreateAutomationBody,
  CreatedAutomation,
  InboundAccepted,
  InboundBody,
  InboundUrlResponse,
  ListAutomationsQuery,
  UpdateAutomationBody,
  UpdatedAutomation,
} from "./schemas.js";
import * as service from "./service.js";
import { TestRunBody, TestRunResult, testAutomation } from "./test-run.js";

const tags = ["automations"];

/** Inbound webhooks: what one URL may receive, and the largest body it takes (413 beyond). */
export const INBOUND_PER_MINUTE = 120;
export const INBOUND_BODY_LIMIT_BYTES = 256 * 1024;

/** Test sends per tenant per hour, for the same reason. */
export const TEST_SENDS_PER_HOUR = 30;

export function automationRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;
  const deps = () => service.automationDeps(ctx);
  // The inbound URL is on the host the caller used, which the pipeline resolved to this tenant.
  const baseOf = (request: FastifyRequest) => publicOrigin(request);

  app.post(
    "/api/institution/automations",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create an automation",
        description:
          "Trigger → condition → action. The answer carries `signingSecret` (read it again at " +
          "`…/signing-secret`) and, for a `webhook` trigger, `inboundUrl`, shown only here. A URL that is not " +
          "http(s), or whose host is or resolves to a private, loopback, link-local, metadata or otherwise " +
          "non-public address in any notation, is 400 with field `action.url`.",
        body: CreateAutomationBody,
        response: { 201: CreatedAutomation },
      },
    },
    async (request, reply) => {
      const created = await service.createAutomation(
        deps(),
        tenantOf(request).id,
        request.body,
        baseOf(request),
      );
      reply.code(201).header("cache-control", "no-store");
      return created;
    },
  );

  app.get(
    "/api/institution/automations",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List automations",
        querystring: ListAutomationsQuery,
        response: { 200: AutomationPage },
      },
    },
    (request) => service.listAutomations(db, tenantOf(request).id, request.query),
  );

  app.get(
    "/api/institution/automations/:id",
    {
      config: { access: read },
      schema: { tags, summary: "Get an automation", params: IdParams, response: { 200: Automation } },
    },
    (request) => service.getAutomation(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/automations/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update an automation",
        description:
          "Changing the trigger to `webhook` answers a new `inboundUrl` once; changing it away revokes the URL. " +
          "`enabled: true` clears a `disabledReason`.",
        params: IdParams,
        body: UpdateAutomationBody,
        response: { 200: UpdatedAutomation },
      },
    },
    (request) =>
      service.updateAutomation(
        deps(),
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.body,
        baseOf(request),
      ),
  );

  app.delete(
    "/api/institution/automations/:id",
    {
      config: { access: write },
      schema: { tags, summary: "Delete an automation", params: IdParams, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await service.deleteAutomation(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );

  signingSecretRoutes(app, ctx, "/api/institution/automations", "automation", tags);

  app.post(
    "/api/institution/automations/:id/rotate-token",
    {
      config: { access: adminSession },
      schema: {
        tags,
        summary: "Issue a new inbound URL",
        description: "The old URL stops working at once. 409 for an automation without a `webhook` trigger.",
        params: IdParams,
        response: { 200: InboundUrlResponse },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const id = requireUuid(request.params.id);
      return {
        inboundUrl: await service.rotateInboundToken(deps(), tenantOf(request).id, id, baseOf(request)),
      };
    },
  );

  app.post(
    "/api/institution/automations/:id/test",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Try an automation on an event",
        description:
          "Evaluates the condition and renders the request for the given event (or a sample of the trigger's), " +
          "writing nothing. With `send: true` it also sends it once, signed, through the same checks as real " +
          `deliveries: at most ${TEST_SENDS_PER_HOUR} sends per institution per hour.`,
        params: IdParams,
        body: TestRunBody,
        response: { 200: TestRunResult },
      },
      // Every field is optional, so a request without a body means "a sample event, nothing sent".
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const tenantId = tenantOf(request).id;
      const id = requireUuid(request.params.id);
      if (request.body.send === true) {
        await service.getAutomation(db, tenantId, id);
        const quota = await ctx.limiters.consume("automation-test", tenantId, TEST_SENDS_PER_HOUR, 3600);
        if (!quota.allowed) throw rateLimited(secondsUntil(quota.msBeforeNext));
      }
      return testAutomation(deps(), tenantId, id, request.body);
    },
  );

  deliveryRoutes(app, ctx, "/api/institution/automations", "automation", tags);

  app.post(
    "/api/automations/webhook/:token",
    {
      config: { access: { kind: "public" }, errors: [402, 429] },
      bodyLimit: INBOUND_BODY_LIMIT_BYTES,
      schema: {
        tags,
        summary: "Trigger an automation from another system",
        // Derived, it would be `automations.webhook.post`.
        operationId: "automations.webhook.receive",
        description:
          "The URL is the credential: POST a JSON object (at most 256 KiB) and the automation that owns the token " +
          "runs with it as `event.*`. 202 `{accepted, eventId}`; an unknown token is 404; a repeated " +
          "`Idempotency-Key` or `webhook-id` within 24 h answers the first `eventId` and runs nothing. " +
          `At most ${INBOUND_PER_MINUTE} requests per minute per URL.`,
        params: Type.Object({ token: Type.String({ maxLength: 128 }) }),
        headers: Type.Object({
          "idempotency-key": Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
          "webhook-id": Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
        }),
        body: InboundBody,
        response: { 202: InboundAccepted },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      // Counted per URL before any lookup, so a flood against one URL costs no database work past the limit.
      const window = await ctx.limiters.consume(
        "inbound",
        service.hashInboundToken(token),
        INBOUND_PER_MINUTE,
        60,
      );
      if (!window.allowed) throw rateLimited(secondsUntil(window.msBeforeNext));
      const key = request.headers["idempotency-key"] ?? request.headers["webhook-id"];
      if (Array.isArray(key)) throw new AppError("validation_failed");
      const accepted = await acceptInbound(db, token, request.body as Record<string, unknown>, key);
      reply.code(202);
      return { accepted: true as const, eventId: accepted.eventId };
    },
  );
}
