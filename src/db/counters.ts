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

/**
 * The counter of the rows of `table` under one parent holding one value of a column, kept by a composite bucket
 * (`parent+column`, migrations 0045 and 0047): `lessons:module_id+status:<module>:published`. Ids are keyed by
 * their canonical (lowercase) text, as the trigger writes them.
 */
export function parentValueCounter(
  table: string,
  parent: { column: string; id: string },
  column: string,
  value: string,
): string {
  return `${table}:${parent.column}+${column}:${parent.id.toLowerCase()}:${value}`;
}

/** The one filter given (`[key, value]`), when exactly one is: the case a value counter answers. */
export function soleFilter<F extends object>(filter: F): [keyof F & string, string] | undefined {
  const given = Object.entries(filter).filter(([, v]) => v !== undefined);
  const [only] = given;
  return given.length === 1 && only !== undefined && typeof only[1] === "string"
    ? [only[0] as keyof F & string, only[1]]
    : undefined;
}
