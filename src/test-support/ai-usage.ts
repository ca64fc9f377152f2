import { sql } from "drizzle-orm";
import type { Executor } from "../db/client.js";

/**
 * The monthly AI usage rollup of a tenant made again from its daily one, for tests and benches that seed the daily
 * rollup by SQL in bulk (a call adds itself to both, ai-analytics/ledger.ts; migration 0074 did this for all).
 */
export async function rollUpMonths(db: Executor, tenantId: string): Promise<void> {
  await db.execute(sql`DELETE FROM ai_usage_monthly WHERE tenant_id = ${tenantId}`);
  await db.execute(sql`INSERT INTO ai_usage_monthly (tenant_id, month, feature, model, course_id, user_id, requests,
      input_tokens, output_tokens, credits)
    SELECT tenant_id, date_trunc('month', day::timestamp)::date, feature, model, course_id, user_id, sum(requests),
      sum(input_tokens), sum(output_tokens), sum(credits)
    FROM ai_usage_daily WHERE tenant_id = ${tenantId} GROUP BY 1, 2, 3, 4, 5, 6`);
}
