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
  getQuery?(): { sql: string };
}

/** The texts of the page statements sent unnamed (`customPlan`): one per filter shape, so the set stays small. */
const unnamedTexts = new Set<string>();

/**
 * Whether `text` is a page statement that runs unnamed, planned for each request's values. A driver that names
 * no statement (PGlite) cannot show it on the wire; a plan test asks here whether a generic plan can ever run.
 */
export function plannedPerRequest(text: string): boolean {
  return unnamedTexts.has(text);
}

export interface PageQueryOptions {
  /**
   * Filters whose number of matches depends on their value (a search term, a field's value). A shape holding one
   * runs as an unnamed statement, which the server plans for the values of each request: a named one switches
   * to a generic plan after five runs, one plan for a rare term and a common one alike, which can walk the
   * whole tenant. Parsing is then paid per request; the statement's text is still built once.
   */
  customPlan?: readonly string[];
}

/**
 * One page of a tenant's list through a prepared statement per filter shape, i.e. per set of filters present
 * (`courses_list`, `courses_list_status_pattern`, …). `build` writes the query with the placeholders it is
 * given: one for the tenant, the page window and each present filter, and prepares it under the name it is
 * given (empty for an unnamed statement, see `customPlan`).
 */
export async function runPageQuery<F extends FilterValues, R>(
  db: Executor,
  list: string,
  tenantId: string,
  filter: F,
  window: { limit: number; offset: number },
  build: (placeholders: PagePlaceholders<F>, name: string) => PageStatement<R>,
  options: PageQueryOptions = {},
): Promise<R[]> {
  const present = Object.keys(filter)
    .filter((key) => filter[key] !== undefined)
    .sort();
  const name = [`${list}_list`, ...present].join("_");
  const custom = present.some((key) => options.customPlan?.includes(key) === true);
  const statement = prepared(db, name, (named) => {
    const serverName = custom ? "" : named;
    const placeholders: Record<string, Placeholder> = {
      tenantId: sql.placeholder("tenantId"),
      limit: sql.placeholder("limit"),
      offset: sql.placeholder("offset"),
    };
    for (const key of present) placeholders[key] = sql.placeholder(key);
    const built = build(placeholders as PagePlaceholders<F>, serverName);
    const text = built.getQuery?.().sql;
    if (custom && text !== undefined) unnamedTexts.add(text);
    return built;
  });
  return statement.execute({ ...filter, tenantId, limit: window.limit, offset: window.offset });
}

/** Escapes LIKE wildcards so user input is matched literally. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
