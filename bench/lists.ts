/**
 * (q) Lists flat in the institution's size (issue 20), on PostgreSQL: every list route of the shared fixture table
 * (src/test-support/list-fixtures.ts, the same entries test/list-plans.test.ts proves the plans of), each sort it
 * offers and its searches and filters (a rare value and a common one), page 1 at perPage 20 and 100, in a tenant
 * of SMALL rows of that kind and one of LARGE (and HUGE for the searches and filters, when > 0). Each entry fills
 * tenants of its own. The real app (`buildApp`) listens on a loopback port in this process; each case is
 * LISTS_REQUESTS sequential GETs with an API key (an administrator's session for the session-only routes), one in
 * flight, and all cases of all routes are interleaved over LISTS_ROUNDS rounds, so load from elsewhere falls on
 * all sizes alike. Prints r (requests/s) per size and the ratios r(LARGE)/r(SMALL) and r(HUGE)/r(LARGE) (target
 * ≥ 0.8). Checks: HTTP 200, and the page holds min(perPage, total) items. Each case below the target then runs
 * once more at its larger size with its statements explained as they ran (bench/lists-explain.ts), in the log and
 * in the results (`explain`).
 */
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { buildApp } from "../src/app.js";
import type { Config } from "../src/config/index.js";
import type { Database } from "../src/db/client.js";
import { createContext } from "../src/platform/context.js";
import {
  LIST_FIXTURES,
  type ListFixture,
  type ListQuery,
  listUrl,
  type Seeded,
} from "../src/test-support/list-fixtures.js";
import { captureStatements, type ExplainedStatement, explainStatements } from "./lists-explain.js";
import { ratioOf, recheckBelowTarget } from "./lists-recheck.js";
import { makeKey, makeTenant } from "./seed.js";

export const LISTS_REQUESTS = 20;
export const LISTS_ROUNDS = 3;
const PER_PAGES = [20, 100];
const PASSWORD = "bench lists administrator";

export interface ListsResult {
  sizes: number[];
  cases: {
    route: string;
    path: string;
    query: string;
    perPage: number;
    rps: Record<string, number>;
    ratio: number;
    hugeRatio?: number;
    /**
     * Below target in the interleaved rounds: what those rounds measured, before the case's sizes were measured
     * again side by side (bench/lists-recheck.ts), whose figures `rps`, `ratio` and `hugeRatio` then hold.
     */
    first?: { rps: Record<string, number>; ratio: number; hugeRatio?: number };
    /** Below target: the statements of one request at the larger size, explained (bench/lists-explain.ts). */
    explain?: { size: number; statements: ExplainedStatement[] };
  }[];
  problems: string[];
}

interface Target {
  fixture: ListFixture;
  seeded: Seeded;
  headers: Record<string, string>;
  /** The tenant administrator's e-mail, for a session-only route's sign-in. */
  admin: string;
}

export interface Case {
  fixture: ListFixture;
  query: ListQuery;
  perPage: number;
  size: number;
}

