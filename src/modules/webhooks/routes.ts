import { Type } from "typebox";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { readAccess as read, signingSecretRoutes, writeAccess as write } from "../automations/access.js";
import { deliveryRoutes } from "../automations/delivery-routes.js";
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

  deliveryRoutes(app, ctx, BASE, "endpoint", tags);
}
