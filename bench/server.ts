/**
 * The servers under test, in a child process of bench/run.ts so that autocannon (in the parent) and the server
 * each get a core of their own:
 *   (a) a bare Fastify route answering a small JSON object;
 *   (b) a bare Fastify route running the courses page query and the counter read as prepared statements,
 *       with the courses response schema and no auth;
 *   (c) the real app (`buildApp`) as `npm start` builds it, minus request logging (level "warn");
 *   (d) a diagnostic: the same real app, on one more route with the access rule, query schema and response
 *       schema of GET /api/institution/courses but (b)'s prepared handler. c/d is what the way src/ runs the
 *       list's queries costs; d/b is what the auth pipeline and the rest of the app cost;
 *   (e) the real app again, configured for billing (`ServerConfig.billingEnv`: webhook secret, prices, a Stripe
 *       API base nobody listens on), for POST /api/webhooks/stripe; (f) is the same app and route, loaded with
 *       copies of one event instead of distinct ones;
 *   (i), (j) the real app of (c) again, in servers of their own (bench/catalogue.ts): (i)'s with the driver's
 *       statements recorded on demand (`ServerConfig.queryLog`, see logQueries).
 * Each listens on its own port on 127.0.0.1; the ports go to the parent in a "ready" message. Between
 * measurements the parent may ask for payment_events counts ("paymentEvents"), answered through this process's
 * connection: a PGlite data directory serves one process at a time; and for the statements recorded
 * ("queryLog").
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import pg from "pg";
import { buildApp, LOG_REDACT } from "../src/app.js";
import { loadConfig } from "../src/config/index.js";
import type { Database } from "../src/db/client.js";
import { openDatabase } from "../src/db/open-database.js";
import { CoursePage, type CourseRecord, ListCoursesQuery } from "../src/modules/courses/schemas.js";
import { tenantOf } from "../src/platform/auth/request.js";
import { createContext } from "../src/platform/context.js";
import type { App } from "../src/platform/http/types.js";
import { cappedPageEnvelope, exactTotal } from "../src/platform/pagination/capped.js";
import { pageWindow } from "../src/platform/pagination/pagination.js";
import type { ChildMessage, LoggedQuery, ParentMessage, ServerConfig, Variant } from "./protocol.js";
import { PREPARED_ROUTE, SERVER_CONFIG_ENV } from "./protocol.js";
import { pageQuery, totalQuery } from "./queries.js";

/** The pool size `npm start` uses by default (DATABASE_POOL_SIZE); (b), (c) and (d) share one pool. */
const POOL_SIZE = 10;

function send(message: ChildMessage): void {
  process.send?.(message);
}

function bareApp(): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get("/bare", async () => ({ hello: "world", ok: true }));
  return app;
}

/** The unfiltered courses page of one tenant through prepared statements (filters are never sent). */
function preparedPage(database: Database, name: string) {
  const page = pageQuery(database.db).prepare(`bench_${name}_page`);
  const total = totalQuery(database.db).prepare(`bench_${name}_total`);
  return async (tenantId: string, query: { page?: number; perPage?: number }) => {
    const window = pageWindow(query);
    const [rows, counter] = await Promise.all([
      page.execute({ tenantId, limit: window.limit, offset: window.offset }),
      total.execute({ tenantId }),
    ]);
    // The status column is text; repo.ts casts its rows the same way.
    return cappedPageEnvelope(rows as CourseRecord[], exactTotal(counter[0]?.value ?? 0), window);
  };
}

function preparedApp(database: Database, tenantId: string): FastifyInstance {
  const list = preparedPage(database, "b");
  const app = Fastify({ logger: false });
  app.get("/courses", { schema: { response: { 200: CoursePage } } }, () => list(tenantId, {}));
  return app;
}

async function realApp(
  database: Database,
  withPreparedRoute: boolean,
  extraEnv: Record<string, string> = {},
): Promise<FastifyInstance> {
  const appConfig = loadConfig({
    NODE_ENV: "production",
    ...(config.db.kind === "postgres" ? { DATABASE_URL: config.db.url } : { DATA_DIR: config.db.dataDir }),
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    SESSION_SECRET: randomBytes(32).toString("hex"),
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    WORKER: "off",
    LOG_LEVEL: "warn",
    ...extraEnv,
  });
  const app: App = await buildApp(createContext(appConfig, database), {
    logger: { level: "warn", redact: LOG_REDACT },
  });
  if (withPreparedRoute) {
    const list = preparedPage(database, "d");
    app.get(
      PREPARED_ROUTE,
      {
        config: { access: { kind: "authenticated", auth: ["key", "session"], scope: "courses:read" } },
        schema: { hide: true, querystring: ListCoursesQuery, response: { 200: CoursePage } },
      },
      (request) => list(tenantOf(request).id, request.query),
    );
  }
  return app as unknown as FastifyInstance;
}

