import { and, eq, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { inboundReceipts, platformEvents, tenants } from "../../db/schema/index.js";
import { EVENT_RETENTION_DAYS } from "./routes.js";

/**
 * Deletes events past their 30 days (deliveries keep their rendered request and name the event id) and inbound
 * idempotency receipts past their 24 hours. Returns how many rows of each went.
 *
 * Events go tenant by tenant, each through the tenant's (tenant_id, occurred_at, id) index: there is no index by
 * time alone (migration 0040), which would be written on every event and which the planner would take for
 * GET /events, where it cannot start from the cursor.
 */
export async function purgeExpired(db: Executor): Promise<{ events: number; receipts: number }> {
  const cutoff = sql`now() - make_interval(days => ${EVENT_RETENTION_DAYS})`;
  let events = 0;
  for (const tenant of await db.select({ id: tenants.id }).from(tenants)) {
    const gone = await db
      .delete(platformEvents)
      .where(and(eq(platformEvents.tenantId, tenant.id), lt(platformEvents.occurredAt, cutoff)))
      .returning({ id: platformEvents.id });
    events += gone.length;
  }
  const receipts = await db
    .delete(inboundReceipts)
    .where(lt(inboundReceipts.receivedAt, sql`now() - interval '24 hours'`))
    .returning({ key: inboundReceipts.idempotencyKey });
  return { events, receipts: receipts.length };
}
