/**
 * `POST /webhooks/:id/test`: the endpoint's counterpart of an automation's test run. Without `send` it renders the
 * request an event would make, writing nothing. With `send: true` the event goes through the delivery engine
 * itself: a delivery row is written already claimed by this request (so no worker sends it too), sent and recorded
 * by the worker's own code, and it then lives in the endpoint's delivery log like any other: its attempts are
 * logged, a failure is retried on the usual schedule, and it can be redelivered.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Static, Type } from "typebox";
import { webhookDeliveries } from "../../db/schema/index.js";
import type { AppContext } from "../../platform/context.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { StringEnum } from "../../platform/http/schemas.js";
import { DeliveryWithAttempts, getDelivery } from "../automations/deliveries.js";
import * as repo from "../automations/repo.js";
import type { SendWebhookAction } from "../automations/schemas.js";
import { TestRunResult } from "../automations/test-run.js";
import { EVENT_SAMPLES, EVENT_TYPES, type EventType } from "../events/catalogue.js";
import type { ClaimedDelivery } from "../outbox/claim.js";
import { attemptTimeoutSeconds, deliveryDeps, send } from "../outbox/deliver.js";
import { defaultBody } from "../outbox/fanout.js";
import { AttemptRecorder } from "../outbox/recorder.js";

export const TestSendBody = Type.Object(
  {
    eventType: Type.Optional(
      StringEnum([...EVENT_TYPES], {
        description: "One of the endpoint's event types; its first one if omitted.",
      }),
    ),
    event: Type.Optional(
      Type.Object(
        {},
        { additionalProperties: true, description: "The event's `data`; a sample of its type if omitted." },
      ),
    ),
    send: Type.Optional(
      Type.Boolean({
        default: false,
        description: "Also deliver it, signed, to the endpoint's URL, as a delivery in its log.",
      }),
    ),
  },
  { additionalProperties: false, examples: [{ eventType: "enrollment_created", send: true }] },
);

const { request, response, sendError } = TestRunResult.properties;

const exampleRequest = {
  url: "https://erp.colegioaurora.com.br/webhooks/aula",
  headers: {},
  body:
    '{"id":"c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f","type":"enrollment_created",' +
    '"timestamp":"2026-11-23T12:00:00.000Z","data":{"enrollmentId":"8a9b0c1d-2e3f-4a4b-9c5d-6e7f8a9b0c1d"}}',
};

export const TestSendResult = Type.Object(
  {
    request,
    response,
    sendError,
    delivery: Type.Optional(
      Type.Object(DeliveryWithAttempts.properties, {
        additionalProperties: false,
        description: "With `send: true`: the delivery as its first attempt left it.",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        request: exampleRequest,
        response: { status: 200, durationMs: 238, body: '{"ok":true}', truncated: false },
        delivery: {
          id: "2a6b8c0d-1e3f-4a5b-9c7d-8e9f0a1b2c3d",
          automationId: "7e4f1a2b-3c5d-4e6f-8a9b-0c1d2e3f4a5b",
          eventId: "c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f",
          eventType: "enrollment_created",
          status: "succeeded",
          attempts: 1,
          nextAttemptAt: null,
          lastStatusCode: 200,
          lastError: null,
          createdAt: "2026-11-23T12:00:00.000Z",
          completedAt: "2026-11-23T12:00:00.000Z",
          request: exampleRequest,
          attemptLog: [
            {
              attempt: 1,
              startedAt: "2026-11-23T12:00:00.000Z",
              durationMs: 238,
              outcome: "succeeded",
              statusCode: 200,
              responseExcerpt: '{"ok":true}',
              error: null,
            },
          ],
        },
      },
    ],
  },
);

type Result = Static<typeof TestSendResult>;
export type TestSendInput = Static<typeof TestSendBody>;

/** The endpoint, or 404 (an automation's id too: automations are tested under /automations). */
export async function findEndpoint(ctx: AppContext, tenantId: string, id: string) {
  const row = await repo.findAutomation(ctx.database.db, tenantId, id, "endpoint");
  if (row === undefined) throw notFound();
  return row;
}

