/**
 * `npm run bench`: throughput and latency of the courses list against its own baselines, side by side, of
 * the Stripe webhook endpoint, and of outbound webhook deliveries.
 *
 *   (a) bare Fastify JSON route                         — the ceiling of the HTTP stack on this machine;
 *   (b) the courses page query, prepared, no auth       — what the database part of the route costs;
 *   (c) GET /api/institution/courses with an API key    — the real app, real pipeline;
 *   (d) diagnostic: the real app and pipeline on a route with (b)'s prepared handler — splits c/b into what the
 *       pipeline costs (d/b) and what the way src/ runs the list's queries costs (c/d);
 *   (e) POST /api/webhooks/stripe, distinct signed events (invoice.payment_succeeded round-robin over the
 *       subscribed tenants, 200 by default), each applied with its payment-log row — events/s, and how many were `applied` and
 *       how many `stale` (two events of one tenant committing out of order under concurrency);
 *   (f) POST /api/webhooks/stripe, copies of one already-applied event, each answered `duplicate` — and f/e;
 *   (g0) raw undici POSTs (a keep-alive Pool, at the delivery loop's concurrency) of a delivery's body and
 *       headers to a local receiver (node:http on 127.0.0.2, answering 204) — requests/s;
 *   (g) outbound webhook deliveries: BENCH_DELIVERIES deliveries written by the fan-out (emitEvent), then
 *       drained by startDeliveryLoop with production's options to the same receiver — deliveries/s, and g/g0;
 *   (h) end to end: events emitted one per transaction at 50/s while the loop runs — commit → receipt, p50/p99
 *       (and how much of it is the wait in the outbox, i.e. the loop's poll interval);
 *   (p) the peer, graphile-worker (bench/peer.ts): as (g), N jobs added before its runner starts, each making the
 *       same signed POST to the same receiver from the same kind of worker child — deliveries/s, and g/p; for (g)
 *       and (p), CPU µs per delivery of the worker child and of PostgreSQL;
 *   (pl) the peer as (h): one job added per transaction at 50/s to an idle runner — commit → receipt, p50/p99;
 *       (g) and (p) each run twice, in the order g h p pl p g, and g/g0 and g/p are over the mean of both runs;
 *   (i) POST /api/institution/enrollments/bulk with 1,000 items (existing users by userId, one course) through the
 *       real app, each request on a fresh course and fresh users so every item is `created` — seconds per
 *       request (median of 5, after one unmeasured), and the SQL statements the `pg` driver executed during the
 *       request, per request and per item (recorded in the server child, BEGIN/COMMIT included; split into the
 *       service's transaction and the rest), with those of a 5-item request beside them;
 *   (j) GET /api/institution/enrollments?courseId=…&perPage=100 on a course with 10,000 enrollments, 20
 *       required published lessons in 4 modules (plus a draft and an optional one) and ~100k completions
 *       (user n completed n mod 21 lessons), under autocannon as (c) — page 1 (j1) and page 50 (j50): requests/s,
 *       p50/p99 (bench/catalogue.ts);
 *   (k) fairness between endpoints (bench/fairness.ts): 99 healthy endpoints (204 at once) of two tenants, 200
 *       deliveries each a run, drained by the delivery loop with production's defaults (a child,
 *       bench/fairness-worker.ts, WEBHOOK_TIMEOUT_MS 2000 for the scenario) — (k0) alone, (k1) with a 100th
 *       endpoint that never answers and gets the same share, each run twice (k0 k1 k1 k0): healthy deliveries/s
 *       (loop start → last healthy receipt), and k1/k0 (target ≥ 0.8);
 *   (o) the event loop under a hostile tenant (bench/hostile.ts): tenant A sends every known hostile input
 *       (templates, conditions, inbound body, CSS, HTML, bulk and deep bodies at their limits, a recurrence rule
 *       that never occurs, a backtracking profile-field pattern) while tenant B lists courses every 20 ms —
 *       monitorEventLoopDelay p50/p99/max in the server's process (target max ≤ 50 ms), B's latencies. Alone:
 *       BENCH_SIZES= BENCH_PGLITE_ROWS=0 BENCH_WEBHOOK_TENANTS=0 BENCH_DELIVERIES=0 BENCH_CATALOGUE=0
 *       BENCH_FAIRNESS=0 BENCH_HISTORY=0 BENCH_CALENDAR=0 BENCH_MEDIA_UPLOAD_MIB=0 npm run bench
 *   (l) the claim as history grows (bench/history.ts): claimDue of 100 out of 2,000 due deliveries, timed
 *       directly, with none (l0) and BENCH_HISTORY (l1) succeeded deliveries (and their attempts) in the outbox —
 *       per claim mean/p50/p99, l1/l0 in claims/s (target ≈ 1), the claim's EXPLAIN after each (execution time
 *       and pages touched), then the history purged by the worker's retention job (rows/s); between them (l2),
 *       the same claims with 50,000 due deliveries of an endpoint at its cap ahead of the rest, l2/l0 (target ≥ 0.8);
 *   (r) the gradebook (bench/gradebook.ts): the page of 100 students × 50 items at 1,000 and BENCH_GRADEBOOK
 *       enrollments in the tenant (ratio, target ≥ 0.8), a bulk of 1,000 grades (≤ 1 s, statements counted), one
 *       grade write with its course grade (p50 ≤ 5 ms), and certificate PDFs per second;
 *   (t) reports and jobs (bench/reports.ts): an enrollments report of BENCH_REPORTS rows from POST to its file
 *       (target < 60 s at 1,000,000, peak RSS < 250 MB), and jobs claimed per second by the queue (db/lease.ts);
 *   (u) the gamification leaderboard (bench/leaderboard.ts): its page of 100 at 1,000 and BENCH_LEADERBOARD
 *       learners (ratio, target ≥ 0.8);
 *   (v) an LTI launch (bench/lti.ts): from starting it to the form-posted id_token, p50 and p99;
 *   (w) the TypeScript SDK's overhead (bench/sdk.ts): the courses list called by raw `fetch` and by the SDK on
 *       the same `fetch`, requests/s and sdk/raw (target ≥ 0.95), and each client's CPU per call alone;
 *   (x) RAG (bench/rag.ts): a knowledge base's documents indexed by the job (chunks/s), and search at 10,000
 *       and BENCH_RAG chunks, p50 and p99 (ratio of p50s, target ≥ 0.8);
 *   (y) AI analytics (bench/ai-analytics.ts): GET /ai-analytics/usage over a ledger of BENCH_AI_LEDGER calls;
 *   (z) the admin console's first visit (bench/console.ts): its JavaScript gzipped on the wire (target ≤ 200 kB);
 *
 * On PostgreSQL at 1k, 100k and 1M courses for one tenant (the same tenant, grown between measurements), and (c)
 * on PGlite at 100k; (e) and (f) once on each (after the courses, in a server of their own, bench/webhooks.ts);
 * (g0), (g), (h), (p), (pl) on PostgreSQL only, after (e) and (f) (bench/deliveries.ts); (k) after them, for two
 * tenants of its own (bench/fairness.ts); (i) and (j) on PostgreSQL only, for a tenant of their own, each in a
 * server child of its own (bench/catalogue.ts); (l) last, for a tenant of its own (bench/history.ts).
 * The server runs in a child process (bench/server.ts), autocannon here, so each has a core; likewise the
 * delivery worker (bench/delivery-worker.ts), with the receiver and the emitting here.
 * Prints a table and the ratios c/b and c(1M)/c(1k) against their targets (≥ 0.8, printed, not asserted), a
 * table of (e) and (f) with their checks (every `applied`/`stale` answer has its payment_events row, duplicates
 * add none), a table of (g0), (g), (h) with theirs (every delivery succeeded after one attempt and was received
 * exactly once, sampled signatures verify), a table of (i) and (j) with theirs ((i): every item `created`, the
 * course has 1,000 enrollments and platform_events one enrollment_created row for each; (j): each item of the
 * page read before the load has the progressPercent, lessonsCompleted and lessonsTotal a direct SQL computation
 * gives, the page is newest first with total 10,000, and the load saw no non-2xx) and the EXPLAIN of (j)'s page
 * query at page 50, and writes bench/results/latest.json plus a dated copy.
 *
 * Environment: BENCH_DATABASE_URL (an existing database to use instead of creating aula_bench on
 * 127.0.0.1:5432), BENCH_DURATION / BENCH_WARMUP (seconds, default 10 / 2), BENCH_CONNECTIONS (50),
 * BENCH_SIZES ("1000,100000,1000000"), BENCH_PGLITE_ROWS (100000; 0 skips PGlite), BENCH_WEBHOOK_TENANTS (200; 0
 * skips (e) and (f)), BENCH_DELIVERIES (10000: N of (g) and (p); 0 skips (g0) to (pl)), BENCH_PEER (1; 0 skips (p)
 * and (pl)), BENCH_CATALOGUE (1; 0 skips
 * (i) and (j)), BENCH_FAIRNESS (1; 0 skips (k)), BENCH_HISTORY (1000000: completed deliveries of (l1); 0 skips (l)),
 * BENCH_CALENDAR (1000: events in the user's feed of (n); 0 skips (n)), BENCH_HOSTILE (1; 0 skips (o)),
 * BENCH_LISTS / BENCH_LISTS_HUGE (100000 / 1000000: rows of each list's large tenants in (q), bench/lists.ts; 0 skips),
 * BENCH_LISTS_ONLY ((q) for these lists alone: fixture names, comma-separated, e.g. "class members,tag resources"),
 * BENCH_GRADEBOOK (100000: enrollments of the large tenant of (r), bench/gradebook.ts, against 1,000; 0 skips (r)),
 * BENCH_LTI (1; 0 skips (v), the LTI launch of bench/lti.ts),
 * BENCH_SDK (1; 0 skips (w), the SDK's overhead of bench/sdk.ts),
 * BENCH_REPORTS (1000000: rows of the report of (t), bench/reports.ts; 0 skips (t)),
 * BENCH_LEADERBOARD (100000: learners of the large tenant of (u), bench/leaderboard.ts, against 1,000; 0 skips (u)),
 * BENCH_RAG (100000: chunks of the large knowledge base of (x), bench/rag.ts, against 10,000; 0 skips (x)),
 * BENCH_AI_LEDGER (1000000: calls in the ledger of (y), bench/ai-analytics.ts; 0 skips (y)),
 * BENCH_CONSOLE (1; 0 skips (z), the admin console's first visit of bench/console.ts),
 * BENCH_CPU_PROF (a directory: the server child and the delivery worker run with --cpu-prof and
 * write one profile per start there). Runs with any of these changed (BENCH_SIZES even when empty) write
 * bench/results/latest.tmp.json instead, so quick runs never replace the committed results. Only (i) and (j),
 * in about a minute:
 *   BENCH_SIZES= BENCH_PGLITE_ROWS=0 BENCH_WEBHOOK_TENANTS=0 BENCH_DELIVERIES=0 npm run bench
 *
 * The machine is shared by the server, PostgreSQL and autocannon, so anything else running skews the figures:
 * each measurement records the CPU that other processes used meanwhile ("other cpu", in cores, from /proc).
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import { type Config, loadConfig } from "../src/config/index.js";
import { loadPlanConfig } from "../src/config/plans.js";
import type { Database } from "../src/db/client.js";
import { openDatabase } from "../src/db/open-database.js";
import { type AiAnalyticsResult, measureAiAnalytics } from "./ai-analytics.js";
import { type CalendarFeedResult, measureCalendarFeed } from "./calendar.js";
import {
  BULK_ITEMS,
  type CatalogueCheck,
  type CataloguePlan,
  type CatalogueScenario,
  DEEP_PAGE,
  measureCatalogue,
  PROGRESS_ENROLLMENTS,
} from "./catalogue.js";
import { type ConsoleResult, measureConsole } from "./console.js";
import {
  cpuLine,
  type DeliveryCheck,
  type DeliveryMeasurement,
  type DeliveryScenario,
  FANOUT,
  LATENCY_RATE,
  LOOP,
  measureDeliveries,
} from "./deliveries.js";
import {
  REPEATS as FAIRNESS_REPEATS,
  ROUNDS as FAIRNESS_ROUNDS,
  FAIRNESS_TIMEOUT_MS,
  type FairnessCheck,
  type FairnessScenario,
  measureFairness,
} from "./fairness.js";
import { type GradebookResult, measureGradebook } from "./gradebook.js";
import { type HistoryCheck, type HistoryScenario, measureHistory } from "./history.js";
import { HOSTILE_TARGET_MAX_MS, type HostileMixResult, measureHostileMix } from "./hostile.js";
import { requestJson } from "./http.js";
import { type LeaderboardResult, measureLeaderboard } from "./leaderboard.js";
import { type ListsResult, measureLists } from "./lists.js";
import { type LtiResult, measureLtiLaunch } from "./lti.js";
import { type MediaUploadResult, measureMediaUpload } from "./media-upload.js";
import { measurePeer, PEER_OPTIONS } from "./peer.js";
import type { BenchDb, ChildMessage, LoggedQuery, ParentMessage, ServerConfig, Variant } from "./protocol.js";
import { PREPARED_ROUTE, SERVER_CONFIG_ENV, WEBHOOK_ROUTE } from "./protocol.js";
import { literalPageQuery, pageQuery } from "./queries.js";
import { measureRag, type RagResult } from "./rag.js";
import { measureReports, type ReportsResult } from "./reports.js";
import { measureSdkOverhead, SDK_TARGET, type SdkResult } from "./sdk.js";
import {
  analyze,
  type BenchTenant,
  courseCount,
  insertCourses,
  makeReadKey,
  makeSubscribers,
  makeTenant,
  type Subscriber,
} from "./seed.js";
import { measureStartup, type StartupResult } from "./startup.js";
import {
  type BillingSetup,
  billingSetup,
  GROWTH_PRICE,
  InvoiceEvents,
  nowSeconds,
  OutcomeTally,
  RepeatedEvent,
  type SignedEvent,
} from "./webhooks.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
/** dist-bench/bench/run.js → the project root. */
const ROOT = resolve(HERE, "..", "..");
const RESULTS_DIR = join(ROOT, "bench", "results");
const SERVER_JS = join(HERE, "server.js");

const ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const BENCH_DB_NAME = "aula_bench";
const OTHER_TENANT_ROWS = 50_000;
/** (e)'s events start this long ago (one second apart), and the subscriptions' last event a day before that. */
const WEBHOOK_HISTORY_SECONDS = 30 * 86_400;

// ---------------------------------------------------------------------------------------------- settings

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

const settings = {
  connections: envInt("BENCH_CONNECTIONS", 50),
  warmupSeconds: envInt("BENCH_WARMUP", 2),
  durationSeconds: envInt("BENCH_DURATION", 10),
  sizes: (process.env.BENCH_SIZES ?? "1000,100000,1000000")
    .split(",")
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0)
    .sort((x, y) => x - y),
  pgliteRows: envInt("BENCH_PGLITE_ROWS", 100_000),
  webhookTenants: envInt("BENCH_WEBHOOK_TENANTS", 200),
  deliveries: envInt("BENCH_DELIVERIES", 10_000),
  peer: envInt("BENCH_PEER", 1) > 0,
  catalogue: envInt("BENCH_CATALOGUE", 1) > 0,
  fairness: envInt("BENCH_FAIRNESS", 1) > 0,
  history: envInt("BENCH_HISTORY", 1_000_000),
  calendar: envInt("BENCH_CALENDAR", 1000),
  /** (q): rows of each list's large tenant in the lists scenario (bench/lists.ts, against 1,000); 0 skips (q). */
  lists: envInt("BENCH_LISTS", 100_000),
  /** (q): rows of the tenant each list's searches and filters are also measured at (against BENCH_LISTS); 0 skips. */
  listsHuge: envInt("BENCH_LISTS_HUGE", 1_000_000),
  /** (q): only these lists (their fixtures' names, comma-separated); all when unset. */
  listsOnly: process.env.BENCH_LISTS_ONLY?.split(",").map((name) => name.trim()),
  /** (r): enrollments of the gradebook scenario's large tenant (bench/gradebook.ts, against 1,000); 0 skips (r). */
  gradebook: envInt("BENCH_GRADEBOOK", 100_000),
  /** (v): the LTI launch (bench/lti.ts); 0 skips it. */
  lti: envInt("BENCH_LTI", 1) > 0,
  /** (w): the SDK's overhead against raw fetch (bench/sdk.ts); 0 skips it. */
  sdk: envInt("BENCH_SDK", 1) > 0,
  /** (t): rows of the report run in the reports scenario (bench/reports.ts); 0 skips (t). */
  reports: envInt("BENCH_REPORTS", 1_000_000),
  /** (u): learners of the leaderboard scenario's large tenant (bench/leaderboard.ts, against 1,000); 0 skips (u). */
  leaderboard: envInt("BENCH_LEADERBOARD", 100_000),
  /** (x): chunks of the RAG scenario's large knowledge base (bench/rag.ts, against 10,000); 0 skips (x). */
  rag: envInt("BENCH_RAG", 100_000),
  /** (y): AI calls in the ledger of the analytics scenario (bench/ai-analytics.ts); 0 skips (y). */
  aiLedger: envInt("BENCH_AI_LEDGER", 1_000_000),
  /** (z): the admin console's first visit (bench/console.ts); 0 skips (z). */
  console: envInt("BENCH_CONSOLE", 1) > 0,
  cpuProfDir: process.env.BENCH_CPU_PROF,
  /** (o): the event loop under a hostile tenant (bench/hostile.ts); 0 skips it. */
  hostile: envInt("BENCH_HOSTILE", 1) > 0,
  /** (s): warm starts of `npm start` timed to their first answer (bench/startup.ts); 0 skips (s). */
  startup: envInt("BENCH_STARTUP", 5),
  /** (m): MiB of the local-disk upload (bench/media-upload.ts); 0 skips it. */
  mediaUploadMiB: envInt("BENCH_MEDIA_UPLOAD_MIB", 1024),
};
const customised =
  [
    "BENCH_CONNECTIONS",
    "BENCH_WARMUP",
    "BENCH_DURATION",
    "BENCH_SIZES",
    "BENCH_PGLITE_ROWS",
    "BENCH_WEBHOOK_TENANTS",
    "BENCH_DELIVERIES",
    "BENCH_PEER",
    "BENCH_CATALOGUE",
    "BENCH_FAIRNESS",
    "BENCH_HISTORY",
    "BENCH_CPU_PROF",
    "BENCH_MEDIA_UPLOAD_MIB",
    "BENCH_HOSTILE",
    "BENCH_LISTS",
    "BENCH_LISTS_HUGE",
    "BENCH_LISTS_ONLY",
    "BENCH_GRADEBOOK",
    "BENCH_REPORTS",
    "BENCH_LEADERBOARD",
    "BENCH_RAG",
    "BENCH_AI_LEDGER",
    "BENCH_CONSOLE",
    "BENCH_LTI",
    "BENCH_STARTUP",
    "BENCH_SDK",
  ].some((name) => process.env[name] !== undefined && process.env[name] !== "") ||
  // Empty is not the default here: it measures no size.
  process.env.BENCH_SIZES !== undefined;

// ---------------------------------------------------------------------------------------------- results

const SCENARIO_NAMES: Record<Variant, string> = {
  a: "(a) bare Fastify GET /bare",
  b: "(b) page query, prepared, no auth",
  c: "(c) GET /api/institution/courses + key",
  d: "(d) diagnostic: app + key, prepared handler",
  e: "(e) POST /api/webhooks/stripe, distinct",
  f: "(f) POST /api/webhooks/stripe, duplicates",
};

interface Measurement {
  scenario: Variant | DeliveryScenario | CatalogueScenario | FairnessScenario | HistoryScenario;
  name: string;
  db: "postgres" | "pglite" | "none";
  /**
   * Courses of the measured tenant; for (e) and (f), the number of subscribed tenants; for (g0) requests, (g)
   * deliveries, (h) events; (i) items per request; (j) enrollments of the course.
   */
  rows: number;
  /**
   * Requests per second; for (e) and (f), events per second; (g) deliveries/s; (h) events emitted per second;
   * (i) items enrolled per second at the median request.
   */
  reqPerSec: number;
  latencyMs: { p50: number; p99: number; average: number; max: number };
  requests: { total: number; non2xx: number; errors: number; timeouts: number };
  /** Cores used by processes other than the server, autocannon and PostgreSQL during the measurement. */
  otherCpuCores: number | null;
  /** Cores the hypervisor took from this VM during the measurement. */
  stealCores: number | null;
  /** (e) and (f): what the responses said and what the payment log gained. */
  webhook?: WebhookCheck;
  /** (g0), (g), (h): what the receiver and the delivery log say (bench/deliveries.ts). */
  delivery?: DeliveryCheck;
  /** (i), (j): statements, outcomes, and progress against SQL (bench/catalogue.ts). */
  catalogue?: CatalogueCheck;
  /** (k0), (k1): healthy deliveries against the hanging endpoint's (bench/fairness.ts). */
  fairness?: FairnessCheck;
  /** (l0), (l1): the claim's cost, its plan and the purge (bench/history.ts). */
  history?: HistoryCheck;
}

interface WebhookCheck {
  /** Outcomes read from the response bodies of the measured run ("HTTP <status>" for a non-2xx). */
  outcomes: Record<string, number>;
  /** Events autocannon sent during the measured run, and responses it read. */
  sent: number;
  answered: number;
  /** payment_events rows added by the measured run (counted once the server had finished its last requests). */
  paymentEventsAdded: number;
  /**
   * Rows added whose response nobody read: autocannon closes its connections at the end of the run with a
   * request in flight on each, which the server still completes (at most `connections`, 0 for duplicates).
   */
  addedUnanswered: number;
  /** Failed checks, of the warm-up and of the measured run; empty when everything held. */
  problems: string[];
}

interface PlanSummary {
  rows: number;
  mode:
    | "custom plan (parameter values known at planning)"
    | "generic plan (what a prepared statement may switch to)";
  executionMs: number | null;
  planningMs: number | null;
  indexScanBackward: boolean;
  sorts: boolean;
  plan: string[];
}

interface Ratio {
  name: string;
  value: number;
  target: number | null;
  pass: boolean | null;
}

// ---------------------------------------------------------------------------------------------- helpers

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

function formatRows(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return String(n);
}

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await fn();
  log(`${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return result;
}

interface CoursePageBody {
  data: { id: string; createdAt: string }[];
  pagination: { total: number };
}

function isCoursePage(body: unknown): body is CoursePageBody {
  if (typeof body !== "object" || body === null) return false;
  const { data, pagination } = body as Record<string, unknown>;
  return Array.isArray(data) && typeof pagination === "object" && pagination !== null;
}

/** One request to each endpoint before load: 200, the tenant's total, newest first, (b), (c), (d) agree. */
async function checkEndpoints(targets: Target[], rows: number): Promise<void> {
  const firstIds = new Map<Variant, string>();
  for (const target of targets) {
    const res = await requestJson(target.port, target.path, target.headers);
    if (res.status !== 200) {
      throw new Error(`${SCENARIO_NAMES[target.variant]}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    }
    if (target.variant === "a") continue;
    if (!isCoursePage(res.body)) throw new Error(`${SCENARIO_NAMES[target.variant]}: not a course page`);
    const { data, pagination } = res.body;
    if (pagination.total !== rows || data.length !== Math.min(20, rows)) {
      throw new Error(
        `${SCENARIO_NAMES[target.variant]}: total ${pagination.total} / ${data.length} items, expected ${rows}`,
      );
    }
    for (let i = 1; i < data.length; i++) {
      if ((data[i - 1]?.createdAt ?? "") < (data[i]?.createdAt ?? "")) {
        throw new Error(`${SCENARIO_NAMES[target.variant]}: not newest first`);
      }
    }
    firstIds.set(target.variant, data.map((c) => c.id).join(","));
  }
  const pages = new Set(firstIds.values());
  if (pages.size > 1) throw new Error(`${[...firstIds.keys()].join(", ")} do not return the same page`);
}

// ---------------------------------------------------------------------------------------------- CPU accounting

interface CpuSnapshot {
  seconds: number;
  busy: number;
  steal: number;
  /** This process's CPU seconds. */
  self: number;
  /** CPU seconds of the server child and of PostgreSQL's processes, by pid. */
  ours: Map<number, number>;
}

/** USER_HZ, the unit of /proc CPU times on Linux. */
const CLOCK_TICK = 100;

