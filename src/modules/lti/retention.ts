/**
 * What LTI keeps only while it can be used: launches (claimed once at authorization; a deep-link answer may name
 * one up to an hour after that), the ids of tools' client assertions (kept to refuse a replay until the assertion
 * expires) and Dynamic Registration tokens. Each launch and token adds a row, so the worker deletes the spent ones
 * hourly, in batches, so that no statement holds its locks for long.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { rowsOf } from "../../db/rows.js";

const BATCH = 10_000;

/** Deletes the rows `where` matches in batches of BATCH, by primary key; answers how many went. */
async function purge(db: Executor, table: string, key: string, where: string): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = rowsOf<{ n: number }>(
      await db.execute(
        sql.raw(`WITH gone AS (
          DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ${BATCH})
          RETURNING 1)
        SELECT count(*)::int AS n FROM gone`),
      ),
    );
    const n = deleted[0]?.n ?? 0;
    total += n;
    if (n < BATCH) return total;
  }
}

export async function purgeSpentLti(db: Executor) {
  return {
    // A day past expiry: well beyond the hour in which a deep-link answer may still name a used launch.
    launches: await purge(db, "lti_launches", "tenant_id, id", "expires_at < now() - interval '1 day'"),
    assertions: await purge(db, "lti_assertion_jtis", "tenant_id, tool_id, jti", "expires_at < now()"),
    registrations: await purge(db, "lti_registration_tokens", "tenant_id, id", "expires_at < now()"),
  };
}
