import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { notFound } from "../../platform/errors/app-error.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { rateLimited, secondsUntil } from "../../platform/rate-limit/limiter.js";
import { readAccess as read, writeAccess as write } from "./access.js";
import {
  DeliveryPage,
  DeliveryParams,
  DeliveryWithAttempts,
  getDelivery,
  ListDeliveriesQuery,
  listDeliveries,
  redeliver,
} from "./deliveries.js";
import { findAutomation, type Kind } from "./repo.js";
import { DeliveryStats, readDeliveryStats } from "./stats.js";

/** Manual redeliveries per tenant per hour: without a quota, Aula is a reflector aimed at third-party URLs. */
export const REDELIVERIES_PER_HOUR = 100;

const NOUN: Record<Kind, string> = { automation: "an automation", endpoint: "an endpoint" };

/**
 * `GET <base>/:id/deliveries`, `GET <base>/:id/deliveries/:deliveryId`, `POST …/redeliver` and
 * `GET <base>/:id/stats`, for automations
 * (under /automations) and endpoints (under /webhooks) alike. Each looks `:id` up with its group's kind first, so
 * an endpoint's deliveries are not reachable under /automations, nor an automation's under /webhooks (404).
 */
export function deliveryRoutes(app: App, ctx: AppContext, base: string, kind: Kind, tags: string[]): void {
  const db = ctx.database.db;
  /** The owner of the deliveries, of this group's kind, or 404. */
  const owner = async (tenantId: string, rawId: string) => {
    const id = requireUuid(rawId);
    if ((await findAutomation(db, tenantId, id, kind)) === undefined) throw notFound();
    return id;
  };

  app.get(
    `${base}/:id/deliveries`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: `List ${NOUN[kind]}'s deliveries`,
        description: "Newest first. `nextAttemptAt` is set while a retry is scheduled.",
        params: IdParams,
        querystring: ListDeliveriesQuery,
        response: { 200: DeliveryPage },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request).id;
      const id = await owner(tenantId, request.params.id);
      return listDeliveries(db, tenantId, id, request.query);
    },
  );

  app.get(
    `${base}/:id/stats`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: `Get ${NOUN[kind]}'s delivery stats`,
        description:
          "What is waiting (count and age of the oldest) and how the last hour's attempts went. Read from an " +
          "index and per-minute counters, so it costs the same however long the delivery log is.",
        params: IdParams,
        response: { 200: DeliveryStats },
      },
    },
    (request) => readDeliveryStats(db, tenantOf(request).id, requireUuid(request.params.id), kind),
  );

  app.get(
    `${base}/:id/deliveries/:deliveryId`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: `Get ${NOUN[kind]}'s delivery and its attempts`,
        params: DeliveryParams,
        response: { 200: DeliveryWithAttempts },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request).id;
      const id = await owner(tenantId, request.params.id);
      return getDelivery(db, tenantId, id, requireUuid(request.params.deliveryId));
    },
  );

  app.post(
    `${base}/:id/deliveries/:deliveryId/redeliver`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: `Send ${NOUN[kind]}'s delivery again`,
        description:
          "Queues a new delivery of the same event and request (with a new `webhook-id`), due now. " +
          `At most ${REDELIVERIES_PER_HOUR} per institution per hour, automations and endpoints together.`,
        params: DeliveryParams,
        response: { 202: DeliveryWithAttempts },
      },
    },
    async (request, reply) => {
      const tenantId = tenantOf(request).id;
      const id = await owner(tenantId, request.params.id);
      const deliveryId = requireUuid(request.params.deliveryId);
      await getDelivery(db, tenantId, id, deliveryId);
      const quota = await ctx.limiters.consume("redeliver", tenantId, REDELIVERIES_PER_HOUR, 3600);
      if (!quota.allowed) throw rateLimited(secondsUntil(quota.msBeforeNext));
      reply.code(202);
      return redeliver(db, tenantId, id, deliveryId);
    },
  );
}