type EndpointRow = NonNullable<Awaited<ReturnType<typeof repo.findAutomation>>>;

/** The event type to test with: one the endpoint subscribes to, since only those ever reach it. */
export function testEventType(row: EndpointRow, input: TestSendInput): EventType {
  const subscribed = (row.eventTypes ?? []) as EventType[];
  const type = input.eventType ?? subscribed[0];
  if (type === undefined || !subscribed.includes(type)) {
    throw validationError("eventType", "field.enum", { values: subscribed.join(", ") });
  }
  return type;
}

/** A disabled endpoint receives nothing, a test included: the engine would close the delivery unsent. */
export function refuseDisabled(row: EndpointRow): void {
  if (!row.enabled) throw new AppError("conflict", { messageKey: "conflict.endpoint_disabled" });
}

export async function testEndpoint(
  ctx: AppContext,
  tenantId: string,
  row: EndpointRow,
  input: TestSendInput,
  log?: FastifyBaseLogger,
): Promise<Result> {
  const type = testEventType(row, input);
  const data = input.event ?? EVENT_SAMPLES[type];
  // A test records no platform event: its id is a fresh one, found in no `GET /events`.
  const eventId = randomUUID();
  const url = (row.action as SendWebhookAction).url;
  // Endpoints send the default payload and no headers of their own (service.ts), as the fan-out renders it.
  const rendered = {
    headers: {},
    body: defaultBody({ id: eventId, type, occurredAt: new Date().toISOString(), data }),
  };
  const result: Result = { request: { url, headers: rendered.headers, body: rendered.body } };
  if (input.send !== true) return result;
  refuseDisabled(row);

  const db = ctx.database.db;
  const lease = attemptTimeoutSeconds(ctx) + ctx.config.outbound.delivery.leaseMarginSeconds;
  // Written as a claim of attempt 1 (what the claim statement would make of it), leased to this request: a worker
  // takes it over only if this request dies before recording the attempt, as it would a worker's.
  const inserted = await db
    .insert(webhookDeliveries)
    .values({
      tenantId,
      automationId: row.id,
      eventId,
      eventType: type,
      url,
      headers: rendered.headers,
      body: rendered.body,
      status: "delivering",
      attempts: 1,
      leaseUntil: sql`now() + make_interval(secs => ${lease})`,
    })
    .returning({ id: webhookDeliveries.id });
  const deliveryId = (inserted[0] as { id: string }).id;
  const claimed: ClaimedDelivery = {
    tenantId,
    id: deliveryId,
    automationId: row.id,
    eventId,
    eventType: type,
    url,
    headers: rendered.headers,
    body: rendered.body,
    attempt: 1,
    signingSecret: row.signingSecret,
  };
  // Loaded here, as in the automations' test run: undici is otherwise the worker's alone.
  const { createOutboundClient } = await import("../../platform/outbound/client.js");
  const client = createOutboundClient(ctx.config.outbound, { resolve: ctx.resolve });
  const recorder = new AttemptRecorder(db, { schedule: ctx.config.outbound.retryScheduleSeconds, log });
  try {
    const sent = await send(deliveryDeps(ctx, client, recorder, log), claimed);
    if (sent !== undefined) {
      await recorder.record(claimed, sent.result, sent.startedAt);
      const outcome = sent.result;
      if (outcome.ok) {
        result.response = {
          status: outcome.status,
          durationMs: Math.round(outcome.durationMs),
          body: outcome.body.slice(0, 1024),
          truncated: outcome.truncated || outcome.body.length > 1024,
        };
      } else {
        result.sendError = { kind: outcome.kind, message: outcome.message };
      }
    }
  } finally {
    await client.close();
  }
  return { ...result, delivery: await getDelivery(db, tenantId, row.id, deliveryId) };
}