/** Machine-wide busy CPU time and the part used by us (this process, the server child, PostgreSQL); Linux only. */
function cpuSnapshot(childPid: number | undefined): CpuSnapshot | null {
  try {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1);
    const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
    const busy = ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) / CLOCK_TICK;
    const own = process.cpuUsage();
    const ours = new Map<number, number>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue;
      }
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (comm !== "postgres" && Number(entry) !== childPid) continue;
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ours.set(Number(entry), (Number(rest[11]) + Number(rest[12])) / CLOCK_TICK);
    }
    return {
      seconds: performance.now() / 1000,
      busy,
      steal: (steal ?? 0) / CLOCK_TICK,
      self: (own.user + own.system) / 1e6,
      ours,
    };
  } catch {
    return null;
  }
}

/**
 * Cores used by other processes between two snapshots. Our processes are compared pid by pid: a PostgreSQL
 * backend that exits in between (an idle pool connection closing) takes its whole history with it, which must
 * not count as negative use.
 */
function cpuBetween(
  before: CpuSnapshot | null,
  after: CpuSnapshot | null,
): { other: number | null; steal: number | null } {
  if (before === null || after === null) return { other: null, steal: null };
  const elapsed = after.seconds - before.seconds;
  let ours = after.self - before.self;
  for (const [pid, seconds] of after.ours) ours += seconds - (before.ours.get(pid) ?? 0);
  const other = Math.max(0, after.busy - before.busy - ours) / elapsed;
  return { other: round(other, 2), steal: round((after.steal - before.steal) / elapsed, 2) };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

// ---------------------------------------------------------------------------------------------- server child

interface PaymentEventCounts {
  total: number;
  matching: number;
}

interface RunningServer {
  pid: number | undefined;
  ports: Partial<Record<Variant, number>>;
  stop(): Promise<void>;
  /** payment_events rows, all and those of `eventIds`, counted by the child (protocol.ts, "paymentEvents"). */
  paymentEvents(eventIds: string[]): Promise<PaymentEventCounts>;
  /** With ServerConfig.queryLog: start recording the driver's statements, or take them (protocol.ts). */
  queryLog(action: "start" | "take"): Promise<LoggedQuery[]>;
}

/** The messages of the parent that the child answers, without their requestId. */
type Question =
  | { type: "paymentEvents"; eventIds: string[] }
  | { type: "queryLog"; action: "start" | "take" };

let serverStarts = 0;

/** Node options of a child (server or delivery worker): a CPU profile per start with BENCH_CPU_PROF. */
function cpuProfArgs(tag: string): string[] {
  serverStarts++;
  return settings.cpuProfDir === undefined
    ? []
    : [
        "--cpu-prof",
        `--cpu-prof-dir=${resolve(settings.cpuProfDir)}`,
        `--cpu-prof-name=${String(serverStarts).padStart(2, "0")}-${tag}.cpuprofile`,
      ];
}

function startServer(config: ServerConfig, tag: string): Promise<RunningServer> {
  const execArgv = cpuProfArgs(tag);
  const child: ChildProcess = fork(SERVER_JS, [], {
    env: { ...process.env, [SERVER_CONFIG_ENV]: JSON.stringify(config) },
    execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolveExit) => child.once("exit", () => resolveExit()));
  const pending = new Map<number, { resolve: (m: ChildMessage) => void; reject: (e: Error) => void }>();
  let requestIds = 0;
  const failPending = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  child.on("message", (message: ChildMessage) => {
    if (message.type === "paymentEvents" || message.type === "queryLog") {
      pending.get(message.requestId)?.resolve(message);
      pending.delete(message.requestId);
    } else if (message.type === "error") {
      failPending(new Error(`server child: ${message.message}`));
    }
  });
  child.once("exit", () => failPending(new Error("server child exited")));
  const ask = (question: Question) =>
    new Promise<ChildMessage>((resolveAnswer, reject) => {
      const requestId = ++requestIds;
      pending.set(requestId, { resolve: resolveAnswer, reject });
      child.send({ ...question, requestId } satisfies ParentMessage);
    });
  const paymentEvents = async (eventIds: string[]): Promise<PaymentEventCounts> => {
    const answer = await ask({ type: "paymentEvents", eventIds });
    if (answer.type !== "paymentEvents") throw new Error(`server child answered ${answer.type}`);
    return { total: answer.total, matching: answer.matching };
  };
  const queryLog = async (action: "start" | "take"): Promise<LoggedQuery[]> => {
    const answer = await ask({ type: "queryLog", action });
    if (answer.type !== "queryLog") throw new Error(`server child answered ${answer.type}`);
    return answer.queries;
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.send({ type: "stop" } satisfies ParentMessage);
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolveStart, reject) => {
    child.once("message", (message: ChildMessage) => {
      if (message.type === "ready")
        resolveStart({ pid: child.pid, ports: message.ports, stop, paymentEvents, queryLog });
      else if (message.type === "error") reject(new Error(`server child failed:\n${message.message}`));
    });
    child.once("exit", (code) => reject(new Error(`server child exited with code ${code}`)));
  });
}

// ---------------------------------------------------------------------------------------------- load

interface Target {
  variant: Variant;
  port: number;
  path: string;
  headers: Record<string, string>;
}

function targetsFor(ports: Partial<Record<Variant, number>>, tenant: BenchTenant, secret: string): Target[] {
  const targets: Target[] = [];
  const { a, b, c, d } = ports;
  if (a !== undefined) targets.push({ variant: "a", port: a, path: "/bare", headers: {} });
  if (b !== undefined) targets.push({ variant: "b", port: b, path: "/courses", headers: {} });
  const keyHeaders = (port: number) => ({
    host: `${tenant.slug}.localhost:${port}`,
    authorization: `Bearer ${secret}`,
  });
  if (c !== undefined) {
    targets.push({ variant: "c", port: c, path: "/api/institution/courses", headers: keyHeaders(c) });
  }
  if (d !== undefined) targets.push({ variant: "d", port: d, path: PREPARED_ROUTE, headers: keyHeaders(d) });
  return targets;
}

async function load(target: Target, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${target.port}${target.path}`,
    connections: settings.connections,
    duration: seconds,
    headers: target.headers,
  });
}

async function measure(
  target: Target,
  db: Measurement["db"],
  rows: number,
  serverPid: number | undefined,
): Promise<Measurement> {
  if (settings.warmupSeconds > 0) await load(target, settings.warmupSeconds);
  const before = cpuSnapshot(serverPid);
  const r = await load(target, settings.durationSeconds);
  const cpu = cpuBetween(before, cpuSnapshot(serverPid));
  const m: Measurement = {
    scenario: target.variant,
    name: SCENARIO_NAMES[target.variant],
    db,
    rows,
    reqPerSec: r.requests.average,
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, average: r.latency.average, max: r.latency.max },
    requests: { total: r.requests.total, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts },
    otherCpuCores: cpu.other,
    stealCores: cpu.steal,
  };
  log(
    `${m.name.padEnd(40)} ${formatRows(rows).padStart(5)} ${db.padEnd(8)} ${Math.round(m.reqPerSec)} req/s, ` +
      `p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms, other cpu ${m.otherCpuCores ?? "?"}` +
      (r.non2xx + r.errors > 0 ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ""),
  );
  return m;
}

// ---------------------------------------------------------------------------------------------- webhooks

interface EventContext {
  eventId?: string;
}

/**
 * POST signed events to the webhook for `seconds`. Each request's event comes from `nextEvent`, called in
 * autocannon's setupRequest in this process: building and signing it (JSON.stringify and one HMAC-SHA256 for a
 * distinct event, nothing for a duplicate) is paid by the load generator, which shares the machine with the
 * server, so (e) is measured with a slightly busier load generator than (f). Each response's body goes to
 * `tally`; with one request in flight per connection, the context names the event the response is about.
 */
function loadWebhook(
  port: number,
  seconds: number,
  nextEvent: () => SignedEvent,
  tally: OutcomeTally,
): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}${WEBHOOK_ROUTE}`,
    method: "POST",
    connections: settings.connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (req, context) => {
          const event = nextEvent();
          tally.sent++;
          (context as EventContext).eventId = event.id;
          return { ...req, body: event.body, headers: { ...req.headers, ...event.headers } };
        },
        onResponse: (status, body, context) => tally.record(status, body, (context as EventContext).eventId),
      },
    ],
  });
}

/** The payment_events count once the server is done with requests autocannon left in flight when it stopped. */
async function settledPaymentEvents(server: RunningServer): Promise<number> {
  let last = (await server.paymentEvents([])).total;
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const now = (await server.paymentEvents([])).total;
    if (now === last) return now;
    last = now;
  }
  throw new Error("payment_events kept growing after the load stopped");
}

interface WebhookPhase {
  result: autocannon.Result;
  check: WebhookCheck;
  cpu: { other: number | null; steal: number | null };
}

/**
 * One load of the webhook and its checks: every response 2xx with an expected outcome; for distinct events, each
 * `applied` or `stale` answer has its payment_events row and the rows added beyond those are no more than the
 * requests left unanswered at the end; for duplicates, no row added.
 */
async function webhookPhase(
  server: RunningServer,
  port: number,
  seconds: number,
  nextEvent: () => SignedEvent,
  kind: "distinct" | "duplicates",
): Promise<WebhookPhase> {
  const before = await settledPaymentEvents(server);
  const tally = new OutcomeTally();
  const cpuBefore = cpuSnapshot(server.pid);
  const result = await loadWebhook(port, seconds, nextEvent, tally);
  const cpu = cpuBetween(cpuBefore, cpuSnapshot(server.pid));
  const after = await settledPaymentEvents(server);
  const { matching } = await server.paymentEvents(tally.logged);
  const added = after - before;
  const expected = kind === "distinct" ? ["applied", "stale"] : ["duplicate"];
  const problems: string[] = [];
  const unexpected = Object.entries(tally.byOutcome).filter(([outcome]) => !expected.includes(outcome));
  if (unexpected.length > 0) {
    problems.push(
      `answers other than ${expected.join("/")}: ${JSON.stringify(Object.fromEntries(unexpected))}`,
    );
  }
  if (kind === "distinct") {
    if (matching !== tally.logged.length) {
      problems.push(
        `${tally.logged.length - matching} events answered applied/stale have no payment_events row`,
      );
    }
    const unanswered = tally.sent - tally.answered;
    if (added < tally.logged.length || added - tally.logged.length > unanswered) {
      problems.push(
        `payment_events +${added}, expected ${tally.logged.length} answered applied/stale plus at most ` +
          `${unanswered} sent but unanswered`,
      );
    }
  } else if (added !== 0) {
    problems.push(`duplicates added ${added} payment_events rows`);
  }
  return {
    result,
    cpu,
    check: {
      outcomes: tally.byOutcome,
      sent: tally.sent,
      answered: tally.answered,
      paymentEventsAdded: added,
      addedUnanswered: added - tally.logged.length,
      problems,
    },
  };
}

async function measureWebhook(
  server: RunningServer,
  port: number,
  scenario: "e" | "f",
  db: "postgres" | "pglite",
  tenants: number,
  nextEvent: () => SignedEvent,
): Promise<Measurement> {
  const kind = scenario === "e" ? "distinct" : "duplicates";
  const warmupProblems: string[] = [];
  if (settings.warmupSeconds > 0) {
    const warm = await webhookPhase(server, port, settings.warmupSeconds, nextEvent, kind);
    warmupProblems.push(...warm.check.problems.map((p) => `warm-up: ${p}`));
  }
  const {
    result: r,
    check,
    cpu,
  } = await webhookPhase(server, port, settings.durationSeconds, nextEvent, kind);
  check.problems.unshift(...warmupProblems);
  const m: Measurement = {
    scenario,
    name: SCENARIO_NAMES[scenario],
    db,
    rows: tenants,
    reqPerSec: r.requests.average,
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, average: r.latency.average, max: r.latency.max },
    requests: { total: r.requests.total, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts },
    otherCpuCores: cpu.other,
    stealCores: cpu.steal,
    webhook: check,
  };
  log(
    `${m.name.padEnd(40)} ${String(tenants).padStart(5)} ${db.padEnd(8)} ${Math.round(m.reqPerSec)} events/s, ` +
      `p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms, other cpu ${m.otherCpuCores ?? "?"}, ` +
      `outcomes ${JSON.stringify(check.outcomes)}, payment_events +${check.paymentEventsAdded}` +
      (r.non2xx + r.errors > 0 ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ""),
  );
  for (const problem of check.problems) log(`CHECK FAILED ${m.name} on ${db}: ${problem}`);
  return m;
}

