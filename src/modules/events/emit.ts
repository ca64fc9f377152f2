import { randomUUID } from "node:crypto";
import type { Executor } from "../../db/client.js";
import { platformEvents } from "../../db/schema/index.js";
import { enqueueDeliveries } from "../automations/fanout.js";
import {
  EVENT_CATALOGUE,
  type EventActor,
  type EventPayloads,
  type EventSubject,
  type EventType,
} from "./catalogue.js";

export interface EmittedEvent {
  id: string;
  occurredAt: string;
  deliveries: number;
}

/**
 * Records a platform event and its webhook deliveries inside the caller's transaction. Call it from the service
 * that made the change, with the same transaction, so that an event exists exactly when its change does.
 */
export async function emitEvent<T extends EventType>(
  tx: Executor,
  input: {
    tenantId: string;
    type: T;
    data: EventPayloads[T];
    actor: EventActor;
    subject?: EventSubject | null;
    /** Fire these automations only (inbound webhooks, inactivity thresholds). */
    automationIds?: readonly string[];
  },
): Promise<EmittedEvent> {
  const id = randomUUID();
  const occurredAt = new Date().toISOString();
  const subject = input.subject ?? null;
  await tx.insert(platformEvents).values({
    tenantId: input.tenantId,
    id,
    type: input.type,
    schemaVersion: EVENT_CATALOGUE[input.type].schemaVersion,
    occurredAt,
    actor: input.actor,
    subject,
    data: input.data,
  });
  const deliveries = await enqueueDeliveries(tx, {
    tenantId: input.tenantId,
    id,
    type: input.type,
    occurredAt,
    data: input.data,
    subject,
    automationIds: input.automationIds,
  });
  return { id, occurredAt, deliveries };
}
