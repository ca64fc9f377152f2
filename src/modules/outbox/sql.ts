import { type SQL, sql } from "drizzle-orm";

/**
 * Raw statements answer `{rows}` on both drivers (node-postgres and PGlite); drizzle types the result loosely,
 * so it is narrowed here once.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (typeof result === "object" && result !== null && "rows" in result && Array.isArray(result.rows)) {
    return result.rows as T[];
  }
  throw new Error("unexpected result shape from the database driver");
}

/**
 * The clock of the delivery queue. By default the database's (`now()`), so that every worker, the fan-out
 * (whose rows default to `now()`) and the leases agree whatever the hosts' clocks say; tests pass a Date.
 */
export function clock(now: Date | undefined): SQL {
  return now === undefined ? sql`now()` : sql`${now.toISOString()}::timestamptz`;
}
