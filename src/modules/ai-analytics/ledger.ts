/**
 * Every AI call writes one ledger row and adds itself to its daily and monthly rollups (day and month in the
 * institution's time zone, feature, model, course, user) in the same transaction: analytics read the rollups and
 * never scan the ledger.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";

/** Rollup rows keep "no course" and "no user" as the nil UUID, so they stay part of the primary key. */
export const NONE = "00000000-0000-0000-0000-000000000000";

export interface CallEntry {
  tenantId: string;
  userId: string | null;
  courseId: string | null;
  promptId: string | null;
  feature: string;
  model: string;
  outcome: "completed" | "failed";
  inputTokens: number;
  outputTokens: number;
}

/** Analytics' credit: one per 1,000 tokens of a call, rounded up (whatever unit the limits count in). */
export const creditsOf = (e: Pick<CallEntry, "inputTokens" | "outputTokens">) =>
  Math.ceil((e.inputTokens + e.outputTokens) / 1000);

export async function recordCall(tx: Executor, e: CallEntry): Promise<void> {
  const credits = creditsOf(e);
  await tx.execute(sql`INSERT INTO ai_ledger (tenant_id, user_id, course_id, prompt_id, feature, model, outcome,
      input_tokens, output_tokens, credits)
    VALUES (${e.tenantId}, ${e.userId}, ${e.courseId}, ${e.promptId}, ${e.feature}, ${e.model}, ${e.outcome},
      ${e.inputTokens}, ${e.outputTokens}, ${credits})`);
  await tx.execute(sql`WITH today AS (
      SELECT (now() AT TIME ZONE t.timezone)::date AS day FROM tenants t WHERE t.id = ${e.tenantId}
    ), daily AS (
      INSERT INTO ai_usage_daily AS d (tenant_id, day, feature, model, course_id, user_id, requests, input_tokens,
        output_tokens, credits)
      SELECT ${e.tenantId}, today.day, ${e.feature}, ${e.model}, ${e.courseId ?? NONE}, ${e.userId ?? NONE}, 1,
        ${e.inputTokens}, ${e.outputTokens}, ${credits} FROM today
      ON CONFLICT (tenant_id, day, feature, model, course_id, user_id) DO UPDATE SET
        requests = d.requests + 1, input_tokens = d.input_tokens + excluded.input_tokens,
        output_tokens = d.output_tokens + excluded.output_tokens, credits = d.credits + excluded.credits
    )
    INSERT INTO ai_usage_monthly AS m (tenant_id, month, feature, model, course_id, user_id, requests, input_tokens,
      output_tokens, credits)
    SELECT ${e.tenantId}, date_trunc('month', today.day::timestamp)::date, ${e.feature}, ${e.model},
      ${e.courseId ?? NONE}, ${e.userId ?? NONE}, 1, ${e.inputTokens}, ${e.outputTokens}, ${credits} FROM today
    ON CONFLICT (tenant_id, month, feature, model, course_id, user_id) DO UPDATE SET
      requests = m.requests + 1, input_tokens = m.input_tokens + excluded.input_tokens,
      output_tokens = m.output_tokens + excluded.output_tokens, credits = m.credits + excluded.credits`);
}
