import { Type } from "typebox";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { rateLimited, secondsUntil } from "../../platform/rate-limit/limiter.js";
import { readAccess as read, signingSecretRoutes, writeAccess as write } from "../automations/access.js";
import { deliveryRoutes } from "../automations/delivery-routes.js";
import { TEST_SENDS_PER_HOUR } from "../automations/routes.js";
import { automationDeps } from "../automations/service.js";
import { DeliveryStatsPage, DeliveryStatsQuery, listDeliveryStats } from "../automations/stats.js";
import {
  CreatedEndpoint,
  CreateEndpointBody,
  Endpoint,
  EndpointPage,
  EventTypeList,
  ListEndpointsQuery,
  UpdateEndpointBody,
} from "./schemas.js";
import * as service from "./service.js";
import {
  findEndpoint,
  refuseDisabled,
  TestSendBody,
  TestSendResult,
  testEndpoint,
  testEventType,
} from "./test-send.js";

const tags = ["webhooks"];
const BASE = "/api/institution/webhooks";

export function webhookRoutes(app: App, ctx: AppContext): void {
  const deps = () => automationDeps(ctx);

  app.get(
    `${BASE}/event-types`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "The event catalogue",
        description:
          "Every event an endpoint or automation can receive, with its payload version. The schema of each " +
          "event's body is the OpenAPI document's `webhooks` entry of the same name.",
        response: { 200: EventTypeList },
      },
    },
    () => service.eventTypes(),
  );

  app.get(
    `${BASE}/deliveries/stats`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Delivery stats of every automation and endpoint",
        description:
          "Per automation and endpoint of the institution (automations first, then endpoints, oldest first): " +
          "the same figures as `…/:id/stats`.",
        querystring: DeliveryStatsQuery,
        response: { 200: DeliveryStatsPage },
      },
    },
    (request) => listDeliveryStats(ctx.database.db, tenantOf(request).id, request.query),
  );

  app.post(
    BASE,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Subscribe a URL to events",
        description:
          "Each endpoint gets its own `whsec_` signing secret (shown here; read it again at `…/signing-secret`). " +
          "Deliveries carry `{id, type, timestamp, data}` (the event's id, then the contract's fields; the " +
          "OpenAPI document's `webhooks` gives each event's schema), signed per Standard Webhooks, and are retried and logged " +
          "like an automation's. A URL that is not public http(s) is 400 with field `url`.",
        body: CreateEndpointBody,
        response: { 201: CreatedEndpoint },
      },
    },
    async (request, reply) => {
      const created = await service.createEndpoint(deps(), tenantOf(request).id, request.body);
      reply.code(201).header("cache-control", "no-store");
      return created;
    },
  );

  app.get(
    BASE,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List webhook endpoints",
        querystring: ListEndpointsQuery,
        response: { 200: EndpointPage },
      },
    },
    (request) => service.listEndpoints(deps(), tenantOf(request).id, request.query),
  );

  app.get(
    `${BASE}/:id`,
    {
      config: { access: read },
      schema: { tags, summary: "Get a webhook endpoint", params: IdParams, response: { 200: Endpoint } },
    },
    (request) => service.getEndpoint(deps(), tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    `${BASE}/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a webhook endpoint",
        description: "`enabled: true` clears a `disabledReason`.",
        params: IdParams,
        body: UpdateEndpointBody,
        response: { 200: Endpoint },
      },
    },
    (request) =>
      service.updateEndpoint(deps(), tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Delete a webhook endpoint",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteEndpoint(deps(), tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );

  signingSecretRoutes(app, ctx, BASE, "endpoint", tags);

  app.post(
    `${BASE}/:id/test`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Send a test event to a webhook endpoint",
        description:
          "Renders the request the given event (or a sample of `eventType`, one of the endpoint's types, its first " +
          "by default) would make, writing nothing. With `send: true` it also delivers it: a delivery in the " +
          "endpoint's log, signed and sent at once, whose first attempt the answer reports; it is then retried " +
          "and redelivered like any other. A disabled endpoint is 409. At most " +
          `${TEST_SENDS_PER_HOUR} sends per institution per hour, automations' test sends included.`,
        params: IdParams,
        body: TestSendBody,
        response: { 200: TestSendResult },
      },
      // Every field is optional, so a request without a body means "a sample event, nothing sent".
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const tenantId = tenantOf(request).id;
      const row = await findEndpoint(ctx, tenantId, requireUuid(request.params.id));
      if (request.body.send === true) {
        // Refusals first, so that a request that sends nothing costs no quota.
        testEventType(row, request.body);
        refuseDisabled(row);
        const quota = await ctx.limiters.consume("automation-test", tenantId, TEST_SENDS_PER_HOUR, 3600);
        if (!quota.allowed) throw rateLimited(secondsUntil(quota.msBeforeNext));
      }
      return testEndpoint(ctx, tenantId, row, request.body, request.log);
    },
  );

  deliveryRoutes(app, ctx, BASE, "endpoint", tags);
}
