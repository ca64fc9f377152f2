import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plannedPerRequest } from "../src/db/page-query.js";
import { adminCookie, bearer, type Harness, makeKey, makeTenant } from "../src/test-support/harness.js";
import { LIST_FIXTURES, LISTS_ELSEWHERE, listUrl, type Seeded } from "../src/test-support/list-fixtures.js";
import { startHarnessOnOwnDatabase } from "../src/test-support/own-database.js";
import {
  captureStatements,
  expectFlatPlan,
  explainPlan,
  type PlanNode,
  type Statement,
} from "../src/test-support/plans.js";
import { NOT_FLAT_YET } from "./list-plans-not-flat.js";

/**
 * Issue 20 for every list route: each entry of the shared fixture table (src/test-support/list-fixtures.ts) fills
 * a tenant of its own with SIZE rows of its kind, and each of its queries (every sort the route offers, its
 * search and filters at a rare and a common value) runs page 1 through the app with an API key. Every statement
 * of the request that reads the list's tables is explained as it ran, and the page statement also as the generic
 * plan a prepared statement switches to: none may scan those tables or sort every row, and the page statement
 * must stop at a page (a Limit). A list added without an entry fails the first test.
 */

const SIZE = 20_000;
const PER_PAGE = 100;
/** A rare value's matches may be sorted for the page (or collected for its count): a few, not the tenant. */
const FEW = { allowTopN: 1_000 };

let h: Harness;

beforeAll(async () => {
  h = await startHarnessOnOwnDatabase("aula_list_plans");
}, 120_000);
afterAll(() => h.close());

interface OpenApi {
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  components?: { schemas?: Record<string, unknown> };
}

it("every list route of the app has a fixture (or is proven elsewhere)", () => {
  const doc = h.app.swagger() as unknown as OpenApi;
  const resolve = (node: unknown): string => {
    const text = JSON.stringify(node ?? {});
    const ref = /"\$ref":"#\/components\/schemas\/([^"]+)"/.exec(text);
    return ref === null ? text : `${text}${JSON.stringify(doc.components?.schemas?.[ref[1] as string])}`;
  };
  const lists = Object.entries(doc.paths)
    .filter(([, ops]) => /"pagination"/.test(resolve(ops.get?.responses?.["200"])))
    .map(([path]) => path.replace(/\{(\w+)\}/g, ":$1"))
    .sort();
  expect(lists.length).toBeGreaterThan(20);
  const covered = [...LIST_FIXTURES.map((f) => f.path), ...LISTS_ELSEWHERE].sort();
  expect(lists.filter((p) => !covered.includes(p))).toEqual([]);
  expect(covered.filter((p) => !lists.includes(p))).toEqual([]);
});

it("every known flaw names a query of the table", () => {
  const queries = LIST_FIXTURES.flatMap((f) => f.queries.map((q) => `${f.name}: ${q.name}`));
  expect(Object.keys(NOT_FLAT_YET).filter((key) => !queries.includes(key))).toEqual([]);
});

const reads = (statement: Statement, table: string) =>
  new RegExp(`\\b(from|join)\\s+"?${table}"?(\\s|$|\\))`, "i").test(statement.sql);
const isPage = (statement: Statement, table: string) =>
  reads(statement, table) &&
  /\border\s+by\b/i.test(statement.sql) &&
  !/^\s*select\s+count\(/i.test(statement.sql);

const isCount = (statement: Statement) => /\bcount\(/i.test(statement.sql);

/** expectFlatPlan's findings, each named after the statement, rather than a failure at the first statement. */
function flatProblems(
  label: string,
  plan: PlanNode,
  tables: readonly string[],
  options: { allowTopN?: number },
): string[] {
  try {
    expectFlatPlan(plan, tables, options);
    return [];
  } catch (error) {
    const found = (error as { actual?: unknown }).actual;
    if (!Array.isArray(found)) throw error;
    return found.map((problem) => `${label}: ${problem}`);
  }
}

/** A Limit of the outer query (not inside a per-row SubPlan): the statement stops at a page. */
function stopsAtPage(plan: PlanNode): boolean {
  const outer = (node: PlanNode): PlanNode[] => [
    node,
    ...(node.Plans ?? [])
      .filter((c) => c["Parent Relationship"] !== "SubPlan" && c["Parent Relationship"] !== "InitPlan")
      .flatMap(outer),
  ];
  return outer(plan).some((node) => node["Node Type"] === "Limit");
}

for (const fixture of LIST_FIXTURES) {
  describe(`${fixture.name}: GET ${fixture.path} at ${SIZE.toLocaleString("en")} rows`, () => {
    let seeded: Seeded;
    let headers: Record<string, string>;

    beforeAll(async () => {
      const t = await makeTenant(h);
      seeded = await fixture.seed(h.database.db, t, SIZE);
      headers = {
        host: t.host,
        ...(fixture.session === true
          ? { cookie: await adminCookie(h, t) }
          : bearer(await makeKey(h, t, fixture.scopes))),
      };
    }, 120_000);

    for (const query of fixture.queries) {
      const flaw = NOT_FLAT_YET[`${fixture.name}: ${query.name}`];
      (flaw === undefined ? it : it.fails)(
        `${query.name}: page${flaw ? ` (not flat yet: ${flaw})` : ""}`,
        async () => {
          const url = listUrl(fixture, seeded, query, PER_PAGE);
          let body: { data: unknown[]; pagination: { total: number } } | undefined;
          const statements = await captureStatements(h, async () => {
            const res = await h.inject({ method: "GET", url, headers });
            expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
            body = res.json();
          });
          expect(body?.data.length).toBe(Math.min(PER_PAGE, body?.pagination.total ?? 0));
          if (query.rare !== true) expect(body?.data.length, "a common query fills its page").toBe(PER_PAGE);

          const reading = statements.filter((s) => fixture.tables.some((table) => reads(s, table)));
          const pages = reading.filter((s) => isPage(s, fixture.tables[0] as string));
          expect(pages.length, `a page statement among ${JSON.stringify(reading.map((s) => s.sql))}`).toBe(1);
          // Totals from counters: a list's own total, or a filter's that a counter keeps, counts no rows.
          if (query.filtered !== true || query.counter === true) {
            // (The page statement may count per row, as delivery stats' pending deliveries: not the total.)
            const counting = reading.filter((s) => !pages.includes(s) && isCount(s)).map((s) => s.sql);
            expect(counting, "the total is read from a counter, not counted").toEqual([]);
          }
          const options = query.rare === true ? FEW : {};
          const problems: string[] = [];
          for (const statement of reading) {
            const role = pages.includes(statement) ? "page" : isCount(statement) ? "total" : "other";
            const plan = await explainPlan(h, statement.sql, statement.params);
            problems.push(...flatProblems(`${role} statement`, plan, fixture.tables, options));
            if (role === "page") {
              if (!stopsAtPage(plan)) problems.push("page statement: no Limit, it reads every row");
              // A named statement switches to its generic plan after five runs: that one is flat too. An unnamed
              // one (a search's shape, planned per request) never runs a generic plan: its plan above is all.
              if (statement.named ?? !plannedPerRequest(statement.sql)) {
                const generic = await explainPlan(h, statement.sql, statement.params, { generic: true });
                problems.push(
                  ...flatProblems("page statement, generic plan", generic, fixture.tables, options),
                );
              }
            }
          }
          if (problems.length > 0) {
            throw new Error(
              [...problems, ...reading.map((r) => `${r.sql} ${JSON.stringify(r.params)}`)].join("\n"),
            );
          }
        },
      );
    }
  });
}
