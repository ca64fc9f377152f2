import { type Column, getTableName, type SQL, sql } from "drizzle-orm";

/**
 * A column named with its table (`"users"."tenant_id"`). Drizzle writes columns of a single-table query without the
 * table, so inside a correlated subquery `${users.tenantId}` would bind to the subquery's own `tenant_id`: the
 * tenant condition would compare a column with itself and the subquery could not use its index.
 */
export function qualified(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}
