import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "./client.js";
import { prepared } from "./prepared.js";
import { tenantCounters } from "./schema/index.js";

/**
 * An exact per-tenant count kept by the aula_count_rows triggers (`courses`, `courses:status:draft`,
 * `users:role:student`, …): what a list reports as `total` without counting rows.
 */
export async function readCounter(db: Executor, tenantId: string, counter: string): Promise<number> {
  const query = prepared(db, "counter_read", () =>
    db
      .select({ value: tenantCounters.value })
      .from(tenantCounters)
      .where(
        and(
          eq(tenantCounters.tenantId, sql.placeholder("tenantId")),
          eq(tenantCounters.counter, sql.placeholder("counter")),
        ),
      )
      .prepare("counter_read"),
  );
  const rows = await query.execute({ tenantId, counter });
  return rows[0]?.value ?? 0;
}
