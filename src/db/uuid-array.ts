import { type SQL, sql } from "drizzle-orm";

/** Ids as one `uuid[]` parameter: one statement however many (the ids passed the uuid format check). */
export function uuidArray(ids: readonly string[]): SQL {
  return sql`${`{${ids.join(",")}}`}::uuid[]`;
}
