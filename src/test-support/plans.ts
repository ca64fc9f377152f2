import { createRequire } from "node:module";
import { expect } from "vitest";
import type { Harness } from "./harness.js";

/**
 * Query plans of the statements a request really runs, so a test can prove a list costs what its page costs and
 * not what the tenant holds: a regression (a dropped index, a predicate no index answers, a sort of every row)
 * then fails CI rather than a benchmark.
 */

interface Client {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** PGlite's simple-protocol call; `pg` sends a query without parameters that way through `query`. */
  exec?(text: string): Promise<{ rows: Record<string, unknown>[] }[]>;
}

/** One node of PostgreSQL's JSON plan (`EXPLAIN (FORMAT JSON)`), with the fields the checks read. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Parent Relationship"?: string;
  "Subplan Name"?: string;
  Plans?: PlanNode[];
  [field: string]: unknown;
}

export interface Statement {
  sql: string;
  params: unknown[];
  /**
   * Whether it went to the server as a named prepared statement, the only kind that can switch to a generic plan:
   * what a `pg` pool sent. Undefined on PGlite, which names no statement (see plannedPerRequest).
   */
  named?: boolean;
}

function clientOf(h: Harness): Client {
  return (h.database.db as unknown as { $client: Client }).$client;
}

/**
 * Runs `work` and returns every statement sent to the database meanwhile (PGlite's `query`, or the `pg` pool's),
 * with its parameters: what the app prepared for a request, to be explained as it ran.
 */
export async function captureStatements(h: Harness, work: () => Promise<unknown>): Promise<Statement[]> {
  const client = clientOf(h) as Client & { query: (...args: unknown[]) => unknown };
  const original = client.query;
  const seen: Statement[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const config =
      typeof first === "object" && first !== null ? (first as { text?: string; name?: string }) : undefined;
    const text = typeof first === "string" ? first : config?.text;
    const named = client.exec !== undefined ? undefined : Boolean(config?.name);
    if (text !== undefined) {
      seen.push({
        sql: text,
        params: Array.isArray(second) ? second : [],
        ...(named === undefined ? {} : { named }),
      });
    }
    return original.apply(this, args);
  } as typeof client.query;
  try {
    await work();
  } finally {
    client.query = original;
  }
  return seen;
}

/**
 * The JSON plan of `sql` as the server plans it for these parameter values (a custom plan). With
 * `{ generic: true }`, the plan a named prepared statement switches to after five runs, made without the values
 * (PGlite: `EXPLAIN (GENERIC_PLAN)`, where `params` are ignored; a `pg` pool: see genericPlanOnPool).
 */
export async function explainPlan(
  h: Harness,
  sql: string,
  params: unknown[],
  options: { generic?: boolean; analyze?: boolean } = {},
): Promise<PlanNode> {
  const client = clientOf(h);
  // A generic plan keeps its $1…$n, which the extended protocol would insist on binding: sent as simple text.
  const result =
    options.generic !== true
      ? await client.query(
          `EXPLAIN (${options.analyze === true ? "ANALYZE, " : ""}FORMAT JSON) ${sql}`,
          params,
        )
      : client.exec !== undefined
        ? ((await client.exec(`EXPLAIN (GENERIC_PLAN, FORMAT JSON) ${sql}`))[0] ?? { rows: [] })
        : await genericPlanOnPool(client as unknown as Pool, sql, params);
  const cell = Object.values(result.rows[0] ?? {})[0];
  const parsed = (typeof cell === "string" ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
  return parsed[0]?.Plan as PlanNode;
}

interface PooledClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  escapeLiteral(text: string): string;
  release(): void;
}
interface Pool {
  connect(): Promise<PooledClient>;
}
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils") as {
  prepareValue(v: unknown): unknown;
};

/**
 * The generic plan through a `pg` pool. `EXPLAIN (GENERIC_PLAN)` needs PostgreSQL 16 (CI's server is 15), so the
 * statement is prepared on one connection with `plan_cache_mode = force_generic_plan` and explained at its
 * execution with the values written as literals (EXECUTE takes no bound parameters): the plan a named statement
 * runs after five executions, whatever these values are.
 */
