import { and, eq, getTableColumns, inArray, or, sql } from "drizzle-orm";
import { BULK_CHUNK, inChunks } from "../../db/chunks.js";
import type { Executor } from "../../db/client.js";
import { automations, webhookDeliveries } from "../../db/schema/index.js";
import { type Condition, evaluateCondition } from "./condition.js";
import { renderHeaderTemplate, renderJsonTemplate, type TemplateContext } from "./template.js";
import { notifyOutbox } from "./wake.js";

export interface FanOutEvent {
  tenantId: string;
  id: string;
  type: string;
  occurredAt: string;
  data: object;
  subject: object | null;
  /**
   * Only these automations may fire: an inbound webhook belongs to the automation whose URL received it, and a
   * `user_inactive` event to the automations whose threshold it crossed.
   */
  automationIds?: readonly string[];
}

/**
 * Writes one delivery per enabled automation whose trigger and condition match, in the caller's transaction
 * (the outbox): the event and its deliveries commit or vanish together.
 */
export async function enqueueDeliveries(tx: Executor, event: FanOutEvent): Promise<number> {
  const matching = await tx
    .select({
      id: automations.id,
      name: automations.name,
      condition: automations.condition,
      action: automations.action,
    })
    .from(automations)
    .where(
      and(
        eq(automations.tenantId, event.tenantId),
        eq(automations.enabled, true),
        // Automations by their trigger, endpoints by their subscribed types (the partial index covers the first).
        or(
          and(eq(automations.kind, "automation"), eq(automations.triggerEvent, event.type)),
          and(eq(automations.kind, "endpoint"), sql`${event.type} = ANY(${automations.eventTypes})`),
        ),
        event.automationIds === undefined ? undefined : inArray(automations.id, [...event.automationIds]),
      ),
    );
  const rows = matching
    .map((automation) => deliveryRow(automation, event))
    .filter((row): row is DeliveryRow => row !== undefined);
  await insertDeliveries(tx, rows);
  return rows.length;
}

type DeliveryRow = typeof webhookDeliveries.$inferInsert;

/** What a `send_webhook` action says to send (automations/schemas.ts validates it when it is saved). */
export interface WebhookRequestTemplate {
  url: string;
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
}

interface MatchedAutomation {
  id: string;
  name: string;
  condition: unknown;
  action: unknown;
}

/**
 * The delivery a matched automation makes for an event, or nothing when its condition does not hold. The request
 * is rendered now, so every attempt sends the same bytes; a render that fails (a value too large for a header) is
 * a failed delivery that says why, rather than silently dropped.
 */
function deliveryRow(automation: MatchedAutomation, event: FanOutEvent): DeliveryRow | undefined {
  const condition = automation.condition as Condition | null;
  if (condition !== null && !evaluateCondition(condition, { event: event.data, user: event.subject })) {
    return undefined;
  }
  const action = automation.action as WebhookRequestTemplate;
  const context: TemplateContext = {
    event: event.data,
    user: event.subject,
    timestamp: event.occurredAt,
    eventId: event.id,
    automation: { id: automation.id, name: automation.name },
  };
  const rendered = renderRequest(action, context, event);
  return {
    tenantId: event.tenantId,
    automationId: automation.id,
    eventId: event.id,
    eventType: event.type,
    url: action.url,
    headers: rendered.headers,
    body: rendered.body,
    ...(rendered.error === undefined
      ? {}
      : { status: "failed", lastError: rendered.error, completedAt: event.occurredAt }),
  };
}

/**
 * `enqueueDeliveries` for many events of one tenant in a fixed handful of statements whatever their count (one
 * query for every automation and endpoint any of them triggers, one insert per DELIVERIES_PER_INSERT deliveries):
 * bulk operations emit hundreds.
 * Returns each event's number of deliveries.
 */
