import type { SQL } from "drizzle-orm";
import type { Executor } from "./client.js";

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

/** Runs a raw statement and returns its rows, typed as the caller's SELECT list names them. */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}