/** Sends one event by hand before a load and checks its answer and what the payment log gained. */
async function deliverOnce(
  server: RunningServer,
  port: number,
  event: SignedEvent,
  outcome: "applied" | "duplicate",
): Promise<void> {
  const before = await server.paymentEvents([event.id]);
  const res = await requestJson(port, WEBHOOK_ROUTE, event.headers, event.body);
  const after = await server.paymentEvents([event.id]);
  const got = (res.body as { outcome?: unknown } | null)?.outcome;
  const added = after.total - before.total;
  if (
    res.status !== 200 ||
    got !== outcome ||
    added !== (outcome === "applied" ? 1 : 0) ||
    after.matching !== 1
  ) {
    throw new Error(
      `webhook check: expected 200 "${outcome}", got HTTP ${res.status} ${JSON.stringify(res.body)}, ` +
        `payment_events +${added}, rows of this event ${after.matching}`,
    );
  }
}

/**
 * (e) then (f) against a server of their own: (e)'s app is the real app with Stripe configured (billingEnv).
 * Before each load one event is delivered by hand and checked: a new one is applied, a repeat is a duplicate.
 */
async function measureWebhooks(
  db: BenchDb,
  label: "postgres" | "pglite",
  tenantId: string,
  subscribers: Subscriber[],
  billing: BillingSetup,
  firstCreated: number,
): Promise<Measurement[]> {
  const server = await startServer(
    { db, tenantId, variants: ["e", "f"], billingEnv: billing.env },
    `${label}-webhooks`,
  );
  try {
    const port = server.ports.e;
    if (port === undefined) throw new Error("the server did not start (e)");
    const events = new InvoiceEvents(subscribers, firstCreated, billing.secret);
    await deliverOnce(server, port, events.next(), "applied");
    const distinct = await measureWebhook(server, port, "e", label, subscribers.length, () => events.next());
    const repeated = events.next();
    await deliverOnce(server, port, repeated, "applied");
    await deliverOnce(server, port, events.resign(repeated), "duplicate");
    const copies = new RepeatedEvent(repeated, events);
    const duplicates = await measureWebhook(server, port, "f", label, subscribers.length, () =>
      copies.current(),
    );
    return [distinct, duplicates];
  } finally {
    await server.stop();
  }
}

/** The subscribed tenants of (e) and (f), and the `created` of the first event. */
async function seedSubscribers(
  database: Database,
): Promise<{ subscribers: Subscriber[]; firstCreated: number }> {
  const firstCreated = nowSeconds() - WEBHOOK_HISTORY_SECONDS;
  const subscribers = await makeSubscribers(
    database.db,
    settings.webhookTenants,
    GROWTH_PRICE,
    firstCreated - 86_400,
  );
  return { subscribers, firstCreated };
}

// ---------------------------------------------------------------------------------------------- EXPLAIN

function summarisePlan(rows: number, mode: PlanSummary["mode"], plan: string[]): PlanSummary {
  const number = (re: RegExp) => {
    const hit = plan.map((line) => re.exec(line)).find((m) => m !== null);
    return hit?.[1] === undefined ? null : Number(hit[1]);
  };
  return {
    rows,
    mode,
    executionMs: number(/Execution Time: ([\d.]+) ms/),
    planningMs: number(/Planning Time: ([\d.]+) ms/),
    indexScanBackward: plan.some((l) => /Index Scan Backward using courses_tenant_created_idx/.test(l)),
    sorts: plan.some((l) => /^(->\s*)?(Incremental )?Sort\b/.test(l.trim())),
    plan,
  };
}

/**
 * The list query planned two ways: with its parameter values known (an unnamed statement, or a prepared one in
 * its first five executions) and forced onto the generic plan a prepared statement may switch to afterwards, with
 * tenant and LIMIT unknown at plan time. Both must scan courses_tenant_created_idx backward without a sort.
 * Each is run three times and the last, warm run is kept.
 */
async function explainList(
  url: string,
  db: Database,
  tenantId: string,
  rows: number,
): Promise<PlanSummary[]> {
  const client = new pg.Client({ connectionString: url, options: "-c TimeZone=UTC" });
  await client.connect();
  const planOf = (result: pg.QueryResult) =>
    result.rows.map((r: Record<string, string>) => r["QUERY PLAN"] ?? "");
  try {
    const literal = literalPageQuery(db.db, tenantId).toSQL();
    let custom: string[] = [];
    for (let i = 0; i < 3; i++) {
      custom = planOf(await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${literal.sql}`, literal.params));
    }
    const prepared = pageQuery(db.db).toSQL();
    await client.query("SET plan_cache_mode = force_generic_plan");
    await client.query(`PREPARE bench_explain AS ${prepared.sql}`);
    let generic: string[] = [];
    for (let i = 0; i < 3; i++) {
      generic = planOf(
        await client.query(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_explain('${tenantId}', 20, 0)`),
      );
    }
    await client.query("DEALLOCATE bench_explain");
    return [
      summarisePlan(rows, "custom plan (parameter values known at planning)", custom),
      summarisePlan(rows, "generic plan (what a prepared statement may switch to)", generic),
    ];
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------- databases

async function adminQuery(text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

async function createBenchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const given = process.env.BENCH_DATABASE_URL;
  if (given !== undefined && given !== "") return { url: given, drop: async () => {} };
  await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DB_NAME} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${BENCH_DB_NAME}`);
  return {
    url: `postgres://postgres@127.0.0.1:5432/${BENCH_DB_NAME}`,
    drop: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DB_NAME} WITH (FORCE)`);
    },
  };
}

interface Seeded {
  database: Database;
  tenant: BenchTenant;
  secret: string;
}

async function seedBase(database: Database, otherRows: number): Promise<Seeded> {
  await database.migrate();
  const plans = loadPlanConfig({});
  const tenant = await makeTenant(database.db, plans, "bench");
  const secret = await makeReadKey(database.db, tenant);
  // Another tenant's courses interleave in time with the measured tenant's, so the tenant filter has work to do.
  const other = await makeTenant(database.db, plans, "other");
  await insertCourses(database.db, other.id, 0, otherRows, 1);
  return { database, tenant, secret };
}

async function grow(seeded: Seeded, from: number, to: number, dbLabel: string): Promise<void> {
  const { database, tenant } = seeded;
  await timed(`${dbLabel}: courses ${formatRows(from)} → ${formatRows(to)}`, () =>
    insertCourses(database.db, tenant.id, from, to),
  );
  await timed(`${dbLabel}: VACUUM (ANALYZE)`, () => analyze(database.db));
  const counted = await courseCount(database.db, tenant.id);
  if (counted !== to) throw new Error(`tenant_counters says ${counted} courses, expected ${to}`);
}

// ---------------------------------------------------------------------------------------------- report

/** Columns 0 and 2 (scenario, db) are left-aligned, the others right-aligned. */
function renderTable(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) =>
      i === 0 || i === 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0),
    );
  return [
    line(header).join(" | "),
    widths.map((w) => "-".repeat(w)).join("-|-"),
    ...body.map((row) => line(row).join(" | ")),
  ].join("\n");
}

const otherCpu = (m: Measurement) => (m.otherCpuCores === null ? "?" : m.otherCpuCores.toFixed(2));

function table(measurements: Measurement[]): string {
  const header = ["scenario", "rows", "db", "req/s", "p50 ms", "p99 ms", "non-2xx", "other cpu"];
  const body = measurements.map((m) => [
    m.name,
    formatRows(m.rows),
    m.db,
    String(Math.round(m.reqPerSec)),
    String(m.latencyMs.p50),
    String(m.latencyMs.p99),
    String(m.requests.non2xx + m.requests.errors),
    otherCpu(m),
  ]);
  return renderTable(header, body);
}

/** (e) and (f): events/s, and the outcomes the responses of the measured run gave. */
function webhookTable(measurements: Measurement[]): string {
  const header = [
    "scenario",
    "tenants",
    "db",
    "events/s",
    "p50 ms",
    "p99 ms",
    "non-2xx",
    "applied",
    "stale",
    "duplicate",
    "other cpu",
  ];
  const body = measurements.map((m) => {
    const outcome = (name: string) => String(m.webhook?.outcomes[name] ?? 0);
    return [
      m.name,
      String(m.rows),
      m.db,
      String(Math.round(m.reqPerSec)),
      String(m.latencyMs.p50),
      String(m.latencyMs.p99),
      String(m.requests.non2xx + m.requests.errors),
      outcome("applied"),
      outcome("stale"),
      outcome("duplicate"),
      otherCpu(m),
    ];
  });
  return renderTable(header, body);
}

/** (g0), (g), (h): rate, latencies, and whether their checks held. */
function deliveryTable(measurements: Measurement[]): string {
  const header = ["scenario", "n", "db", "per s", "p50 ms", "p99 ms", "max ms", "checks", "other cpu"];
  const body = measurements.map((m) => [
    m.name,
    String(m.rows),
    m.db,
    String(Math.round(m.reqPerSec)),
    String(m.latencyMs.p50),
    String(m.latencyMs.p99),
    String(m.latencyMs.max),
    (m.delivery?.problems.length ?? 0) === 0 ? "ok" : "FAILED",
    otherCpu(m),
  ]);
  return renderTable(header, body);
}

/** One line per delivery measurement: what the receiver and the delivery log say. */
function deliveryChecks(measurements: Measurement[]): string[] {
  return measurements.map((m) => {
    const d = m.delivery;
    if (d === undefined) return "";
    const ms = (l: { p50: number; p99: number } | undefined) =>
      `p50 ${l?.p50 ?? "?"} / p99 ${l?.p99 ?? "?"} ms`;
    const verdict = d.problems.length === 0 ? "ok" : `FAILED: ${d.problems.join("; ")}`;
    let what: string;
    if (m.scenario === "g0") {
      what = `the receiver took ${d.received} requests, the sender completed ${d.expected} in ${d.seconds} s`;
    } else {
      what =
        `${d.expected} deliveries, ${d.statuses.succeeded ?? 0} succeeded after one attempt, received ` +
        `${d.received} (duplicates ${d.duplicates}, missing ${d.missing}), signatures verified ` +
        `${d.signaturesVerified}/${d.signaturesVerified + d.signatureFailures} sampled`;
      if (m.scenario === "p" || m.scenario === "pl") {
        what =
          `${d.expected} jobs, ${d.statuses.completed ?? 0} completed, ${d.statuses.failed ?? 0} failed, received ` +
          `${d.received} (duplicates ${d.duplicates}, missing ${d.missing}), signatures verified ` +
          `${d.signaturesVerified}/${d.signaturesVerified + d.signatureFailures} sampled`;
      }
      if (m.scenario === "h") {
        what +=
          `; commit → attempt start ${ms(d.queueWaitMs)} (the loop polls every ${d.loop?.pollMs} ms when idle), ` +
          `attempt start → receipt ${ms(d.sendToReceiptMs)}`;
      }
      if (m.scenario === "pl") {
        what += `; commit → task start ${ms(d.queueWaitMs)}, task start → receipt ${ms(d.sendToReceiptMs)}`;
      }
      const cpu = cpuLine(d.cpuPerDeliveryUs);
      if (cpu !== undefined) what += `; ${cpu}`;
    }
    return `  ${String(m.scenario).padEnd(2)} ${what} — ${verdict}`;
  });
}

/** (i), (j): rate, latencies, and whether their checks held. */
function catalogueTable(measurements: Measurement[]): string {
  const header = [
    "scenario",
    "n",
    "db",
    "per s",
    "p50 ms",
    "p99 ms",
    "max ms",
    "non-2xx",
    "checks",
    "other cpu",
  ];
  const body = measurements.map((m) => [
    m.name,
    formatRows(m.rows),
    m.db,
    String(Math.round(m.reqPerSec)),
    String(m.latencyMs.p50),
    String(m.latencyMs.p99),
    String(m.latencyMs.max),
    String(m.requests.non2xx + m.requests.errors),
    (m.catalogue?.problems.length ?? 0) === 0 ? "ok" : "FAILED",
    otherCpu(m),
  ]);
  return renderTable(header, body);
}

/**
 * (i): seconds, statements per request and per item, the events written, and the statements of the median
 * request; (j): the page read before the load against SQL.
 */
function catalogueChecks(measurements: Measurement[]): string[] {
  const out: string[] = [];
  for (const m of measurements) {
    const c = m.catalogue;
    if (c === undefined) continue;
    const verdict = c.problems.length === 0 ? "ok" : `FAILED: ${c.problems.join("; ")}`;
    const b = c.bulk;
    const p = c.progress;
    if (b !== undefined) {
      const outcomes = Object.entries(b.outcomes)
        .map(([k, v]) => `${v} ${k}`)
        .join(", ");
      const stated = (xs: number[]) => (new Set(xs).size === 1 ? String(xs[0]) : xs.join("/"));
      out.push(
        `  ${m.scenario.padEnd(3)} ${b.seconds.length} requests of ${b.items} items: median ${b.medianSeconds} s ` +
          `(${b.seconds.join(", ")} s); items ${outcomes}; enrollment_created events per request ` +
          `${stated(b.eventsPerRequest)} — ${verdict}`,
        `      SQL statements per request: ${stated(b.statements)} (${b.perItem} per item) = ` +
          `${stated(b.inTransaction)} in the service's transaction (BEGIN and COMMIT included) + ` +
          `${stated(b.outside)} outside it; at ${b.small.items} items: ${b.small.statements} ` +
          `(${b.small.inTransaction} in the transaction)`,
        "      the median request's statements (connection, ms, text):",
        ...b.medianRequestQueries.map(
          (q) => `        #${q.client} ${q.ms.toFixed(2).padStart(8)} ms  ${q.text.slice(0, 110)}`,
        ),
      );
    }
    if (p !== undefined) {
      const sample =
        p.sample === null
          ? ""
          : `; first item app ${p.sample.app.progressPercent}% ${p.sample.app.lessonsCompleted}/` +
            `${p.sample.app.lessonsTotal}, SQL ${p.sample.sql.progressPercent}% ` +
            `${p.sample.sql.lessonsCompleted}/${p.sample.sql.lessonsTotal}`;
      out.push(
        `  ${m.scenario.padEnd(3)} page ${p.page} of ${p.perPage}: total ${p.total} (${p.enrollments} ` +
          `enrollments, ${p.completions} completions, ${p.requiredLessons} required lessons); ` +
          `${p.itemsChecked - p.mismatches}/${p.itemsChecked} items' progress as SQL computes it, ` +
          `${p.distinctProgress} distinct lessonsCompleted${sample} — ${verdict}`,
      );
    }
  }
  return out;
}

