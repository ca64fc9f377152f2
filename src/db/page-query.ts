import { type Placeholder, sql } from "drizzle-orm";
import type { Executor } from "./client.js";
import { prepared } from "./prepared.js";

/** A filter's values by name; `undefined` means the list is not filtered on it. */
export type FilterValues = Record<string, string | undefined>;

/** A value, or a placeholder that a prepared statement binds at execution. */
export type Bindable = string | Placeholder;

export type PagePlaceholders<F extends FilterValues> = {
  tenantId: Placeholder;
  limit: Placeholder;
  offset: Placeholder;
} & { [K in keyof F]?: Placeholder };

interface PageStatement<R> {
  execute(values: Record<string, unknown>): Promise<R[]>;
}

/**
 * One page of a tenant's list through a prepared statement per filter shape, i.e. per set of filters present
 * (`courses_list`, `courses_list_status_pattern`, …). `build` writes the query with the placeholders it is
 * given: one for the tenant, the page window and each present filter.
 */
export async function runPageQuery<F extends FilterValues, R>(
  db: Executor,
  list: string,
  tenantId: string,
  filter: F,
  window: { limit: number; offset: number },
  build: (placeholders: PagePlaceholders<F>, name: string) => PageStatement<R>,
): Promise<R[]> {
  const present = Object.keys(filter)
    .filter((key) => filter[key] !== undefined)
    .sort();
  const name = [`${list}_list`, ...present].join("_");
  const statement = prepared(db, name, (serverName) => {
    const placeholders: Record<string, Placeholder> = {
      tenantId: sql.placeholder("tenantId"),
      limit: sql.placeholder("limit"),
      offset: sql.placeholder("offset"),
    };
    for (const key of present) placeholders[key] = sql.placeholder(key);
    return build(placeholders as PagePlaceholders<F>, serverName);
  });
  return statement.execute({ ...filter, tenantId, limit: window.limit, offset: window.offset });
}

/** Escapes LIKE wildcards so user input is matched literally. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
