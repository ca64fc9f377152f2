/**
 * (q)'s reasons: for a case below the 0.8 target, the statements one request of it runs at the larger size, each
 * explained as it ran (EXPLAIN (ANALYZE, FORMAT JSON), the values of that request, a custom plan) and summed up in
 * a line: its execution time, what it scanned or sorted, and how many rows of the list's tables it read. The
 * README's reasons for each case under 0.8 come from these lines.
 */
import type { Database } from "../src/db/client.js";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Sort Method"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

interface Pool {
  query(text: unknown, params?: unknown): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface ExplainedStatement {
  sql: string;
  summary: string;
}

const poolOf = (database: Database) => (database.db as unknown as { $client: Pool }).$client;

/** Every statement sent through the pool while `work` runs, with its parameters. */
export async function captureStatements(database: Database, work: () => Promise<unknown>) {
  const pool = poolOf(database);
  const original = pool.query;
  const seen: { sql: string; params: unknown[] }[] = [];
  pool.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const text = typeof first === "string" ? first : (first as { text?: string } | undefined)?.text;
    if (text !== undefined) seen.push({ sql: text, params: Array.isArray(second) ? second : [] });
    return (original as (...a: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>).apply(this, args);
  } as Pool["query"];
  try {
    await work();
  } finally {
    pool.query = original;
  }
  return seen;
}

function* nodes(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodes(child);
}

/** Rows a scan node read: those it returned and those its filter or recheck dropped, over all its loops. */
const readBy = (n: PlanNode) =>
  ((n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0) + (n["Rows Removed by Index Recheck"] ?? 0)) *
  (n["Actual Loops"] ?? 1);

const fmt = (n: number) => Math.round(n).toLocaleString("en");

/** One line: execution time; the scans of `tables` that read most, every sequential scan and every sort. */
export function summarise(plan: PlanNode, executionMs: number, tables: readonly string[]): string {
  const parts: string[] = [`${executionMs.toFixed(1)} ms`];
  const scans = [...nodes(plan)].filter((n) => tables.includes(n["Relation Name"] ?? ""));
  const read = new Map<string, number>();
  for (const n of scans)
    read.set(n["Relation Name"] as string, (read.get(n["Relation Name"] as string) ?? 0) + readBy(n));
  parts.push(`read ${[...read].map(([t, r]) => `${t} ${fmt(r)}`).join(", ") || "none of the list's tables"}`);
  for (const n of nodes(plan)) {
    if (n["Node Type"] === "Seq Scan" && tables.includes(n["Relation Name"] ?? "")) {
      parts.push(`Seq Scan ${n["Relation Name"]} (${fmt(readBy(n))} rows)`);
    } else if (n["Node Type"] === "Sort" || n["Node Type"] === "Incremental Sort") {
      const input = n.Plans?.[0];
      parts.push(
        `${n["Node Type"]} (${n["Sort Method"] ?? "?"}) of ${fmt(input === undefined ? 0 : (input["Actual Rows"] ?? 0) * (input["Actual Loops"] ?? 1))} rows`,
      );
    }
  }
  const heaviest = scans.sort((a, b) => readBy(b) - readBy(a))[0];
  if (heaviest !== undefined && readBy(heaviest) > 1_000) {
    parts.push(
      `most by ${heaviest["Node Type"]} ${heaviest["Index Name"] ?? heaviest["Relation Name"]} (${fmt(readBy(heaviest))})`,
    );
  }
  return parts.join("; ");
}

/** EXPLAIN (ANALYZE) of each statement of `statements` that reads one of `tables`, summed up. */
export async function explainStatements(
  database: Database,
  statements: { sql: string; params: unknown[] }[],
  tables: readonly string[],
): Promise<ExplainedStatement[]> {
  const pool = poolOf(database);
  const reads = (text: string) =>
    tables.some((t) => new RegExp(`\\b(from|join)\\s+"?${t}"?(\\s|$|\\))`, "i").test(text));
  const out: ExplainedStatement[] = [];
  for (const s of statements.filter((st) => /^\s*(select|with)\b/i.test(st.sql) && reads(st.sql))) {
    try {
      const result = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${s.sql}`, s.params);
      const cell = Object.values(result.rows[0] ?? {})[0];
      const [doc] = (typeof cell === "string" ? JSON.parse(cell) : cell) as {
        Plan: PlanNode;
        "Execution Time": number;
      }[];
      if (doc === undefined) continue;
      out.push({
        sql: s.sql.replace(/\s+/g, " ").slice(0, 300),
        summary: summarise(doc.Plan, doc["Execution Time"], tables),
      });
    } catch (error) {
      out.push({
        sql: s.sql.replace(/\s+/g, " ").slice(0, 300),
        summary: `EXPLAIN failed: ${String(error)}`,
      });
    }
  }
  return out;
}