/** (k0), (k1): healthy deliveries/s, the healthy attempts' durations, and the hanging endpoint's share. */
function fairnessTable(measurements: Measurement[]): string {
  const header = [
    "scenario",
    "n",
    "db",
    "per s",
    "p50 ms",
    "p99 ms",
    "/hang",
    "/hang at once",
    "checks",
    "other cpu",
  ];
  const body = measurements.map((m) => [
    m.name,
    String(m.rows),
    m.db,
    String(Math.round(m.reqPerSec)),
    String(m.latencyMs.p50),
    String(m.latencyMs.p99),
    String(m.fairness?.hangingDeliveries ?? 0),
    String(m.fairness?.hangingInFlight ?? "?"),
    (m.fairness?.problems.length ?? 0) === 0 ? "ok" : "FAILED",
    otherCpu(m),
  ]);
  return renderTable(header, body);
}

function fairnessChecks(measurements: Measurement[]): string[] {
  return measurements.map((m) => {
    const f = m.fairness;
    if (f === undefined) return "";
    const verdict = f.problems.length === 0 ? "ok" : `FAILED: ${f.problems.join("; ")}`;
    return (
      `  ${m.scenario} ${f.healthyExpected} healthy deliveries in ${f.seconds} s (runs: ${f.runs.join(", ")}/s), ` +
      `${f.statuses.succeeded ?? 0} ` +
      `succeeded after one attempt, received ${f.healthyReceived} (duplicates ${f.duplicates}, missing ` +
      `${f.missing}); /hang: ${f.hangingDeliveries} deliveries, ${f.hangingRequests} requests held, attempts ` +
      `${JSON.stringify(f.hangingAttempts)}, at most ${f.hangingInFlight} at once (the receiver held at most ` +
      `${f.peakHangingOpen} open on /hang, ${f.peakOpen} in all); healthy receipts paused at most ` +
      `${f.longestGapMs} ms, ${f.gapsOverMs} ms in pauses over 50 ms ` +
      `(config: concurrency ${f.config.concurrency}, per endpoint ${f.config.endpointConcurrency}) — ${verdict}`
    );
  });
}

/** (l0), (l2), (l1): the claim's cost per call with nothing else, a capped endpoint's backlog ahead, a history. */
function historyTable(measurements: Measurement[]): string {
  const header = [
    "scenario",
    "done",
    "db",
    "per s",
    "mean ms",
    "p50 ms",
    "p99 ms",
    "table",
    "checks",
    "other cpu",
  ];
  const body = measurements.map((m) => [
    m.name,
    formatRows(m.rows),
    m.db,
    String(Math.round(m.reqPerSec)),
    String(m.latencyMs.average),
    String(m.latencyMs.p50),
    String(m.latencyMs.p99),
    String(m.history?.tableRows ?? "?"),
    (m.history?.problems.length ?? 0) === 0 ? "ok" : "FAILED",
    otherCpu(m),
  ]);
  return renderTable(header, body);
}

function historyChecks(measurements: Measurement[]): string[] {
  const out: string[] = [];
  for (const m of measurements) {
    const h = m.history;
    if (h === undefined) continue;
    const verdict = h.problems.length === 0 ? "ok" : `FAILED: ${h.problems.join("; ")}`;
    out.push(
      `  ${m.scenario} ${h.claims} claims took ${h.claimedMin}–${h.claimedMax} deliveries each; ` +
        `${h.completedRows} completed deliveries and ${h.attemptRows} attempts of the scenario` +
        (h.seedSeconds === undefined ? "" : ` (inserted in ${h.seedSeconds} s)`) +
        (h.planExecutionMs === undefined
          ? ""
          : `; EXPLAIN ANALYZE ${h.planExecutionMs ?? "?"} ms (median of 5), ${h.planBuffers ?? "?"} buffers`) +
        ` — ${verdict}`,
    );
    const p = h.purge;
    if (p !== undefined) {
      out.push(
        `     history removed by ${p.method}: ${p.rows} rows in ${p.seconds} s (${p.rowsPerSecond} rows/s); ` +
          `completed left ${p.completedLeft}, pending kept ${p.pendingKept}`,
      );
    }
  }
  return out;
}

/** One line per webhook measurement: what the payment log gained against what the responses said. */
function webhookChecks(measurements: Measurement[]): string[] {
  return measurements.map((m) => {
    const w = m.webhook;
    if (w === undefined) return "";
    const logged = (w.outcomes.applied ?? 0) + (w.outcomes.stale ?? 0);
    const staleShare = logged === 0 ? 0 : (w.outcomes.stale ?? 0) / logged;
    const what =
      m.scenario === "e"
        ? `payment_events +${w.paymentEventsAdded} = ${logged} answered applied/stale + ${w.addedUnanswered} ` +
          `completed after autocannon closed its connections (${w.sent - w.answered} unanswered); ` +
          `stale ${(staleShare * 100).toFixed(2)}%`
        : `payment_events +${w.paymentEventsAdded} for ${w.answered} answers`;
    const verdict = w.problems.length === 0 ? "ok" : `FAILED: ${w.problems.join("; ")}`;
    return `  ${m.scenario} ${m.db.padEnd(8)} ${what} — ${verdict}`;
  });
}

function ratios(measurements: Measurement[]): Ratio[] {
  const find = (scenario: Variant, db: Measurement["db"], rows: number) =>
    measurements.find((m) => m.scenario === scenario && m.db === db && m.rows === rows)?.reqPerSec;
  const pg = (scenario: Variant, rows: number) =>
    find(scenario, scenario === "a" ? "none" : "postgres", rows);
  const out: Ratio[] = [];
  const ratio = (name: string, x: number | undefined, y: number | undefined, target: number | null) => {
    if (x === undefined || y === undefined || y === 0) return;
    const value = round(x / y, 3);
    out.push({ name, value, target, pass: target === null ? null : value >= target });
  };
  const at = (rows: number) => formatRows(rows);
  for (const rows of settings.sizes) ratio(`c/b at ${at(rows)}`, pg("c", rows), pg("b", rows), 0.8);
  const smallest = settings.sizes[0];
  const largest = settings.sizes[settings.sizes.length - 1];
  if (smallest !== undefined && largest !== undefined && largest !== smallest) {
    const label = (v: Variant) => `${v}(${at(largest)})/${v}(${at(smallest)})`;
    ratio(label("c"), pg("c", largest), pg("c", smallest), 0.8);
    ratio(label("b"), pg("b", largest), pg("b", smallest), null);
  }
  for (const rows of settings.sizes) {
    ratio(`d/b at ${at(rows)} (pipeline)`, pg("d", rows), pg("b", rows), null);
    ratio(`c/d at ${at(rows)} (repo queries)`, pg("c", rows), pg("d", rows), null);
  }
  for (const rows of settings.sizes) ratio(`c/a at ${at(rows)}`, pg("c", rows), pg("a", rows), null);
  if (settings.pgliteRows > 0) {
    const r = settings.pgliteRows;
    ratio(`c pglite/c postgres at ${at(r)}`, find("c", "pglite", r), pg("c", r), null);
  }
  const hook = (scenario: Variant, db: Measurement["db"]) =>
    measurements.find((m) => m.scenario === scenario && m.db === db)?.reqPerSec;
  for (const db of ["postgres", "pglite"] as const) {
    ratio(`f/e ${db} (duplicates/distinct)`, hook("f", db), hook("e", db), null);
  }
  ratio("e pglite/e postgres", hook("e", "pglite"), hook("e", "postgres"), null);
  // Over every run of the scenario: (g) and (p) run twice each, in the order g … p p g.
  const delivery = (scenario: DeliveryScenario) => {
    const runs = measurements.filter((m) => m.scenario === scenario).map((m) => m.reqPerSec);
    return runs.length === 0 ? undefined : runs.reduce((sum, x) => sum + x, 0) / runs.length;
  };
  // Issue 11's targets: a quarter of raw POSTs, and at least the peer's rate in the same run.
  ratio("g/g0 (deliveries/raw POSTs)", delivery("g"), delivery("g0"), 0.25);
  ratio("g/p (ours/graphile-worker deliveries/s)", delivery("g"), delivery("p"), 1);
  const catalogue = (scenario: CatalogueScenario) =>
    measurements.find((m) => m.scenario === scenario)?.reqPerSec;
  ratio(`j${DEEP_PAGE}/j1 (deep page/first page)`, catalogue("j50"), catalogue("j1"), null);
  const own = (scenario: FairnessScenario | HistoryScenario) =>
    measurements.find((m) => m.scenario === scenario)?.reqPerSec;
  ratio("k1/k0 (healthy, hanging/none)", own("k1"), own("k0"), 0.8);
  ratio(`l1/l0 (claims/s, ${formatRows(settings.history)}/0 done)`, own("l1"), own("l0"), 0.8);
  const planMs = (scenario: HistoryScenario) =>
    measurements.find((m) => m.scenario === scenario)?.history?.planExecutionMs ?? undefined;
  ratio("l1/l0 (claim EXPLAIN execution ms)", planMs("l1"), planMs("l0"), null);
  const pages = (scenario: HistoryScenario) =>
    measurements.find((m) => m.scenario === scenario)?.history?.planBuffers ?? undefined;
  ratio("l1/l0 (claim EXPLAIN buffers)", pages("l1"), pages("l0"), null);
  ratio("l2/l0 (claims/s, 50k due of a capped endpoint ahead/none)", own("l2"), own("l0"), 0.8);
  ratio("l2/l0 (claim EXPLAIN execution ms)", planMs("l2"), planMs("l0"), null);
  return out;
}

// ---------------------------------------------------------------------------------------------- main

