import type { SQL } from "drizzle-orm";
import type { Executor } from "../../db/client.js";

/** The rows of a raw statement, on PGlite and on PostgreSQL alike. */
export async function rowsOf<T>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
