import { type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { type TSchema, Type } from "typebox";
import type { Executor } from "../../db/client.js";
import { MAX_PER_PAGE, type PageWindow } from "./pagination.js";

/**
 * How far a list counts the matches of a filter or search that no counter answers. Counting every match costs
 * as much as the institution is large; counting up to a cap is bounded work, and beyond it the total is
 * reported as a lower bound (`totalRelation: "gte"`, as search engines report a capped hit count).
 */
export const TOTAL_CAP = 10_000;

/** `eq`: `total` is exact. `gte`: counting stopped at the cap, so there are at least `total` items. */
export type TotalRelation = "eq" | "gte";

export interface CappedTotal {
  total: number;
  relation: TotalRelation;
}

/** A total read from a trigger-kept counter (or otherwise known exactly): never capped. */
export function exactTotal(total: number): CappedTotal {
  return { total, relation: "eq" };
}

/** The total from a count of at most `TOTAL_CAP + 1` rows: one past the cap means there were more. */
export function capTotal(counted: number): CappedTotal {
  return counted > TOTAL_CAP ? { total: TOTAL_CAP, relation: "gte" } : { total: counted, relation: "eq" };
}

/**
 * Counts the rows of `table` matching `where`, stopping after `TOTAL_CAP + 1`:
 * `SELECT count(*) FROM (SELECT 1 FROM table WHERE … ORDER BY walk LIMIT cap + 1) s`. The statement is not
 * prepared, so the server plans it for the values given: a rare term collects its few matches through its own
 * index; a common one walks `walk`, the order of an index on the tenant's rows (the list's default order), and
 * stops at the cap. Without that order, "the first 10,001 matches" is cheapest as a sequential scan, which
 * reads other tenants' rows too and, when this tenant's are not where it starts, the whole table.
 */
export async function countCapped(
  db: Executor,
  table: PgTable,
  where: SQL,
  walk: SQL[],
): Promise<CappedTotal> {
  const matches = db
    .select({ one: sql`1`.as("one") })
    .from(table)
    .where(where)
    .orderBy(...walk)
    .limit(TOTAL_CAP + 1)
    .as("capped");
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(matches);
  return capTotal(rows[0]?.n ?? 0);
}

/** The `pagination` object of a list whose total may be capped: the four usual fields and `totalRelation`. */
export const CappedPagination = Type.Object(
  {
    page: Type.Integer({ minimum: 1 }),
    perPage: Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE }),
    total: Type.Integer({
      minimum: 0,
      description: `Matching items, counted exactly up to ${TOTAL_CAP}; see totalRelation.`,
    }),
    totalPages: Type.Integer({ minimum: 0, description: "ceil(total / perPage)." }),
    totalRelation: Type.Union([Type.Literal("eq"), Type.Literal("gte")], {
      description:
        `"eq": total is exact. "gte": more than ${TOTAL_CAP} items match; counting stopped there, so total is ` +
        `${TOTAL_CAP} (a lower bound) and totalPages is computed from it. Later pages can still be requested.`,
    }),
  },
  {
    additionalProperties: false,
    description: `Filters and searches count their matches exactly up to ${TOTAL_CAP}, then report a lower bound.`,
  },
);

/** A page of `item` whose total may be capped; its documented example is a one-item page of the item's example. */
export function CappedPageOf<T extends TSchema>(item: T) {
  const itemExamples = (item as { examples?: unknown[] }).examples;
  const pagination = { page: 1, perPage: 20, total: 1, totalPages: 1, totalRelation: "eq" };
  const examples =
    itemExamples === undefined || itemExamples.length === 0
      ? undefined
      : [{ data: [itemExamples[0]], pagination }];
  return Type.Object(
    { data: Type.Array(item), pagination: CappedPagination },
    { additionalProperties: false, ...(examples ? { examples } : {}) },
  );
}

export function cappedPageEnvelope<T>(data: T[], total: CappedTotal, window: PageWindow) {
  return {
    data,
    pagination: {
      page: window.page,
      perPage: window.perPage,
      total: total.total,
      totalPages: Math.ceil(total.total / window.perPage),
      totalRelation: total.relation,
    },
  };
}

/**
 * The sentence a capped list's route description ends with: which totals are exact (read from counters), and
 * that the others are counted up to the cap.
 */
export function cappedTotalNote(exact: string): string {
  return (
    `\`pagination.total\` is exact ${exact}; other filters count their matches exactly up to ${TOTAL_CAP}, ` +
    'beyond which it is a lower bound (`totalRelation: "gte"`).'
  );
}

/**
 * The total a page proves by itself: a page that is not full, and not past the end, is the list's last, so the
 * matches are the rows before it and on it. Lets a filter matching few rows skip its count.
 */
export function totalFromPage(window: PageWindow, rows: readonly unknown[]): CappedTotal | undefined {
  return rows.length < window.limit && (rows.length > 0 || window.offset === 0)
    ? exactTotal(window.offset + rows.length)
    : undefined;
}

/**
 * A trigger-kept counter and the rows matching `where` counted up to the cap (walking `walk`), read in one
 * statement (one snapshot), for a total that is a counter corrected by a few rows: the matches of a `since` are
 * the counter less the rows before it; pending invitations are their counter less those that lapsed. `counted`
 * is undefined when more than the cap match, and the correction cannot be made exactly.
 */
export async function counterAndCapped(
  db: Executor,
  tenantId: string,
  counter: string,
  table: PgTable,
  where: SQL,
  walk: SQL[],
): Promise<{ stored: number; counted: number | undefined }> {
  const matches = db
    .select({ one: sql`1`.as("one") })
    .from(table)
    .where(where)
    .orderBy(...walk)
    .limit(TOTAL_CAP + 1)
    .as("capped");
  const [row] = await db
    .select({
      counted: sql<number>`count(*)::int`,
      stored: sql<string | null>`(SELECT value FROM tenant_counters WHERE tenant_id = ${tenantId}
        AND counter = ${counter})`,
    })
    .from(matches);
  const counted = row?.counted ?? 0;
  return { stored: Number(row?.stored ?? 0), counted: counted > TOTAL_CAP ? undefined : counted };
}
