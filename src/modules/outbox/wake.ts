/**
 * Waking the delivery workers when work is written, instead of leaving it for their next poll.
 *
 * Whoever writes due deliveries (the fan-out, a redelivery) calls `notifyOutbox` in the same transaction. PostgreSQL
 * delivers a NOTIFY only when that transaction commits, and folds repeats within one transaction into one, so a
 * worker never wakes for rows it cannot see yet, and a bulk write of thousands of deliveries wakes it once. On a
 * server every worker process LISTENs on its own connection; on the embedded database (PGlite) the worker runs in
 * the same process and is called back after the commit (Database.listen). A notification that is lost (a worker
 * reconnecting) costs at most the fallback poll (WEBHOOK_POLL_MS), and retries falling due are found by that poll.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";

export const OUTBOX_CHANNEL = "aula_outbox";

export async function notifyOutbox(tx: Executor): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`);
}
