import { type SQL, sql } from "drizzle-orm";

/**
 * The clock of the delivery queue. By default the database's (`now()`), so that every worker, the fan-out
 * (whose rows default to `now()`) and the leases agree whatever the hosts' clocks say; tests pass a Date.
 */
export function clock(now: Date | undefined): SQL {
  return now === undefined ? sql`now()` : sql`${now.toISOString()}::timestamptz`;
}
