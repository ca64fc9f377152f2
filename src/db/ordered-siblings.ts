import { type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "./client.js";
import { qualified } from "./qualified.js";

/** A table whose rows are kept in dense 1-based `position` order under a parent (modules of a course, …). */
export interface OrderedTable {
  table: PgTable;
  tenantId: PgColumn;
  parentId: PgColumn;
  id: PgColumn;
  position: PgColumn;
}

/**
 * The position arithmetic modules and lessons share. Each statement is one set-based UPDATE, so a move or a
 * reorder renumbers every sibling at once; callers lock the parent first, so concurrent moves take turns.
 */
export function orderedSiblings(t: OrderedTable) {
  const position = qualified(t.position);
  const ofParent = (tenantId: string, parentId: string): SQL =>
    sql`${qualified(t.tenantId)} = ${tenantId} AND ${qualified(t.parentId)} = ${parentId}`;
  return {
    async count(db: Executor, tenantId: string, parentId: string): Promise<number> {
      const result = (await db.execute(
        sql`SELECT count(*)::int AS n FROM ${t.table} WHERE ${ofParent(tenantId, parentId)}`,
      )) as unknown as { rows: { n: number }[] };
      return Number(result.rows[0]?.n ?? 0);
    },

    /** Moves the siblings at or after `from` (and up to `to`, when given) by `delta` places. */
    async shift(
      db: Executor,
      tenantId: string,
      parentId: string,
      range: { from: number; to?: number },
      delta: 1 | -1,
    ): Promise<void> {
      const upTo = range.to === undefined ? sql`` : sql` AND ${position} <= ${range.to}`;
      await db.execute(sql`
        UPDATE ${t.table} SET ${sql.identifier(t.position.name)} = ${position} + ${delta}, updated_at = now()
        WHERE ${ofParent(tenantId, parentId)} AND ${position} >= ${range.from}${upTo}`);
    },

    /** Gives the listed rows positions 1..n in the order listed; rows already in place are left untouched. */
    async applyOrder(
      db: Executor,
      tenantId: string,
      parentId: string,
      ids: readonly string[],
    ): Promise<void> {
      await db.execute(sql`
        UPDATE ${t.table} SET ${sql.identifier(t.position.name)} = o.ord, updated_at = now()
        FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) WITH ORDINALITY AS o(id, ord)
        WHERE ${ofParent(tenantId, parentId)} AND ${qualified(t.id)} = o.id::uuid AND ${position} <> o.ord`);
    },
  };
}