/** The app's configuration for a scenario that runs the real app in this process against the bench database. */
function benchAppConfig(databaseUrl: string): Config {
  return loadConfig({
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    LOG_LEVEL: "warn",
    WORKER: "off",
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = loadavg();
  log(`load average ${loadAtStart.map((l) => l.toFixed(2)).join(" ")} on ${cpus().length} cores`);
  if ((loadAtStart[0] ?? 0) > 0.5) log("the machine is not idle: other processes will skew the figures");
  const measurements: Measurement[] = [];
  const explains: PlanSummary[] = [];
  const cataloguePlans: CataloguePlan[] = [];
  const seedSeconds: Record<string, number> = {};
  // (s) first, on the idle machine: a warm `npm start` to its first answer.
  let startup: StartupResult | undefined;
  if (settings.startup > 0) {
    startup = await timed("(s) npm start: one cold start, then warm starts to the first answer", () =>
      measureStartup(ROOT, settings.startup),
    );
    log(
      `(s) warm start ${startup.medianWarmSeconds} s median (runs ${startup.warmSeconds.join(", ")}; cold ` +
        `${startup.coldSeconds} s; target ≤ ${startup.targetSeconds} s)`,
    );
  }
  const billing = await billingSetup();

  // PostgreSQL: one tenant grown 1k → 100k → 1M; (a), (b), (c) at each size.
  const pgDb = await createBenchDatabase();
  let postgresVersion = "";
  let calendarFeed: CalendarFeedResult | undefined;
  let lists: ListsResult | undefined;
  let gradebook: GradebookResult | undefined;
  let ltiLaunch: LtiResult | undefined;
  let sdkOverhead: SdkResult | undefined;
  let reports: ReportsResult | undefined;
  let leaderboard: LeaderboardResult | undefined;
  let rag: RagResult | undefined;
  let aiAnalytics: AiAnalyticsResult | undefined;
  let consoleVisit: ConsoleResult | undefined;
  try {
    const database = await openDatabase({ url: pgDb.url, dataDir: ":memory:", poolSize: 2 });
    try {
      const seeded = await timed("postgres: migrate, tenants, key, other tenant's courses", () =>
        seedBase(database, OTHER_TENANT_ROWS),
      );
      const version = (await adminQuery("SHOW server_version")).rows[0] as { server_version: string };
      postgresVersion = version.server_version;
      let rows = 0;
      for (const size of settings.sizes) {
        const t0 = performance.now();
        await grow(seeded, rows, size, "postgres");
        seedSeconds[`postgres ${formatRows(rows)}→${formatRows(size)}`] = (performance.now() - t0) / 1000;
        rows = size;
        const plans = await explainList(pgDb.url, database, seeded.tenant.id, rows);
        explains.push(...plans);
        for (const p of plans) {
          log(
            `EXPLAIN at ${formatRows(rows)}, ${p.mode}: ${p.executionMs} ms` +
              `, index scan backward: ${p.indexScanBackward}, sort: ${p.sorts}`,
          );
        }
        const db: BenchDb = { kind: "postgres", url: pgDb.url };
        const server = await startServer(
          { db, tenantId: seeded.tenant.id, variants: ["a", "b", "c", "d"] },
          `postgres-${formatRows(rows)}`,
        );
        try {
          const targets = targetsFor(server.ports, seeded.tenant, seeded.secret);
          await checkEndpoints(targets, rows);
          for (const target of targets) {
            const db = target.variant === "a" ? "none" : "postgres";
            measurements.push(await measure(target, db, rows, server.pid));
          }
        } finally {
          await server.stop();
        }
      }
      // (e) and (f): the webhook, on the same database (its tables are apart from the courses').
      if (settings.webhookTenants > 0) {
        const { subscribers, firstCreated } = await timed(
          `postgres: ${settings.webhookTenants} subscribed tenants`,
          () => seedSubscribers(database),
        );
        const db: BenchDb = { kind: "postgres", url: pgDb.url };
        measurements.push(
          ...(await measureWebhooks(db, "postgres", seeded.tenant.id, subscribers, billing, firstCreated)),
        );
      }
      // (g0), (g), (h): outbound webhook deliveries, a tenant of their own on the same database.
      if (settings.deliveries > 0) {
        const delivered: DeliveryMeasurement[] = await measureDeliveries(database, pgDb.url, {
          deliveries: settings.deliveries,
          warmupSeconds: settings.warmupSeconds,
          durationSeconds: settings.durationSeconds,
          log,
          cpuMeter: (pid) => {
            const before = cpuSnapshot(pid);
            return () => cpuBetween(before, cpuSnapshot(pid));
          },
          execArgv: cpuProfArgs("postgres-deliveries"),
          peer: settings.peer ? measurePeer : undefined,
        });
        measurements.push(...delivered);
      }
      // (k): fairness between endpoints, two tenants of its own; it deletes its deliveries when done.
      if (settings.fairness) {
        measurements.push(
          ...(await measureFairness(database, pgDb.url, {
            log,
            cpuMeter: (pid) => {
              const before = cpuSnapshot(pid);
              return () => cpuBetween(before, cpuSnapshot(pid));
            },
            execArgv: cpuProfArgs("postgres-fairness"),
          })),
        );
      }
      // (i), (j): bulk enrollment and the progress read, a tenant of their own on the same database.
      if (settings.catalogue) {
        const catalogue = await measureCatalogue(database, pgDb.url, {
          connections: settings.connections,
          warmupSeconds: settings.warmupSeconds,
          durationSeconds: settings.durationSeconds,
          log,
          cpuMeter: (pid) => {
            const before = cpuSnapshot(pid);
            return () => cpuBetween(before, cpuSnapshot(pid));
          },
          startServer,
        });
        measurements.push(...catalogue.measurements);
        cataloguePlans.push(...catalogue.plans);
        Object.assign(seedSeconds, catalogue.seedSeconds);
      }
      // (n): a user's iCalendar feed (bench/calendar.ts), a tenant of its own.
      if (settings.calendar > 0) {
        const appConfig = benchAppConfig(pgDb.url);
        calendarFeed = await measureCalendarFeed(database, appConfig, settings.calendar, log);
      }
      // (q): every list's sorts, searches and filters at 1k against BENCH_LISTS (bench/lists.ts).
      if (settings.lists > 0) {
        const appConfig = benchAppConfig(pgDb.url);
        const sizes = { small: 1000, large: settings.lists, huge: settings.listsHuge };
        lists = await measureLists(database, appConfig, sizes, log, settings.listsOnly);
      }
      // (r): the gradebook page, a bulk of grades, one grade write, certificate PDFs (bench/gradebook.ts).
      if (settings.gradebook > 0) {
        const appConfig = benchAppConfig(pgDb.url);
        gradebook = await measureGradebook(
          database,
          appConfig,
          { small: 1000, large: settings.gradebook },
          log,
        );
      }
      // (v): an LTI launch, OIDC initiation to the signed id_token (bench/lti.ts).
      if (settings.lti) ltiLaunch = await measureLtiLaunch(database, benchAppConfig(pgDb.url), log);
      // (w): the SDK's overhead on the courses list, against raw fetch (bench/sdk.ts).
      if (settings.sdk) sdkOverhead = await measureSdkOverhead(database, benchAppConfig(pgDb.url), log);
      // (t): a report of BENCH_REPORTS rows streamed to its file, and the job queue's claims (bench/reports.ts).
      if (settings.reports > 0) {
        reports = await measureReports(database, benchAppConfig(pgDb.url), settings.reports, log);
      }
      // (u): the gamification leaderboard's page at 1,000 and BENCH_LEADERBOARD learners (bench/leaderboard.ts).
      if (settings.leaderboard > 0) {
        leaderboard = await measureLeaderboard(
          database,
          benchAppConfig(pgDb.url),
          { small: 1000, large: settings.leaderboard },
          log,
        );
      }
      // (x): RAG indexing and search at 10,000 and BENCH_RAG chunks (bench/rag.ts).
      if (settings.rag > 0) {
        rag = await measureRag(
          database,
          benchAppConfig(pgDb.url),
          { small: 10_000, large: settings.rag },
          log,
        );
      }
      // (y): AI usage analytics over a ledger of BENCH_AI_LEDGER calls (bench/ai-analytics.ts).
      if (settings.aiLedger > 0) {
        aiAnalytics = await measureAiAnalytics(database, benchAppConfig(pgDb.url), settings.aiLedger, log);
      }
      // (z): the admin console's first visit, on the wire (bench/console.ts).
      if (settings.console) consoleVisit = await measureConsole(database, benchAppConfig(pgDb.url), log);
      // (l): the claim with and without a large history, last (it writes and purges BENCH_HISTORY rows).
      if (settings.history > 0) {
        measurements.push(
          ...(await measureHistory(database, {
            databaseUrl: pgDb.url,
            rows: settings.history,
            log,
            cpuMeter: () => {
              const before = cpuSnapshot(undefined);
              return () => cpuBetween(before, cpuSnapshot(undefined));
            },
          })),
        );
      }
    } finally {
      await database.close();
    }
  } finally {
    await pgDb.drop();
  }

  // PGlite: (c) only, seeded into a data directory the child then opens (PGlite serves one process at a time).
  if (settings.pgliteRows > 0) {
    const dataDir = mkdtempSync(join(tmpdir(), "aula-bench-pglite-"));
    try {
      const t0 = performance.now();
      const database = await openDatabase({ dataDir });
      let seeded: Seeded;
      let hooks: { subscribers: Subscriber[]; firstCreated: number } | undefined;
      try {
        seeded = await timed("pglite: migrate, tenants, key, other tenant's courses", () =>
          seedBase(database, Math.min(OTHER_TENANT_ROWS, settings.pgliteRows / 10)),
        );
        await grow(seeded, 0, settings.pgliteRows, "pglite");
        if (settings.webhookTenants > 0) {
          hooks = await timed(`pglite: ${settings.webhookTenants} subscribed tenants`, () =>
            seedSubscribers(database),
          );
        }
      } finally {
        await database.close();
      }
      seedSeconds[`pglite 0→${formatRows(settings.pgliteRows)}`] = (performance.now() - t0) / 1000;
      const server = await startServer(
        { db: { kind: "pglite", dataDir }, tenantId: seeded.tenant.id, variants: ["c"] },
        `pglite-${formatRows(settings.pgliteRows)}`,
      );
      try {
        const targets = targetsFor(server.ports, seeded.tenant, seeded.secret);
        await checkEndpoints(targets, settings.pgliteRows);
        for (const target of targets) {
          measurements.push(await measure(target, "pglite", settings.pgliteRows, server.pid));
        }
      } finally {
        await server.stop();
      }
      if (hooks !== undefined) {
        const db: BenchDb = { kind: "pglite", dataDir };
        measurements.push(
          ...(await measureWebhooks(
            db,
            "pglite",
            seeded.tenant.id,
            hooks.subscribers,
            billing,
            hooks.firstCreated,
          )),
        );
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  // Report.
  const computed = ratios(measurements);
  const hooks = measurements.filter((m) => m.webhook !== undefined);
  const deliveries = measurements.filter((m) => m.delivery !== undefined);
  const catalogue = measurements.filter((m) => m.catalogue !== undefined);
  const fairness = measurements.filter((m) => m.fairness !== undefined);
  const history = measurements.filter((m) => m.history !== undefined);
  const courses = measurements.filter(
    (m) =>
      m.webhook === undefined &&
      m.delivery === undefined &&
      m.catalogue === undefined &&
      m.fairness === undefined &&
      m.history === undefined,
  );
  const out: string[] = courses.length > 0 ? ["", table(courses)] : [];
  if (hooks.length > 0) {
    out.push("", webhookTable(hooks), "", "webhook checks (measured runs):", ...webhookChecks(hooks));
  }
  if (deliveries.length > 0) {
    out.push(
      "",
      deliveryTable(deliveries),
      "  per s: requests/s (g0), deliveries/s (g, p), events emitted/s (h), jobs added/s (pl); p50/p99/max: the",
      "  POST round trip as undici saw it (g0), the attempts' duration_ms in the delivery log (g) or the client's",
      "  durationMs in the task (p), event or job commit → receipt (h, pl)",
      "",
      "delivery checks:",
      ...deliveryChecks(deliveries),
    );
  }
  if (catalogue.length > 0) {
    out.push(
      "",
      catalogueTable(catalogue),
      "  (i): per s = items enrolled/s at the median request; p50 = the median request, p99/max = the slowest",
      `  of the measured requests; (j): requests/s and autocannon's latencies, ${PROGRESS_ENROLLMENTS} enrollments`,
      "",
      "catalogue checks:",
      ...catalogueChecks(catalogue),
    );
  }
  if (fairness.length > 0) {
    out.push(
      "",
      fairnessTable(fairness),
      `  per s: healthy deliveries/s (loop start → last healthy receipt); p50/p99: the healthy attempts' duration_ms;`,
      `  /hang never answers, the worker's WEBHOOK_TIMEOUT_MS is ${FAIRNESS_TIMEOUT_MS} ms in (k)`,
      "",
      "fairness checks:",
      ...fairnessChecks(fairness),
    );
  }
  if (history.length > 0) {
    out.push(
      "",
      historyTable(history),
      "  per s: claims/s at the median claim (1000 / p50); mean/p50/p99: one claimDue of 100 out of 2,000 due",
      "",
      "history checks:",
      ...historyChecks(history),
    );
    const plan = history.find((m) => m.scenario === "l1")?.history?.plan;
    if (plan !== undefined) {
      out.push("", "EXPLAIN (ANALYZE, BUFFERS) of the claim at (l1):", ...plan.map((l) => `  ${l}`));
    }
  }
  out.push("", "ratios (req/s; events/s for e and f; deliveries/s over requests/s for g/g0):");
  for (const r of computed) {
    const verdict =
      r.pass === null ? "" : r.pass ? `  PASS (target ≥ ${r.target})` : `  MISS (target ≥ ${r.target})`;
    out.push(`  ${r.name.padEnd(34)} ${r.value.toFixed(2)}${verdict}`);
  }
  const largestPlans = explains.filter((p) => p.rows === settings.sizes[settings.sizes.length - 1]);
  for (const p of largestPlans) {
    out.push("", `EXPLAIN (ANALYZE, BUFFERS) of the list query at ${formatRows(p.rows)} courses, ${p.mode}:`);
    out.push(...p.plan.map((line) => `  ${line}`));
  }
  const deepPlan = cataloguePlans.find((p) => p.query.includes("generic"));
  if (cataloguePlans.length > 0) {
    out.push("", "EXPLAIN (ANALYZE, BUFFERS) of (j)'s statements, execution time:");
    for (const p of cataloguePlans) {
      out.push(`  ${p.query.padEnd(40)} ${p.executionMs ?? "?"} ms (planning ${p.planningMs ?? "?"} ms)`);
    }
  }
  if (deepPlan !== undefined) {
    out.push(
      "",
      `EXPLAIN (ANALYZE, BUFFERS) of (j)'s ${deepPlan.query}:`,
      ...deepPlan.plan.map((l) => `  ${l}`),
    );
  }
  const disturbed = measurements.filter((m) => (m.otherCpuCores ?? 0) > 0.2);
  if (disturbed.length > 0) {
    out.push(
      "",
      `warning: other processes used > 0.2 cores during ${disturbed.length} measurement(s) ` +
        "(column 'other cpu'); rerun on an idle machine for figures to compare.",
    );
  }
  const failed = measurements.filter(
    (m) =>
      (m.webhook?.problems.length ?? 0) > 0 ||
      (m.delivery?.problems.length ?? 0) > 0 ||
      (m.catalogue?.problems.length ?? 0) > 0 ||
      (m.fairness?.problems.length ?? 0) > 0 ||
      (m.history?.problems.length ?? 0) > 0,
  );
  if (failed.length > 0) {
    out.push(
      "",
      `error: the checks of ${failed.length} webhook, delivery, catalogue, fairness or history measurement(s) ` +
        "failed (see above)",
    );
    process.exitCode = 1;
  }
  let hostileMix: HostileMixResult | undefined;
  if (settings.hostile) {
    const pgHostile = await createBenchDatabase();
    const database = await openDatabase({ url: pgHostile.url, dataDir: ":memory:", poolSize: 10 });
    try {
      await database.migrate();
      const appConfig = loadConfig({
        NODE_ENV: "production",
        DATABASE_URL: pgHostile.url,
        SESSION_SECRET: randomBytes(32).toString("hex"),
        SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
        LOG_LEVEL: "warn",
        WORKER: "off",
      });
      hostileMix = await timed("(o) the event loop under a hostile tenant", () =>
        measureHostileMix(database, appConfig, log),
      );
    } finally {
      await database.close();
      await pgHostile.drop();
    }
    const o = hostileMix;
    out.push(
      "",
      "(o) event loop under a hostile tenant (PostgreSQL, the app in the bench process, B polling every 20 ms):",
      `  event-loop delay p50 ${o.loopDelayMs.p50} ms, p99 ${o.loopDelayMs.p99} ms, max ${o.loopDelayMs.max} ms ` +
        `(target max <= ${HOSTILE_TARGET_MAX_MS} ms: ${o.verdict}); tenant B: ${o.bRequests} requests, ` +
        `p50 ${o.bLatencyMs.p50} ms, p99 ${o.bLatencyMs.p99} ms, max ${o.bLatencyMs.max} ms, ${o.bErrors} not 200`,
      ...(o.stalledOn === null ? [] : [`  stopped: ${o.stalledOn} held the server past the cap`]),
      ...o.inputs.map((i) => `  ${i.label.padEnd(56)} ${i.status}  loop delay up to ${i.loopMaxMs} ms`),
    );
  }
  let mediaUpload: MediaUploadResult | undefined;
  if (settings.mediaUploadMiB > 0) {
    const pgMedia = await createBenchDatabase();
    try {
      mediaUpload = await timed(`(m) ${settings.mediaUploadMiB} MiB upload through the local disk`, () =>
        measureMediaUpload(ROOT, settings.mediaUploadMiB, pgMedia.url),
      );
    } finally {
      await pgMedia.drop();
    }
    out.push(
      "",
      `(m) upload of ${settings.mediaUploadMiB} MiB (local disk, PostgreSQL): ` +
        `${mediaUpload.megabytesPerSecond.toFixed(0)} MB/s, complete ${mediaUpload.completeSeconds.toFixed(2)} s ` +
        `(${mediaUpload.status}); server peak RSS ${mediaUpload.peakRssMB.toFixed(0)} MB ` +
        `(${mediaUpload.peakBeforeMB.toFixed(0)} MB before it; at rest ${mediaUpload.rssBeforeMB.toFixed(0)} MB, ` +
        `+${mediaUpload.growthMB.toFixed(0)} MB during it)`,
    );
  }
  if (gradebook !== undefined) {
    const g = gradebook;
    out.push(
      "",
      "(r) gradebook (bench/gradebook.ts), PostgreSQL:",
      `  r1 page of 100 students × 50 items: ${Object.entries(g.page.rps)
        .map(([size, r]) => `${r} req/s at ${size} enrollments`)
        .join(", ")}; ratio ${g.page.ratio} (target ≥ 0.8)`,
      `  r2 bulk of ${g.bulk.items} grades: median ${g.bulk.medianSeconds} s (${g.bulk.seconds.join(", ")}), ` +
        `${g.bulk.statements} statements (target ≤ 1 s)`,
      `  r3 one grade write: p50 ${g.write.p50Ms} ms, p99 ${g.write.p99Ms} ms (target p50 ≤ 5 ms)`,
      `  r4 certificate PDFs: ${g.pdf.perSecond}/s at ${g.pdf.concurrency} in flight (median ${g.pdf.bytesMedian} bytes)`,
      `  checks: ${g.problems.length === 0 ? "all passed" : g.problems.join("; ")}`,
    );
  }
  if (ltiLaunch !== undefined) {
    out.push(
      "",
      "(v) LTI launch (bench/lti.ts), PostgreSQL:",
      `  v1 launch start + OIDC authorization to the signed id_token: p50 ${ltiLaunch.p50Ms} ms, ` +
        `p99 ${ltiLaunch.p99Ms} ms over ${ltiLaunch.launches}`,
      `  checks: ${ltiLaunch.problems.length === 0 ? "all passed" : ltiLaunch.problems.join("; ")}`,
    );
  }
  if (sdkOverhead !== undefined) {
    const w = sdkOverhead;
    out.push(
      "",
      "(w) the TypeScript SDK against raw fetch (bench/sdk.ts), GET /api/institution/courses, PostgreSQL:",
      `  w1 raw fetch ${w.rps.raw} requests/s, SDK ${w.rps.sdk} requests/s: sdk/raw ${w.ratio} ` +
        `(target ≥ ${SDK_TARGET}; runs ${w.runs.map((r) => `${r.client} ${r.rps}`).join(", ")})`,
      `  w2 client CPU alone per call: raw ${w.clientUs.raw} µs, SDK ${w.clientUs.sdk} µs`,
      `  checks: ${w.problems.length === 0 ? "all passed" : w.problems.join("; ")}`,
    );
  }
  if (reports !== undefined) {
    const r = reports;
    out.push(
      "",
      "(t) reports and jobs (bench/reports.ts), PostgreSQL:",
      `  t1 enrollments report of ${r.rows} rows (CSV, ${r.fileBytes} bytes): ${r.seconds} s, ${r.rowsPerSecond} rows/s ` +
        `(target < 60 s at 1,000,000); peak RSS ${r.rssPeakMB} MB, ${r.rssBeforeMB} MB before (target < 250 MB)`,
      `  t2 job claims (db/lease.ts): ${r.claims.perSecond} jobs/s over ${r.claims.jobs} jobs`,
      `  checks: ${r.problems.length === 0 ? "all passed" : r.problems.join("; ")}`,
    );
  }
  if (leaderboard !== undefined) {
    const l = leaderboard;
    out.push(
      "",
      "(u) leaderboard (bench/leaderboard.ts), PostgreSQL:",
      `  page of 100: ${Object.entries(l.rps)
        .map(([size, r]) => `${r} req/s at ${size} learners`)
        .join(", ")}; ratio ${l.ratio} (target ≥ 0.8)`,
      `  checks: ${l.problems.length === 0 ? "all passed" : l.problems.join("; ")}`,
    );
  }
  if (rag !== undefined) {
    const x = rag;
    out.push(
      "",
      "(x) RAG (bench/rag.ts), PostgreSQL:",
      `  x1 indexing: ${x.indexing.chunks} chunks in ${x.indexing.seconds} s, ${x.indexing.chunksPerSecond} chunks/s`,
      `  x2 search (topK 8): ${Object.entries(x.search)
        .map(([size, s]) => `p50 ${s.p50} ms, p99 ${s.p99} ms at ${size} chunks`)
        .join("; ")}; ratio of p50s ${x.ratio} (target ≥ 0.8)`,
      `  checks: ${x.problems.length === 0 ? "all passed" : x.problems.join("; ")}`,
    );
  }
  if (aiAnalytics !== undefined) {
    const y = aiAnalytics;
    out.push(
      "",
      `(y) AI analytics (bench/ai-analytics.ts), PostgreSQL: ${y.calls} calls, ${y.rollupRows} rollup rows`,
      ...Object.entries(y.queries).map(([name, q]) => `  ${name}: p50 ${q.p50} ms, p99 ${q.p99} ms`),
      `  checks: ${y.problems.length === 0 ? "all passed" : y.problems.join("; ")}`,
    );
  }
  if (consoleVisit !== undefined) {
    const z = consoleVisit;
    out.push(
      "",
      `(z) admin console (bench/console.ts): first visit ${(z.jsGzipBytes / 1000).toFixed(1)} kB of JavaScript ` +
        `gzipped on the wire (target ≤ 200 kB; the build says ${(z.buildJsGzipBytes / 1000).toFixed(1)}), ` +
        `${(z.cssGzipBytes / 1000).toFixed(1)} kB of CSS, ${z.files} files`,
      `  checks: ${z.problems.length === 0 ? "all passed" : z.problems.join("; ")}`,
    );
  }
  const elapsed = (Date.now() - started) / 1000;
  out.push("", `total bench time ${Math.round(elapsed)} s`);
  process.stdout.write(`${out.join("\n")}\n`);

  const now = new Date();
  const report = {
    generatedAt: now.toISOString(),
    ...(calendarFeed === undefined ? {} : { calendarFeed }),
    ...(hostileMix === undefined ? {} : { hostileMix }),
    ...(lists === undefined ? {} : { lists }),
    ...(gradebook === undefined ? {} : { gradebook }),
    ...(ltiLaunch === undefined ? {} : { ltiLaunch }),
    ...(sdkOverhead === undefined ? {} : { sdkOverhead }),
    ...(reports === undefined ? {} : { reports }),
    ...(leaderboard === undefined ? {} : { leaderboard }),
    ...(rag === undefined ? {} : { rag }),
    ...(aiAnalytics === undefined ? {} : { aiAnalytics }),
    ...(consoleVisit === undefined ? {} : { consoleVisit }),
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? "",
      postgres: postgresVersion,
      loadAverageAtStart: loadAtStart,
    },
    settings: { ...settings, cpuProfDir: settings.cpuProfDir ?? null, otherTenantRows: OTHER_TENANT_ROWS },
    notes: [
      "The server under test runs in a child process (bench/server.ts); autocannon runs in the parent.",
      "(a) bare Fastify, one JSON route. (b) bare Fastify running the courses page query and the tenant_counters " +
        "read as Drizzle prepared statements, with the CoursePage response schema, no auth. (c) the real app " +
        "(buildApp, logger at level warn), GET /api/institution/courses, Host <slug>.localhost, Bearer API key.",
      "(c) uses a key with scopes [courses:read] going through the standard pipeline (tenant from Host, key " +
        "lookup, per-hour and per-minute rate-limit windows counted in memory, scope check); its tier is " +
        "'custom' with limits of 1e9 so the windows never refuse, since a 'standard' key (100/min) would " +
        "measure 429s after 100 requests.",
      "PostgreSQL: one tenant grown 1k → 100k → 1M between measurements, plus another tenant's courses; " +
        "VACUUM (ANALYZE) after each growth. PGlite: (c) only.",
      "(d) is a diagnostic: route bench-prepared-courses added to (c)'s app with the same access rule, query " +
        "and response schemas as the courses list, and (b)'s prepared handler. d/b is the cost of the pipeline " +
        "and the app around the handler; c/d the cost of how src/ builds and sends the list's queries " +
        "(≈ 1 when they are prepared).",
      "otherCpuCores: CPU used by processes other than the server, autocannon and PostgreSQL during a " +
        "measurement (from /proc); figures taken while it is high are not comparable.",
      "Targets (printed, not asserted): c/b ≥ 0.8 and c(1M)/c(1k) ≥ 0.8.",
      "(e) and (f): POST /api/webhooks/stripe on the real app configured for billing (webhook secret, a growth " +
        "price, a Stripe API base nobody listens on), in a server start of their own after the courses " +
        "measurements; rows = subscribed tenants (each with an active growth subscription), reqPerSec = events/s. " +
        "(e) sends distinct invoice.payment_succeeded events (basil shape) round-robin over the tenants, created " +
        "one second apart, so each applies from the invoice without a Stripe call; an event committing after a " +
        "newer one of its tenant answers 'stale' (webhook.outcomes). (f) sends one already-applied event again " +
        "and again, each answered 'duplicate'; all copies take the same advisory lock (the event id's), so they " +
        "are serialised in the database. Events are built and signed (HMAC-SHA256) in autocannon's setupRequest, " +
        "i.e. by the load generator.",
      "webhook.paymentEventsAdded counts rows once the server finished; it exceeds the applied/stale answers by " +
        "webhook.addedUnanswered, the requests in flight when autocannon closed its connections (≤ connections), " +
        "which the server completed. Every applied/stale answer is checked to have its row; webhook.problems " +
        "lists failed checks.",
      "(g0), (g), (h), PostgreSQL only (bench/deliveries.ts): the receiver is a bare node:http server on " +
        "127.0.0.2 (OUTBOUND_ALLOW_CIDRS=127.0.0.2/32) in the parent, answering 204; the sender is a child " +
        "process (bench/delivery-worker.ts) that opens the context as `npm run worker` does and runs " +
        "startDeliveryLoop with the defaults it takes from the config (outbound.delivery: concurrency " +
        `${LOOP.concurrency}, endpointConcurrency ${LOOP.endpointConcurrency}, pollMs ${LOOP.pollMs}; logger ` +
        "at level warn, so no per-attempt info line). (g0) posts a delivery-sized " +
        "body with delivery-shaped headers (signed once) through an undici Pool of `concurrency` keep-alive " +
        "connections for BENCH_DURATION: requests/s, latency = request round trip. (g) writes BENCH_DELIVERIES " +
        `deliveries through the fan-out (emitEvent of lesson_completed events matching ${FANOUT} automations of ` +
        "one tenant) with the loop stopped, ANALYZEs the outbox tables (as autovacuum would; unanalyzed, the " +
        "claim's plan reads every delivery of the batch's automations) and VACUUMs graphile-worker's (so that no " +
        "pass pays for the other queue's garbage; (p) vacuums ours), then starts the loop: reqPerSec = deliveries / (loop start → last " +
        "receipt); latency = the attempts' duration_ms. A warm-up of N deliveries runs first (with BENCH_WARMUP " +
        `> 0). (h) emits ${LATENCY_RATE} quiz_submitted events/s, one transaction each, for BENCH_DURATION with ` +
        "the loop running; latency = commit (acknowledged) → receipt; delivery.queueWaitMs is commit → " +
        "the attempt's started_at (delivery_attempt_log) and delivery.sendToReceiptMs the rest. Checks: every delivery succeeded " +
        "after one attempt and was received exactly once by webhook-id, nothing else was received, every 50th " +
        "request's signature verifies (standardwebhooks Webhook.verify); delivery.problems lists failures.",
      "(p), (pl), PostgreSQL only (bench/peer.ts, bench/peer-worker.ts; BENCH_PEER=0 skips them): graphile-worker " +
        `(run() in the same worker child, after (h) with our loop stopped; concurrency ${PEER_OPTIONS.concurrency}, ` +
        `maxPoolSize ${PEER_OPTIONS.maxPoolSize}, localQueue.size ${PEER_OPTIONS.localQueueSize}, ` +
        `completeJobBatchDelay ${PEER_OPTIONS.completeJobBatchDelay}, pollInterval default, LISTEN/NOTIFY on) ` +
        "with a task `deliver` whose payload is what a delivery row carries (id, url, headers, body, the " +
        "automation's sealed secret) and which opens the secret and POSTs through send.ts's sendDelivery and the " +
        "worker's OutboundClient, as our loop does. (p) adds N jobs with addJobs before the runner starts (a " +
        "warm-up of N jobs first): reqPerSec = N / (runner start → N-th receipt), latency = the client's " +
        `durationMs. (pl) adds ${LATENCY_RATE} jobs/s (addJob, one transaction each) to an idle runner for ` +
        "BENCH_DURATION: latency = add committed → receipt, queueWaitMs = commit → task start. Checks as for (g) " +
        "by webhook-id, plus no task failed and the queue is empty afterwards. delivery.cpuPerDeliveryUs ((g), " +
        "(p)): the worker child's process.cpuUsage() and the utime+stime of every postgres process (/proc, pid by " +
        "pid) from the start of the drain until every attempt is recorded (p: every job completed), over N.",
      `(i), PostgreSQL only (bench/catalogue.ts): POST /api/institution/enrollments/bulk with ${BULK_ITEMS} ` +
        "items ({userId, courseId}, no Idempotency-Key) on the real app (server child as for (c); key scopes " +
        "enrollments:read/write, custom limits of 1e9), sent one at a time. Each request on a fresh published " +
        "course (4 modules of 5 required lessons, plus a draft and an optional lesson) and fresh students " +
        "(one INSERT … SELECT generate_series), so every item is created; one unmeasured request first (with " +
        "BENCH_WARMUP > 0), then 5 measured: catalogue.bulk.seconds, median = latencyMs.p50, reqPerSec = items/s " +
        "at the median. Statements: the server child wraps pg.Client.prototype.query (every statement the driver " +
        "sends, BEGIN/COMMIT included; Pool.query goes through it) and records from just before the request to " +
        "its response; inTransaction = on the transaction's connection from BEGIN to COMMIT; outside = the rest " +
        "(the pipeline's tenant and API-key lookups when their ~5 s caches are cold, the key's last-used UPDATE " +
        "at most once a minute). The tenant has no automations, so emitEvents writes no deliveries. Checks: HTTP " +
        "200, every result created with the item's enrollment, the summary, the course's enrollments, and one " +
        "enrollment_created row in platform_events per enrollment.",
      `(j), PostgreSQL only: GET /api/institution/enrollments?courseId=…&perPage=100 at page 1 and page ` +
        `${DEEP_PAGE} on the real app (its own server child), autocannon as for (c). The course: ` +
        `${PROGRESS_ENROLLMENTS} students each enrolled (a minute apart), 20 published required lessons in 4 ` +
        "modules plus a draft and an optional one, and lesson_completions set-based: the n-th enrollment " +
        "completed the first n mod 21 required lessons in outline order, every 2nd the optional lesson, every " +
        "3rd the draft one; then VACUUM (ANALYZE). Before each load the page is read once: 100 items, newest " +
        "first, total = enrollments, and every item's progressPercent/lessonsCompleted/lessonsTotal equal to a " +
        "GROUP BY over the completions in SQL (catalogue.progress). catalogueExplain: the page query (repo.ts " +
        `pageQuery) with custom plans at pages 1 and ${DEEP_PAGE}, the generic plan at page ${DEEP_PAGE}, and ` +
        "the count of the course's enrollments.",
      `(k), PostgreSQL only (bench/fairness.ts): two tenants of its own, 99 automations on lesson_completed ` +
        "posting to /hook/0…98 (50 of tenant A, 49 of B) and one of B on quiz_submitted posting to /hang, made by " +
        "createAutomation; the receiver (node:http on 127.0.0.2, in the parent) answers 204 at once on the hooks " +
        "and never answers /hang. The worker is a child (bench/fairness-worker.ts) running startDeliveryLoop(ctx, " +
        "log) with no options, i.e. production's defaults from the configuration (fairness.config), with " +
        `WEBHOOK_TIMEOUT_MS=${FAIRNESS_TIMEOUT_MS} instead of 15000 so that each hanging attempt ends in seconds. ` +
        `Each phase writes ${FAIRNESS_ROUNDS} rounds with the loop stopped, one transaction a round (a lesson to ` +
        "each tenant: 99 " +
        "healthy deliveries; in (k1) a quiz to B: 1 delivery to /hang), ANALYZEs, then starts the loop: reqPerSec " +
        "= healthy deliveries / (loop start → last healthy receipt); latency = the healthy attempts' duration_ms. " +
        `A warm-up phase of 50 healthy rounds first; then k0 and k1 run ${FAIRNESS_REPEATS} times each, in the ` +
        "order k0 k1 k1 k0 (a steady drift cancels), and each " +
        "figure is over its runs (healthy deliveries and seconds summed; fairness.runs: each run's rate); the /hang " +
        "deliveries are deleted after each k1 run. Checks: every healthy delivery succeeded after one attempt and " +
        "was received once. fairness.hangingInFlight: the most /hang attempts in flight at once by the delivery " +
        "log's started_at and duration_ms (≤ the per-endpoint cap); peakHangingOpen/peakOpen: the most requests the " +
        "receiver held open at once on /hang and in all (an aborted request stays open there until the receiver " +
        "sees its connection close, so under load it can exceed the cap by one or two). The scenario's " +
        "deliveries are deleted afterwards (pending retries to /hang).",
      "(l), PostgreSQL only (bench/history.ts): a tenant of its own with 10 automations and 2,000 due deliveries " +
        "(SQL, next_attempt_at a millisecond apart); claimDue(db, {limit: 100, leaseSeconds: 60}) timed in the " +
        "parent, 20 claims a round (draining the due rows), the claimed rows put back to pending between rounds; " +
        "one round unmeasured, 10 measured. (l0) before, (l1) after inserting BENCH_HISTORY succeeded deliveries " +
        "(and one succeeded attempt each) with generate_series, completed 1 to 31 days past " +
        "WEBHOOK_RETENTION_DAYS; VACUUM (ANALYZE) and CHECKPOINT before each phase. reqPerSec = claims/s at the " +
        "median claim = 1000 / p50 ms. " +
        "history.plan: EXPLAIN (ANALYZE, BUFFERS) of the claim's statement after each phase, rolled back, with the " +
        "plan of the statement inside the claim's PL/pgSQL function from auto_explain (nested, at NOTICE) " +
        "(planExecutionMs: the database's own cost of one claim, without round trip and commit). history.purge: " +
        "how the history was removed, rows/s. (l2), between (l0) and (l1): an 11th automation with 50,000 due " +
        "deliveries due before all the others, the same claims with endpointFree {that automation: 0} (the " +
        "worker's claim while that endpoint holds its cap); none of its rows may be claimed; deleted afterwards. " +
        "The tenant's deliveries are deleted afterwards.",
    ],
    seedSeconds,
    measurements,
    ratios: computed,
    explain: explains,
    catalogueExplain: cataloguePlans,
    mediaUpload: mediaUpload ?? null,
    startup: startup ?? null,
    elapsedSeconds: elapsed,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (customised) {
    const file = join(RESULTS_DIR, "latest.tmp.json");
    writeFileSync(file, json);
    log(`custom settings: wrote ${file} (latest.json is kept for full runs)`);
  } else {
    const dated = join(RESULTS_DIR, `${now.toISOString().slice(0, 10)}.json`);
    writeFileSync(join(RESULTS_DIR, "latest.json"), json);
    writeFileSync(dated, json);
    log(`wrote ${join(RESULTS_DIR, "latest.json")} and ${dated}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
