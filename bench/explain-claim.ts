/**
 * The claim's plan for the bench (bench/history.ts): EXPLAIN (ANALYZE, BUFFERS) of the statement claimDue runs, with
 * the plan of the statement inside the PL/pgSQL function where auto_explain can be loaded.
 */
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Db } from "../src/db/client.js";
import { type ClaimOptions, claimDue } from "../src/modules/outbox/claim.js";

/**
 * EXPLAIN (ANALYZE, BUFFERS) of one claim exactly as claimDue builds it: its first statement is taken from a
 * recording executor (claimDue only calls `execute`), then run on a connection of its own inside a transaction
 * that is rolled back, so the claim's UPDATE leaves nothing behind. The claim is a PL/pgSQL function (migration
 * 0018), whose EXPLAIN shows a Function Scan only, so the statement runs under auto_explain with nested statements
 * logged at NOTICE: the plan of the statement inside the function comes back as a notice, followed by the outer
 * EXPLAIN. Without auto_explain (LOAD needs a superuser) only the outer EXPLAIN is kept.
 */
export async function explainClaim(
  url: string,
  claim: ClaimOptions,
): Promise<{ plan: string[]; executionMs: number | null }> {
  const statements: SQL[] = [];
  const recorder = {
    execute: async (query: SQL) => {
      statements.push(query);
      return { rows: [] };
    },
  } as unknown as Db;
  await claimDue(recorder, claim);
  const first = statements[0];
  if (first === undefined) return { plan: ["claimDue ran no statement"], executionMs: null };
  const query = new PgDialect().sqlToQuery(first);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const notices: string[] = [];
  client.on("notice", (notice) => notices.push(notice.message ?? ""));
  try {
    let nested = true;
    try {
      await client.query("LOAD 'auto_explain'");
      for (const setting of [
        "auto_explain.log_min_duration = 0",
        "auto_explain.log_analyze = on",
        "auto_explain.log_buffers = on",
        "auto_explain.log_nested_statements = on",
        "auto_explain.log_level = notice",
      ]) {
        await client.query(`SET ${setting}`);
      }
    } catch {
      nested = false;
    }
    await client.query("BEGIN");
    try {
      const outer = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.params);
      const outerPlan = outer.rows.map((r: Record<string, string>) => r["QUERY PLAN"] ?? "");
      const execution = outerPlan.map((l) => /Execution Time: ([\d.]+) ms/.exec(l)).find((m) => m !== null);
      const inner = notices.flatMap((n) => n.split("\n"));
      // The statement inside the function, timed by auto_explain; the outer EXPLAIN adds the function call.
      const duration = nested
        ? inner.map((l) => /duration: ([\d.]+) ms/.exec(l)).find((m) => m !== null)
        : null;
      const ms = (duration ?? execution)?.[1];
      return {
        plan: nested ? [...inner, "", "the outer statement:", ...outerPlan] : outerPlan,
        executionMs: ms === undefined ? null : Number(ms),
      };
    } finally {
      await client.query("ROLLBACK");
    }
  } finally {
    await client.end();
  }
}
