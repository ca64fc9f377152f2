import { lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { inboundReceipts, platformEvents } from "../../db/schema/index.js";
import { EVENT_RETENTION_DAYS } from "./routes.js";

/**
 * Deletes events past their 30 days (deliveries keep their rendered request and name the event id) and inbound
 * idempotency receipts past their 24 hours. Returns how many rows of each went.
 */
export async function purgeExpired(db: Executor): Promise<{ events: number; receipts: number }> {
  const events = await db
    .delete(platformEvents)
    .where(lt(platformEvents.occurredAt, sql`now() - make_interval(days => ${EVENT_RETENTION_DAYS})`))
    .returning({ id: platformEvents.id });
  const receipts = await db
    .delete(inboundReceipts)
    .where(lt(inboundReceipts.receivedAt, sql`now() - interval '24 hours'`))
    .returning({ key: inboundReceipts.idempotencyKey });
  return { events: events.length, receipts: receipts.length };
}
