/**
 * (w) The SDK's overhead (issue 26), on PostgreSQL: GET /api/institution/courses (perPage 20, 100 courses in the
 * tenant) through the real app listening on a loopback port in this process, called by raw `fetch` (undici's,
 * parsing the JSON) and by the SDK (`aula.courses.list()`, on the same `fetch`), SDK_CONCURRENCY loops at once
 * for SDK_SECONDS per run after SDK_WARMUP_SECONDS of each unmeasured, in the order raw sdk sdk raw, four times.
 * Prints requests/s of each and sdk/raw (target ≥ 0.95), and each client's CPU alone per call against a canned answer (no server: the SDK's own cost, free of
 * the server's noise). Client and server share this process, so the SDK's CPU counts in full against it.
 * Checks: every answer 200 with 20 courses.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { createAula } from "../sdk/src/index.js";
import { buildApp } from "../src/app.js";
import type { Config } from "../src/config/index.js";
import type { Database } from "../src/db/client.js";
import { createContext } from "../src/platform/context.js";
import { insertCourses, makeKey, makeTenant } from "./seed.js";

const SDK_CONCURRENCY = 10;
const SDK_SECONDS = 3;
const SDK_WARMUP_SECONDS = 3;
/** raw sdk sdk raw, four times: load from elsewhere falls on both alike. */
const ORDER = Array.from({ length: 4 }, () => ["raw", "sdk", "sdk", "raw"] as const).flat();
export const SDK_TARGET = 0.95;

export interface SdkResult {
  rps: { raw: number; sdk: number };
  /** Client CPU alone: µs per call of each against a canned answer of the same page (no server, no socket). */
  clientUs: { raw: number; sdk: number };
  ratio: number;
  runs: { client: "raw" | "sdk"; rps: number }[];
  problems: string[];
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export async function measureSdkOverhead(
  database: Database,
  config: Config,
  log: (line: string) => void,
  seconds = SDK_SECONDS,
): Promise<SdkResult> {
  const app = await buildApp(createContext(config, database), { logger: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const connect = buildConnector({});
  // The tenant's host name goes in the URL as in production; the connection goes to the loopback address.
  const agent = new Agent({
    connections: SDK_CONCURRENCY,
    connect: (options, callback) => connect({ ...options, hostname: "127.0.0.1" }, callback),
  });
  const fetch: Fetch = (url, init) =>
    undiciFetch(url, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>;
  const problems: string[] = [];
  try {
    const t = await makeTenant(database.db, config.plans, "sdk", randomBytes(12).toString("hex"));
    await insertCourses(database.db, t.id, 0, 100);
    const apiKey = await makeKey(database.db, t, ["courses:read"]);
    const origin = `http://${t.slug}.${config.baseDomain}:${port}`;
    const url = `${origin}/api/institution/courses?perPage=20`;
    const aula = createAula({ baseUrl: origin, apiKey, fetch });
    const check = (count: number) => {
      if (count !== 20 && problems.length < 5) problems.push(`a page held ${count} courses, not 20`);
    };
    const calls = {
      raw: async () => {
        const res = await fetch(url, {
          headers: { authorization: `Bearer ${apiKey}`, accept: "application/json" },
        });
        if (res.status !== 200 && problems.length < 5) problems.push(`raw fetch answered ${res.status}`);
        check(((await res.json()) as { data: unknown[] }).data.length);
      },
      sdk: async () => {
        const page = await aula.courses.list({ query: { perPage: 20 } });
        check(page.data.length);
      },
    };
    /** SDK_CONCURRENCY loops calling `client` for `forSeconds`: requests/s. */
    const load = async (client: "raw" | "sdk", forSeconds: number) => {
      let done = 0;
      const until = performance.now() + forSeconds * 1000;
      const loop = async () => {
        while (performance.now() < until) {
          await calls[client]();
          done += 1;
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: SDK_CONCURRENCY }, loop));
      return Math.round(done / ((performance.now() - started) / 1000));
    };
    // Warm-up, unmeasured: both paths compiled, the connections open, the pages cached.
    await load("raw", SDK_WARMUP_SECONDS);
    await load("sdk", SDK_WARMUP_SECONDS);
    const runs: SdkResult["runs"] = [];
    for (const client of ORDER) {
      const rps = await load(client, seconds);
      runs.push({ client, rps });
      log(`(w) ${client}: ${rps} requests/s`);
    }
    const clientUs = await clientCost(
      await (await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } })).text(),
    );
    log(`(w) client CPU alone: raw ${clientUs.raw} µs, sdk ${clientUs.sdk} µs per call`);
    const mean = (client: "raw" | "sdk") => {
      const of = runs.filter((r) => r.client === client).map((r) => r.rps);
      return Math.round(of.reduce((s, v) => s + v, 0) / of.length);
    };
    const rps = { raw: mean("raw"), sdk: mean("sdk") };
    return { rps, clientUs, ratio: Math.round((rps.sdk / rps.raw) * 1000) / 1000, runs, problems };
  } finally {
    await agent.close();
    await app.close();
  }
}

/** µs per call of raw fetch + JSON and of the SDK's list, each on a `fetch` answering `page` at once (best of 3). */
async function clientCost(page: string): Promise<{ raw: number; sdk: number }> {
  const canned: Fetch = async () =>
    new Response(page, { status: 200, headers: { "content-type": "application/json; charset=utf-8" } });
  const url = "http://bench.localhost/api/institution/courses?perPage=20";
  const aula = createAula({ baseUrl: "http://bench.localhost", apiKey: "mia_bench", fetch: canned });
  const calls = {
    raw: async () => {
      await (
        await canned(url, { headers: { authorization: "Bearer mia_bench", accept: "application/json" } })
      ).json();
    },
    sdk: async () => {
      await aula.courses.list({ query: { perPage: 20 } });
    },
  };
  const best = { raw: Number.POSITIVE_INFINITY, sdk: Number.POSITIVE_INFINITY };
  for (let round = 0; round < 3; round++) {
    for (const client of ["raw", "sdk"] as const) {
      const started = performance.now();
      for (let i = 0; i < 20_000; i++) await calls[client]();
      best[client] = Math.min(best[client], ((performance.now() - started) * 1000) / 20_000);
    }
  }
  return { raw: Math.round(best.raw * 10) / 10, sdk: Math.round(best.sdk * 10) / 10 };
}
