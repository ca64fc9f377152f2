import { and, asc, desc, eq, sql } from "drizzle-orm";
import { type Static, Type } from "typebox";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { runPageQuery } from "../../db/page-query.js";
import { deliveryAttemptLog, webhookDeliveries } from "../../db/schema/index.js";
import { notFound } from "../../platform/errors/app-error.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery, pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { notifyOutbox } from "../outbox/wake.js";

const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const deliveryExample = {
  id: "2a6b8c0d-1e3f-4a5b-9c7d-8e9f0a1b2c3d",
  automationId: "5c1d7e2f-8a3b-4c6d-9e0f-1a2b3c4d5e6f",
  eventId: "c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f",
  eventType: "enrollment_completed",
  status: "succeeded",
  attempts: 2,
  nextAttemptAt: null,
  lastStatusCode: 200,
  lastError: null,
  createdAt: "2026-11-23T12:00:00.000Z",
  completedAt: "2026-11-23T12:00:31.000Z",
};

export const Delivery = Type.Object(
  {
    id: Uuid,
    automationId: Uuid,
    eventId: Uuid,
    eventType: Type.String(),
    status: StringEnum(["pending", "delivering", "succeeded", "failed"]),
    attempts: Type.Integer({ minimum: 0 }),
    nextAttemptAt: nullable(IsoDateTime),
    lastStatusCode: nullable(Type.Integer()),
    lastError: nullable(Type.String()),
    createdAt: IsoDateTime,
    completedAt: nullable(IsoDateTime),
  },
  { additionalProperties: false, examples: [deliveryExample] },
);

export const DeliveryAttempt = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1 }),
    startedAt: IsoDateTime,
    durationMs: Type.Integer({ minimum: 0 }),
    outcome: StringEnum(["succeeded", "http_error", "timeout", "network", "blocked", "invalid"]),
    statusCode: nullable(Type.Integer()),
    responseExcerpt: nullable(Type.String({ description: "The start of the response body, truncated." })),
    error: nullable(Type.String()),
  },
  { additionalProperties: false },
);

export const DeliveryRequest = Type.Object(
  {
    url: Type.String(),
    headers: Type.Record(Type.String(), Type.String(), {
      description:
        "The automation's own headers, as rendered. Each attempt adds `content-type`, `user-agent` and the " +
        "Standard Webhooks `webhook-id`, `webhook-timestamp` and `webhook-signature` (signed at that attempt).",
    }),
    body: Type.String(),
  },
  { additionalProperties: false, description: "What every attempt of this delivery sends (the same bytes)." },
);

export const DeliveryWithAttempts = Type.Object(
  { ...Delivery.properties, request: DeliveryRequest, attemptLog: Type.Array(DeliveryAttempt) },
  {
    additionalProperties: false,
    examples: [
      {
        ...deliveryExample,
        request: {
          url: "https://erp.colegioaurora.com.br/webhooks/aula",
          headers: {},
          body:
            '{"id":"c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f","type":"enrollment_completed",' +
            '"timestamp":"2026-11-23T12:00:00.000Z","data":{"enrollmentId":"8a9b0c1d-2e3f-4a4b-9c5d-6e7f8a9b0c1d"}}',
        },
        attemptLog: [
          {
            attempt: 1,
            startedAt: "2026-11-23T12:00:01.000Z",
            durationMs: 10_000,
            outcome: "timeout",
            statusCode: null,
            responseExcerpt: null,
            error: "no complete response within 10000 ms",
          },
          {
            attempt: 2,
            startedAt: "2026-11-23T12:00:30.000Z",
            durationMs: 412,
            outcome: "succeeded",
            statusCode: 200,
            responseExcerpt: '{"ok":true}',
            error: null,
          },
        ],
      },
    ],
  },
);

export const DeliveryParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  deliveryId: Type.String({ maxLength: 64 }),
});
export const ListDeliveriesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const DeliveryPage = PageOf(Delivery);

