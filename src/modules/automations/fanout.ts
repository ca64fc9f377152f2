import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { automations, webhookDeliveries } from "../../db/schema/index.js";
import { type Condition, evaluateCondition } from "./condition.js";
import type { SendWebhookAction } from "./schemas.js";
import { renderHeaderTemplate, renderJsonTemplate, type TemplateContext } from "./template.js";

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
 * (the outbox): the event and its deliveries commit or vanish together. The request is rendered now, so every
 * attempt sends the same bytes. A render that fails (a value too large for a header) is written as a failed
 * delivery that says why, rather than silently dropped.
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
  const context: TemplateContext = {
    event: event.data,
    user: event.subject,
    timestamp: event.occurredAt,
  };
  const rows: (typeof webhookDeliveries.$inferInsert)[] = [];
  for (const automation of matching) {
    const condition = automation.condition as Condition | null;
    if (condition !== null && !evaluateCondition(condition, { event: event.data, user: event.subject }))
      continue;
    const action = automation.action as SendWebhookAction;
    const rendered = renderRequest(
      action,
      { ...context, automation: { id: automation.id, name: automation.name } },
      event,
    );
    rows.push({
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
    });
  }
  if (rows.length > 0) await tx.insert(webhookDeliveries).values(rows);
  return rows.length;
}

/** The request an automation sends for an event: header values and body rendered, or why they cannot be. */
export function renderRequest(
  action: SendWebhookAction,
  context: TemplateContext,
  event: Pick<FanOutEvent, "type" | "occurredAt" | "data">,
): { headers: Record<string, string>; body: string; error?: string } {
  const headers: Record<string, string> = {};
  for (const [name, template] of Object.entries(action.headers ?? {})) {
    const value = renderHeaderTemplate(template, context);
    if (!value.ok) return { headers: {}, body: "", error: `header ${name}: ${value.message}` };
    headers[name] = value.value;
  }
  if (action.body === undefined) {
    // The contract's default payload.
    return {
      headers,
      body: JSON.stringify({ type: event.type, timestamp: event.occurredAt, data: event.data }),
    };
  }
  const body = renderJsonTemplate(action.body, context);
  if (!body.ok) return { headers, body: "", error: `body: ${body.message}` };
  return { headers, body: body.text };
}