export async function enqueueDeliveriesForMany(
  tx: Executor,
  tenantId: string,
  events: readonly Omit<FanOutEvent, "tenantId" | "automationIds">[],
): Promise<number[]> {
  const counts = events.map(() => 0);
  if (events.length === 0) return counts;
  const types = [...new Set(events.map((e) => e.type))];
  const matching = await tx
    .select({
      id: automations.id,
      kind: automations.kind,
      name: automations.name,
      triggerEvent: automations.triggerEvent,
      eventTypes: automations.eventTypes,
      condition: automations.condition,
      action: automations.action,
    })
    .from(automations)
    .where(
      and(
        eq(automations.tenantId, tenantId),
        eq(automations.enabled, true),
        or(
          and(eq(automations.kind, "automation"), inArray(automations.triggerEvent, types)),
          and(
            eq(automations.kind, "endpoint"),
            sql`${automations.eventTypes} && ${sql.param(types)}::text[]`,
          ),
        ),
      ),
    );
  if (matching.length === 0) return counts;
  const rows: DeliveryRow[] = [];
  events.forEach((event, i) => {
    for (const automation of matching) {
      const triggered =
        automation.kind === "automation"
          ? automation.triggerEvent === event.type
          : (automation.eventTypes ?? []).includes(event.type);
      const row = triggered ? deliveryRow(automation, { ...event, tenantId }) : undefined;
      if (row === undefined) continue;
      rows.push(row);
      counts[i] = (counts[i] ?? 0) + 1;
    }
  });
  await insertDeliveries(tx, rows);
  return counts;
}

/** PostgreSQL's bind parameters per statement: the protocol counts them in 16 bits. */
export const MAX_BIND_PARAMETERS = 65_535;

/**
 * Deliveries per INSERT. Drizzle binds at most one parameter per column of each row (a missing value is the
 * column's `DEFAULT`), so this many rows never pass the limit, whatever the rows hold: 4,095 with today's 16
 * columns. Fewer still (BULK_CHUNK): a statement of 4,095 rows held the event loop for seconds (on PGlite the
 * engine runs on it), so a bulk write of 1,000 users to 50 endpoints (50,000 deliveries) goes in short statements
 * with the loop given a turn between them.
 */
export const DELIVERIES_PER_INSERT = Math.min(
  BULK_CHUNK,
  Math.floor(MAX_BIND_PARAMETERS / Object.keys(getTableColumns(webhookDeliveries)).length),
);

/**
 * Writes the deliveries in as few statements as the parameter limit allows (none for none), and wakes the workers
 * when the transaction commits if any is to be sent (wake.ts).
 */
async function insertDeliveries(tx: Executor, rows: readonly DeliveryRow[]): Promise<void> {
  await inChunks(
    rows,
    (chunk) =>
      tx
        .insert(webhookDeliveries)
        .values(chunk)
        .then(() => undefined),
    DELIVERIES_PER_INSERT,
  );
  if (rows.some((row) => row.status === undefined)) await notifyOutbox(tx);
}

/** The request an automation sends for an event: header values and body rendered, or why they cannot be. */
export function renderRequest(
  action: WebhookRequestTemplate,
  context: TemplateContext,
  event: Pick<FanOutEvent, "id" | "type" | "occurredAt" | "data">,
): { headers: Record<string, string>; body: string; error?: string } {
  const headers: Record<string, string> = {};
  for (const [name, template] of Object.entries(action.headers ?? {})) {
    const value = renderHeaderTemplate(template, context);
    if (!value.ok) return { headers: {}, body: "", error: `header ${name}: ${value.message}` };
    headers[name] = value.value;
  }
  if (action.body === undefined) {
    // The contract's default payload `{type, timestamp, data}`, led by the event's id: the body a receiver logs
    // names the event it can fetch again (`GET /events/:id`) and deduplicate on.
    return { headers, body: defaultBody(event) };
  }
  const body = renderJsonTemplate(action.body, context);
  if (!body.ok) return { headers, body: "", error: `body: ${body.message}` };
  return { headers, body: body.text };
}

/** The body an automation without a `body` template, and every webhook endpoint, sends. */
export function defaultBody(event: Pick<FanOutEvent, "id" | "type" | "occurredAt" | "data">): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.occurredAt, data: event.data });
}