const columns = {
  id: webhookDeliveries.id,
  automationId: webhookDeliveries.automationId,
  eventId: webhookDeliveries.eventId,
  eventType: webhookDeliveries.eventType,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  nextAttemptAt: sql<
    string | null
  >`CASE WHEN ${webhookDeliveries.status} = 'pending' THEN ${webhookDeliveries.nextAttemptAt} END`,
  lastStatusCode: webhookDeliveries.lastStatusCode,
  lastError: webhookDeliveries.lastError,
  createdAt: webhookDeliveries.createdAt,
  completedAt: webhookDeliveries.completedAt,
};

type DeliveryRecord = Static<typeof Delivery>;

/** Timestamps computed in SQL arrive as PostgreSQL text; the API speaks ISO 8601. */
function normalise(row: Record<string, unknown>): DeliveryRecord {
  const next = row.nextAttemptAt as string | Date | null;
  return {
    ...(row as DeliveryRecord),
    nextAttemptAt: next === null ? null : new Date(next).toISOString(),
  };
}

export async function listDeliveries(
  db: Executor,
  tenantId: string,
  automationId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  const rows = await runPageQuery(db, "webhook_deliveries", tenantId, { automationId }, window, (p, name) =>
    db
      .select(columns)
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.tenantId, p.tenantId),
          eq(webhookDeliveries.automationId, p.automationId ?? automationId),
        ),
      )
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  const total = await readCounter(db, tenantId, `webhook_deliveries:automation_id:${automationId}`);
  return pageEnvelope((rows as Record<string, unknown>[]).map(normalise), total, window);
}

export async function getDelivery(db: Executor, tenantId: string, automationId: string, deliveryId: string) {
  const rows = await db
    .select({
      ...columns,
      url: webhookDeliveries.url,
      headers: webhookDeliveries.headers,
      body: webhookDeliveries.body,
    })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.tenantId, tenantId),
        eq(webhookDeliveries.automationId, automationId),
        eq(webhookDeliveries.id, deliveryId),
      ),
    );
  if (rows[0] === undefined) throw notFound();
  const { url, headers, body, ...delivery } = rows[0];
  // Failed attempts are rows; the successful one is kept on the delivery (migration 0029): the view reads both.
  const attemptLog = await db
    .select({
      attempt: deliveryAttemptLog.attempt,
      startedAt: deliveryAttemptLog.startedAt,
      durationMs: deliveryAttemptLog.durationMs,
      outcome: deliveryAttemptLog.outcome,
      statusCode: deliveryAttemptLog.statusCode,
      responseExcerpt: deliveryAttemptLog.responseExcerpt,
      error: deliveryAttemptLog.error,
    })
    .from(deliveryAttemptLog)
    .where(and(eq(deliveryAttemptLog.tenantId, tenantId), eq(deliveryAttemptLog.deliveryId, deliveryId)))
    .orderBy(asc(deliveryAttemptLog.attempt));
  return {
    ...normalise(delivery as Record<string, unknown>),
    request: { url, headers: headers as Record<string, string>, body },
    attemptLog: attemptLog as Static<typeof DeliveryAttempt>[],
  };
}

/**
 * Sends a delivery again as a new delivery of the same event and the same rendered request (a new
 * `webhook-id`, since the receiver may have seen, and deduplicated, the old one), due now.
 */
export async function redeliver(db: Executor, tenantId: string, automationId: string, deliveryId: string) {
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.tenantId, tenantId),
        eq(webhookDeliveries.automationId, automationId),
        eq(webhookDeliveries.id, deliveryId),
      ),
    );
  const original = rows[0];
  if (original === undefined) throw notFound();
  const inserted = await db
    .insert(webhookDeliveries)
    .values({
      tenantId,
      automationId,
      eventId: original.eventId,
      eventType: original.eventType,
      url: original.url,
      headers: original.headers,
      body: original.body,
    })
    .returning({ id: webhookDeliveries.id });
  // After the insert: in autocommit the NOTIFY goes out at once, and must not wake a worker before the row exists.
  await notifyOutbox(db);
  return getDelivery(db, tenantId, automationId, (inserted[0] as { id: string }).id);
}