export async function measureLists(
  database: Database,
  config: Config,
  sizes: { small: number; large: number; huge: number },
  log: (line: string) => void,
  /** The fixtures' names to measure (BENCH_LISTS_ONLY); all of them when undefined. */
  only?: readonly string[],
): Promise<ListsResult> {
  const db = database.db;
  const fixtures = LIST_FIXTURES.filter((f) => only === undefined || only.includes(f.name));
  const all = [sizes.small, sizes.large, ...(sizes.huge > 0 ? [sizes.huge] : [])];
  const app = await buildApp(createContext(config, database), { logger: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const targets = new Map<string, Target>();
  const at = (fixture: ListFixture, size: number) => `${fixture.name}|${size}`;
  const elapsed = new Map<string, number>();
  const problems: string[] = [];
  const id = (c: Case) => `${c.fixture.name}|${c.query.name}|${c.perPage}|${c.size}`;
  try {
    for (const fixture of fixtures) {
      // The huge tenant only for an entry with searches or filters: its sorts are compared at LARGE alone.
      const filtered = fixture.queries.some((q) => q.filtered === true);
      for (const size of all) {
        if (size === sizes.huge && !filtered) continue;
        const started = performance.now();
        const tenant = await makeTenant(db, config.plans, "lists", PASSWORD);
        const seeded = await fixture.seed(db, tenant, size);
        const host = `${tenant.slug}.${config.baseDomain}`;
        // A session-only route signs in once seeding is over (below): a session begun now would have expired
        // by the time the measurement reaches it, and every request would answer 401.
        const headers: Record<string, string> =
          fixture.session === true
            ? { host }
            : { host, authorization: `Bearer ${await makeKey(db, tenant, fixture.scopes)}` };
        targets.set(at(fixture, size), { fixture, seeded, headers, admin: `admin@${tenant.slug}.test` });
        log(`(q) ${fixture.name}: seeded ${size} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
    }
    for (const target of targets.values()) {
      if (target.fixture.session !== true) continue;
      target.headers.cookie = await login(app, target.headers.host as string, target.admin);
    }
    const cases: Case[] = [];
    for (const fixture of fixtures) {
      for (const query of fixture.queries) {
        for (const perPage of PER_PAGES) {
          for (const size of all) {
            if (size === sizes.huge && query.filtered !== true) continue;
            cases.push({ fixture, query, perPage, size });
          }
        }
      }
    }
    /** LISTS_REQUESTS sequential requests of one case, checked: their time in ms. */
    const runCase = async (c: Case): Promise<number> => {
      const target = targets.get(at(c.fixture, c.size)) as Target;
      const url = `http://127.0.0.1:${port}${listUrl(c.fixture, target.seeded, c.query, c.perPage)}`;
      const t0 = performance.now();
      for (let i = 0; i < LISTS_REQUESTS; i++) {
        const res = await request(url, { headers: target.headers });
        const body = (await res.body.json()) as { data?: unknown[]; pagination?: { total: number } };
        const what = `${c.fixture.name} ${c.query.name} at ${c.size}`;
        if (res.statusCode !== 200) problems.push(`${what}: status ${res.statusCode}`);
        else if (body.data?.length !== Math.min(c.perPage, body.pagination?.total ?? 0)) {
          problems.push(`${what}: ${body.data?.length} items`);
        }
      }
      return performance.now() - t0;
    };
    for (let round = 0; round <= LISTS_ROUNDS; round++) {
      for (const c of cases) {
        const ms = await runCase(c);
        // Round 0 warms up (prepared statements, the JIT) and is not counted.
        if (round > 0) elapsed.set(id(c), (elapsed.get(id(c)) ?? 0) + ms);
      }
    }
    const rows = tabulate(fixtures, all, sizes, elapsed, id, log);
    await recheckBelowTarget(rows, sizes, runCase, LISTS_REQUESTS, log);
    // Each case under target: its statements at the larger size, explained as they ran, for the reasons.
    for (const row of rows.filter((r) => r.ratio < 0.8 || (r.hugeRatio ?? 1) < 0.8)) {
      const fixture = LIST_FIXTURES.find((f) => f.name === row.route) as ListFixture;
      const query = fixture.queries.find((q) => q.name === row.query) as ListQuery;
      const size = row.ratio < 0.8 ? sizes.large : sizes.huge;
      const target = targets.get(at(fixture, size)) as Target;
      const url = `http://127.0.0.1:${port}${listUrl(fixture, target.seeded, query, row.perPage)}`;
      const statements = await captureStatements(database, async () => {
        await (await request(url, { headers: target.headers })).body.dump();
      });
      row.explain = { size, statements: await explainStatements(database, statements, fixture.tables) };
      for (const e of row.explain.statements) {
        log(
          `(q) explain ${row.route} ${row.query} perPage ${row.perPage} at ${size}: ${e.summary} | ${e.sql}`,
        );
      }
    }
    log(
      `(q) ${rows.filter((r) => r.explain !== undefined).length} of ${rows.length} cases below the 0.8 target`,
    );
    const unique = [...new Set(problems)];
    for (const problem of unique) log(`(q) check failed: ${problem}`);
    return { sizes: all, cases: rows, problems: unique };
  } finally {
    await app.close();
  }
}

/** Each case's r per size (requests/s over the measured rounds) and its ratios, logged as they are made. */
function tabulate(
  fixtures: readonly ListFixture[],
  all: number[],
  sizes: { small: number; large: number; huge: number },
  elapsed: Map<string, number>,
  id: (c: Case) => string,
  log: (line: string) => void,
): ListsResult["cases"] {
  const rps = (c: Case) =>
    Math.round((LISTS_REQUESTS * LISTS_ROUNDS * 1000) / (elapsed.get(id(c)) ?? Number.NaN));
  const rows: ListsResult["cases"] = [];
  for (const fixture of fixtures) {
    for (const query of fixture.queries) {
      for (const perPage of PER_PAGES) {
        const r: Record<string, number> = {};
        for (const size of all) {
          if (size !== sizes.huge || query.filtered === true)
            r[size] = rps({ fixture, query, perPage, size });
        }
        const ratio = ratioOf(r[sizes.large], r[sizes.small]);
        const hugeRatio =
          query.filtered === true && sizes.huge > 0 ? ratioOf(r[sizes.huge], r[sizes.large]) : undefined;
        rows.push({
          route: fixture.name,
          path: fixture.path,
          query: query.name,
          perPage,
          rps: r,
          ratio,
          ...(hugeRatio === undefined ? {} : { hugeRatio }),
        });
        log(
          `(q) ${fixture.name} ${query.name} perPage ${perPage}: ${all
            .filter((s) => r[s] !== undefined)
            .map((s) => `r(${s}) ${r[s]}/s`)
            .join(", ")}, ratio ${ratio}${hugeRatio === undefined ? "" : `, huge ratio ${hugeRatio}`}`,
        );
      }
    }
  }
  return rows;
}

/** The session cookie of the tenant's administrator, for the routes that take no API key. */
async function login(
  app: Awaited<ReturnType<typeof buildApp>>,
  host: string,
  email: string,
): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/api/auth/login",
    headers: { host, "content-type": "application/json" },
    payload: { email, password: PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`(q) login failed: ${res.statusCode} ${res.body}`);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}