/** All payment_events rows, and those among them whose event_id is one of `eventIds`. */
async function countPaymentEvents(
  database: Database,
  eventIds: string[],
): Promise<{ total: number; matching: number }> {
  // The ids go as one JSON parameter: tens of thousands of them would exceed the bind-parameter limit.
  const res = (await database.db.execute(sql`
    SELECT count(*)::int AS total,
      count(*) FILTER (WHERE event_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(eventIds)}::jsonb)))::int
        AS matching
    FROM payment_events
  `)) as unknown as { rows: { total: number; matching: number }[] };
  return res.rows[0] ?? { total: 0, matching: 0 };
}

/** What logQueries records while `recording` is on. */
const queryLog = {
  recording: false,
  queries: [] as LoggedQuery[],
  clients: new WeakMap<object, number>(),
  nextClient: 1,
};

/**
 * Wraps pg.Client.prototype.query, through which every statement of the app passes: drizzle's node-postgres
 * session calls it on a pooled client in transactions and on the Pool otherwise, and Pool.query calls it on the
 * client it checks out (with a callback; drizzle's own calls use the promise). Each call is one statement sent
 * (BEGIN and COMMIT included), named prepared statements too. Recording only while the parent asks.
 */
function logQueries(): void {
  type Query = (this: pg.Client, ...args: unknown[]) => unknown;
  const original = pg.Client.prototype.query as unknown as Query;
  const wrapped: Query = function (this: pg.Client, ...args) {
    if (!queryLog.recording) return original.apply(this, args);
    let client = queryLog.clients.get(this);
    if (client === undefined) {
      client = queryLog.nextClient++;
      queryLog.clients.set(this, client);
    }
    const first = args[0];
    const text = typeof first === "string" ? first : ((first as { text?: string } | null)?.text ?? "");
    const entry: LoggedQuery = { client, text: text.replace(/\s+/g, " ").trim().slice(0, 200), ms: 0 };
    queryLog.queries.push(entry);
    const started = performance.now();
    const done = () => {
      entry.ms = Math.round((performance.now() - started) * 100) / 100;
    };
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (...results: unknown[]) => {
        done();
        return (last as (...r: unknown[]) => unknown)(...results);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) result.then(done, done);
    return result;
  };
  pg.Client.prototype.query = wrapped as unknown as typeof pg.Client.prototype.query;
}

const raw = process.env[SERVER_CONFIG_ENV];
if (raw === undefined) throw new Error(`${SERVER_CONFIG_ENV} is not set: run this through bench/run.ts`);
const config = JSON.parse(raw) as ServerConfig;

async function main(): Promise<void> {
  if (config.queryLog === true) logQueries();
  const needsDb = config.variants.some((v) => v !== "a");
  const database = needsDb
    ? await openDatabase(
        config.db.kind === "postgres"
          ? { url: config.db.url, dataDir: ":memory:", poolSize: POOL_SIZE }
          : { dataDir: config.db.dataDir },
      )
    : undefined;

  const apps = new Map<Variant, FastifyInstance>();
  for (const variant of config.variants) {
    if (variant === "a") apps.set(variant, bareApp());
    else if (database === undefined) throw new Error("no database");
    else if (variant === "b") apps.set(variant, preparedApp(database, config.tenantId));
    else if (variant === "c") apps.set(variant, await realApp(database, config.variants.includes("d")));
    else if (variant === "e") apps.set(variant, await realApp(database, false, config.billingEnv));
  }

  const ports: Partial<Record<Variant, number>> = {};
  for (const [variant, app] of apps) {
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    if (address === null || typeof address === "string") throw new Error("no TCP address");
    ports[variant] = address.port;
  }
  // (d) is a route of (c)'s app.
  if (config.variants.includes("d")) ports.d = ports.c;
  // (f) loads (e)'s route with copies of one event.
  if (config.variants.includes("f")) ports.f = ports.e;

  process.on("message", (message: ParentMessage) => {
    if (message.type === "queryLog") {
      if (config.queryLog !== true) {
        send({ type: "error", message: "queryLog: this server does not record statements" });
        return;
      }
      if (message.action === "start") {
        queryLog.queries = [];
        queryLog.recording = true;
        send({ type: "queryLog", requestId: message.requestId, queries: [] });
      } else {
        queryLog.recording = false;
        send({ type: "queryLog", requestId: message.requestId, queries: queryLog.queries });
      }
      return;
    }
    if (message.type === "paymentEvents") {
      if (database === undefined) {
        send({ type: "error", message: "paymentEvents: this server has no database" });
        return;
      }
      countPaymentEvents(database, message.eventIds).then(
        (counts) => send({ type: "paymentEvents", requestId: message.requestId, ...counts }),
        (err: unknown) => send({ type: "error", message: err instanceof Error ? err.message : String(err) }),
      );
      return;
    }
    void (async () => {
      for (const app of apps.values()) await app.close();
      await database?.close();
      // A clean exit, so that `--cpu-prof` gets to write its profile.
      process.exit(0);
    })();
  });
  send({ type: "ready", ports });
}

main().catch((err: unknown) => {
  send({ type: "error", message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
