/**
 * The delivery log's retention (issue 11): completed deliveries (succeeded or failed) go `retentionDays` after
 * they completed, their attempts with them (the foreign key cascades); pending and delivering rows are never
 * touched, however old. The per-minute stats buckets go after two hours (the stats read the last one).
 *
 * Batches: each statement deletes at most `batchSize` rows and commits on its own, so the purge never holds
 * locks on a large set of rows nor builds one huge transaction; it loops until a batch comes back short. The
 * expired rows are found through webhook_deliveries_completed_idx (completed rows by completed_at), so a batch
 * reads the rows it deletes, not the history around them. Rows are taken with SKIP LOCKED, so two workers
 * running the job at once split the work instead of waiting on each other.
 *
 * The list totals stay exact: deleting deliveries fires webhook_deliveries_count_delete (0006), which takes the
 * deleted rows off `webhook_deliveries` and `webhook_deliveries:automation_id:<id>` once per statement.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { rowsOf } from "../../db/rows.js";

export const PURGE_BATCH_SIZE = 5_000;
/** Stats buckets older than this are deleted; the stats read the last hour. */
export const STATS_KEEP_HOURS = 2;

export interface PurgeOptions {
  /** Completed deliveries are kept this many days after `completed_at` (WEBHOOK_RETENTION_DAYS). */
  retentionDays: number;
  /** Rows per statement (default PURGE_BATCH_SIZE). */
  batchSize?: number;
  /** Only these tenants' rows (tests sharing one database). */
  tenantIds?: readonly string[];
}

export interface PurgeResult {
  deliveries: number;
  buckets: number;
  /** Statements run, both tables together (the last of each is the short one). */
  batches: number;
}

function tenantScope(tenantIds: readonly string[] | undefined): SQL {
  if (tenantIds === undefined) return sql``;
  if (tenantIds.length === 0) return sql`AND false`;
  return sql`AND tenant_id IN (${sql.join(
    tenantIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
}

/** Runs `deleteBatch` until it deletes fewer than `batchSize` rows; answers the rows and statements. */
async function inBatches(batchSize: number, deleteBatch: () => Promise<number>) {
  let rows = 0;
  let batches = 0;
  for (;;) {
    const deleted = await deleteBatch();
    rows += deleted;
    batches++;
    if (deleted < batchSize) return { rows, batches };
  }
}

export async function purgeCompletedDeliveries(db: Executor, options: PurgeOptions): Promise<PurgeResult> {
  const batchSize = Math.max(1, options.batchSize ?? PURGE_BATCH_SIZE);
  const scope = tenantScope(options.tenantIds);
  // The rows are found by their physical address (a TID scan), as the claim does: the inner select walks the
  // completed index, the delete goes straight to the rows it locked.
  const deliveries = await inBatches(batchSize, async () =>
    rowsOf<{ n: number }>(
      await db.execute(sql`
        WITH gone AS (
          DELETE FROM webhook_deliveries WHERE ctid = ANY (ARRAY(
            SELECT ctid FROM webhook_deliveries
            WHERE completed_at IS NOT NULL AND status IN ('succeeded', 'failed')
              AND completed_at < now() - make_interval(days => ${options.retentionDays}) ${scope}
            LIMIT ${batchSize}
            FOR UPDATE SKIP LOCKED))
          RETURNING 1)
        SELECT count(*)::int AS n FROM gone`),
    ).reduce((sum, row) => sum + Number(row.n), 0),
  );
  const buckets = await inBatches(batchSize, async () =>
    rowsOf<{ n: number }>(
      await db.execute(sql`
        WITH gone AS (
          DELETE FROM delivery_stats WHERE ctid = ANY (ARRAY(
            SELECT ctid FROM delivery_stats
            WHERE minute < now() - make_interval(hours => ${STATS_KEEP_HOURS}) ${scope}
            LIMIT ${batchSize}
            FOR UPDATE SKIP LOCKED))
          RETURNING 1)
        SELECT count(*)::int AS n FROM gone`),
    ).reduce((sum, row) => sum + Number(row.n), 0),
  );
  return {
    deliveries: deliveries.rows,
    buckets: buckets.rows,
    batches: deliveries.batches + buckets.batches,
  };
}