async function genericPlanOnPool(pool: Pool, sql: string, params: unknown[]) {
  const c = await pool.connect();
  const name = "aula_explain_generic";
  try {
    await c.query("BEGIN");
    await c.query("SET LOCAL plan_cache_mode = force_generic_plan");
    await c.query(`PREPARE ${name} AS ${sql}`);
    const literals = params.map((value) => {
      const prepared = prepareValue(value);
      return prepared === null || prepared === undefined ? "NULL" : c.escapeLiteral(String(prepared));
    });
    return await c.query(
      `EXPLAIN (FORMAT JSON) EXECUTE ${name}${literals.length > 0 ? `(${literals.join(", ")})` : ""}`,
    );
  } finally {
    await c.query("ROLLBACK");
    // A prepared statement outlives the transaction; the pooled connection must not keep it.
    await c.query(`DEALLOCATE ${name}`).catch(() => undefined);
    c.release();
  }
}

interface Visit {
  node: PlanNode;
  /** Under a Limit: the node's output is cut to the page (its own input may still be large). */
  bounded: boolean;
  /** Inside a SubPlan: run per row of the outer query, over that row's related rows (its memberships, …). */
  perRow: boolean;
}

function* walk(node: PlanNode, bounded = false, perRow = false): Generator<Visit> {
  yield { node, bounded, perRow };
  const below = bounded || node["Node Type"] === "Limit";
  for (const child of node.Plans ?? []) {
    const sub = child["Parent Relationship"] === "SubPlan" || child["Parent Relationship"] === "InitPlan";
    yield* walk(child, below, perRow || sub);
  }
}

function label(node: PlanNode): string {
  return [node["Node Type"], node["Relation Name"], node["Index Name"]].filter(Boolean).join(" ");
}

/**
 * The rows the scans of `table` in an analysed plan (`explainPlan(…, { analyze: true })`) read: those they returned
 * plus those their filters and rechecks threw away. A window bounded at both ends in its index reads about what it
 * returns; one bounded at one end reads the tenant's past or future too, without any sequential scan to show it.
 */
export function rowsRead(plan: PlanNode, table: string): number {
  let read = 0;
  for (const node of planNodes(plan)) {
    if (node["Relation Name"] !== table) continue;
    const loops = (node["Actual Loops"] as number | undefined) ?? 1;
    const kept = (node["Actual Rows"] as number | undefined) ?? 0;
    const dropped =
      ((node["Rows Removed by Filter"] as number | undefined) ?? 0) +
      ((node["Rows Removed by Index Recheck"] as number | undefined) ?? 0);
    read += (kept + dropped) * loops;
  }
  return read;
}

/** Every node of a plan, depth first. */
export function planNodes(plan: PlanNode): PlanNode[] {
  return [...walk(plan)].map((v) => v.node);
}

/**
 * Fails when the plan reads a tenant's table from end to end or sorts more than a page: a Seq Scan on any of
 * `tables`, or a Sort of the outer query's rows. A top-N Sort under a Limit is accepted only with `allowTopN`,
 * the most rows the planner may expect it to sort (a search sorting the few matches its index found, as the
 * planner chooses for a rare term). A Sort inside a SubPlan orders one row's related rows (a user's class
 * groups) and is not the list's sort.
 */
export function expectFlatPlan(
  plan: PlanNode,
  tables: readonly string[],
  options: { allowTopN?: number } = {},
): void {
  const problems: string[] = [];
  for (const { node, bounded, perRow } of walk(plan)) {
    const type = node["Node Type"];
    if (type === "Seq Scan" && tables.includes(node["Relation Name"] ?? "")) {
      problems.push(`sequential scan: ${label(node)}`);
    }
    if ((type === "Sort" || type === "Incremental Sort") && !perRow) {
      if (!bounded) problems.push(`sort of every row: ${label(node)}`);
      else if ((node["Plan Rows"] as number) > (options.allowTopN ?? 0)) {
        problems.push(`sort of ${node["Plan Rows"]} matches: ${label(node)}`);
      }
    }
  }
  expect(problems, JSON.stringify(plan, null, 1)).toEqual([]);
}
