/**
 * Outbound webhook deliveries (issue: "delivery throughput (deliveries/s to a local receiver) as a ratio to raw
 * undici POSTs in the same run, and end-to-end latency from event to receipt (p50/p99)"), on PostgreSQL only
 * (`npm run worker` needs DATABASE_URL; on PGlite the loop runs inside `npm start`, one process per data dir).
 *
 * The receiver is a bare `node:http` server on 127.0.0.2 (allowed by OUTBOUND_ALLOW_CIDRS=127.0.0.2/32) in this
 * process, answering 204 at once; it counts requests and notes when each `webhook-id` arrived. The sender is a
 * child process (bench/delivery-worker.ts) with a core of its own, as the servers of (a)–(f) have.
 *
 *   (g0) raw undici POSTs: a Pool of LOOP.concurrency keep-alive connections posting a body and headers of a
 *        delivery's size (headers signed once, not per request) to the receiver for BENCH_DURATION — requests/s,
 *        the ceiling of "one process sending HTTP to this receiver" on this machine;
 *   (g)  webhook deliveries: BENCH_DELIVERIES deliveries written by the fan-out (`emitEvent` of lesson_completed
 *        events, each matching FANOUT automations of one tenant, in transactions of EMIT_BATCH events) while the
 *        loop is stopped, then ANALYZE of the outbox tables and VACUUM of the peer's (see settleQueues), then `startDeliveryLoop` with
 *        production's options (its defaults, from the config: LOOP) until the receiver has them all —
 *        deliveries/s = N / (loop start → N-th receipt), and g/g0. p50/p99 are the attempts' duration_ms
 *        as the delivery log records them (the OutboundClient's own timing, whole milliseconds). CPU µs per
 *        delivery: the worker child's (process.cpuUsage(), asked over IPC) and every `postgres` process's
 *        (/proc/<pid>/stat), from the loop's start until the last attempt is recorded, over N;
 *   (h)  end to end: with the loop running (idle but for its wake-ups), one quiz_submitted event per
 *        transaction at LATENCY_RATE events/s for BENCH_DURATION, each matching one automation — latency from
 *        the emitting transaction's commit (acknowledged) to the receipt of its delivery, p50/p99; split into
 *        commit → attempt start (the attempt's started_at: the wait in the outbox) and attempt start → receipt;
 *   (p), (pl) the peer, graphile-worker, as (g) and (h) (bench/peer.ts, passed in as `options.peer`; BENCH_PEER=0
 *        skips them): after (h), with the loop stopped, in the same worker child, to the same receiver and
 *        automations; (p) reports CPU per delivery as (g) does.
 *
 * Before (g) a warm-up of WARMUP_SHARE of N deliveries (when BENCH_WARMUP > 0), and before (g0) BENCH_WARMUP s of
 * raw POSTs. Checks, for every phase: each delivery written is `succeeded` after exactly one attempt and was
 * received exactly once (by `webhook-id`), the receiver took nothing else, and a sample of requests (every
 * SAMPLE_EVERY-th) verifies with standardwebhooks' `Webhook.verify` and the automation's secret (after the
 * phase, outside the timed path).
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { type Config, loadConfig } from "../src/config/index.js";
import { type DeliveryEngineConfig, loadOutboundConfig } from "../src/config/outbound.js";
import { loadPlanConfig } from "../src/config/plans.js";
import type { Database, Db } from "../src/db/client.js";
import { rowsOf } from "../src/db/rows.js";
import { createAutomation } from "../src/modules/automations/service.js";
import { EVENT_SAMPLES, type EventPayloads } from "../src/modules/events/catalogue.js";
import { emitEvent } from "../src/modules/events/emit.js";
import { signedHeaders } from "../src/modules/outbox/send.js";
import { systemResolver } from "../src/platform/outbound/resolver.js";
import {
  DELIVERY_WORKER_CONFIG_ENV,
  type DeliveryWorkerConfig,
  type LatencySummary,
  type PeerRunOptions,
  type PeerSummary,
  type RawPostsRequest,
  type RawPostsResult,
  summarise,
  type WorkerChildMessage,
  type WorkerParentMessage,
} from "./protocol.js";
import { makeTenant } from "./seed.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const WORKER_JS = join(HERE, "delivery-worker.js");

export const RECEIVER_HOST = "127.0.0.2";
/**
 * The delivery engine's production settings (`loadConfig(env).outbound.delivery` with no WEBHOOK_* variable, as
 * workerEnv sets none), which startDeliveryLoop defaults to and `npm run worker` runs with: (g0) posts and (p)'s
 * peer runs at this concurrency.
 */
export const LOOP: DeliveryEngineConfig = loadOutboundConfig({}).delivery;
/** Automations of (g)'s tenant triggered by lesson_completed: each event writes this many deliveries. */
export const FANOUT = 10;
/** (g)'s events per seeding transaction ((p): jobs per addJobs call, × FANOUT). */
export const EMIT_BATCH = 100;
/**
 * (g)'s and (p)'s warm-up: this share of N (at least one event's worth), delivered before the measured run. A whole
 * N, as (g0) gets BENCH_WARMUP seconds of raw POSTs first: with a tenth (~70 ms of work) the first measured pass
 * still ran while V8 compiled the worker's code, at 47–66 µs of worker CPU a delivery against 30–35 once warm (and
 * graphile-worker's likewise), so g/g0 compared a cold worker with a warm sender.
 */
export const WARMUP_SHARE = 1;
/** The worker's DATABASE_POOL_SIZE (and the peer's maxPoolSize). */
export const WORKER_POOL_SIZE = 10;
/** (h): events emitted per second, one transaction each. */
export const LATENCY_RATE = 50;
/** Every this many requests to a hook, one is kept and its signature verified after the phase. */
const SAMPLE_EVERY = 50;
/** A phase fails when the receiver gets nothing new for this long. */
const STALL_MS = 20_000;

export type DeliveryScenario = "g0" | "g" | "h" | "p" | "pl";

export const DELIVERY_SCENARIO_NAMES: Record<DeliveryScenario, string> = {
  g0: "(g0) raw undici POSTs → receiver",
  g: "(g) webhook deliveries, worker loop",
  h: `(h) event → receipt, ${LATENCY_RATE} events/s`,
  p: "(p) peer: graphile-worker deliveries",
  pl: `(pl) peer: add_job → receipt, ${LATENCY_RATE} jobs/s`,
};

/** CPU per delivery of a phase, from its start until every attempt was recorded (or job completed), µs. */
export interface CpuPerDelivery {
  /** The worker child (process.cpuUsage()). */
  worker: number;
  /** Every `postgres` process (utime + stime from /proc); null where /proc cannot be read. */
  postgres: number | null;
}

export interface DeliveryCheck {
  /** (g0): requests the sender completed; (g), (h): deliveries the fan-out wrote; (p), (pl): jobs added. */
  expected: number;
  /** Requests the receiver took in the phase (g0: to /raw; g, h: to the hooks). */
  received: number;
  /** Deliveries received more than once, and never received. */
  duplicates: number;
  missing: number;
  /** (g), (h): the phase's webhook_deliveries rows by status once the loop had recorded them; (p), (pl): none. */
  statuses: Record<string, number>;
  /** Sampled requests whose signature `Webhook.verify` accepted, and refused. */
  signaturesVerified: number;
  signatureFailures: number;
  /**
   * Wall time of the measurement, s: (g) loop start → last receipt; (p) runner start → last receipt; (h), (pl)
   * the emitting.
   */
  seconds: number;
  /** The engine settings the loop ran with (g, h). */
  loop?: DeliveryEngineConfig;
  /** graphile-worker's run() settings (p, pl). */
  peer?: PeerRunOptions;
  /** (g), (p). */
  cpuPerDeliveryUs?: CpuPerDelivery;
  /**
   * (g): the longest wait between two receipts, ms, and the first receipt's wait from the loop's start. A missed
   * wake-up shows here as a pause until the loop's poll (WEBHOOK_POLL_MS).
   */
  longestPauseMs?: number;
  firstReceiptMs?: number;
  /** (h), (pl): commit → attempt (task) start (the wait in the queue), and attempt start → receipt, ms. */
  queueWaitMs?: LatencySummary;
  sendToReceiptMs?: LatencySummary;
  /** Failed checks (the warm-up's too); empty when everything held. */
  problems: string[];
}

/** Shaped like run.ts's Measurement, which it joins. */
export interface DeliveryMeasurement {
  scenario: DeliveryScenario;
  name: string;
  db: "postgres" | "none";
  /** (g0): requests; (g), (p): deliveries; (h): events (one delivery each); (pl): jobs. */
  rows: number;
  /** (g0): requests/s; (g), (p): deliveries/s; (h): events emitted per second; (pl): jobs added per second. */
  reqPerSec: number;
  /** (g0): request round trip; (g): attempt duration_ms; (p): task duration; (h), (pl): commit → receipt. */
  latencyMs: LatencySummary;
  requests: { total: number; non2xx: number; errors: number; timeouts: number };
  otherCpuCores: number | null;
  stealCores: number | null;
  delivery: DeliveryCheck;
}

export interface DeliveryBenchOptions {
  /** N of (g); rounded up to a multiple of FANOUT. */
  deliveries: number;
  warmupSeconds: number;
  durationSeconds: number;
  log(message: string): void;
  /** Starts CPU accounting with the worker child as one of ours; the function returned ends it. */
  cpuMeter(childPid: number | undefined): () => { other: number | null; steal: number | null };
  /** Extra node options of the worker child (BENCH_CPU_PROF). */
  execArgv: string[];
  /**
   * (p) and (pl), the graphile-worker peer (bench/peer.ts; undefined with BENCH_PEER=0): run after (h) with the
   * loop stopped, on the same receiver, worker child and database. Passed in rather than imported so that
   * bench/peer.ts can use this module's receiver and checks without an import cycle.
   */
  peer?: (bench: DeliveryBench) => Promise<DeliveryMeasurement[]>;
}

/** What the peer's scenarios share with ours. */
export interface DeliveryBench {
  database: Database;
  databaseUrl: string;
  /** The tenant whose automations post to /hook/0… and /hook/h. */
  tenantId: string;
  worker: WorkerChild;
  receiver: Receiver;
  options: DeliveryBenchOptions;
}

export const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
export const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------------- receiver

interface Sample {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A node:http server on RECEIVER_HOST, as (g)'s and (k)'s receivers are: it notes each hook request's
 * `webhook-id` and arrival time (`receive`), and waits for a number of them; subclasses answer the requests.
 */
export abstract class LocalReceiver {
  readonly server: Server;
  port = 0;
  /** Hook requests in arrival order: `webhook-id` and performance.now() once the body was read. */
  readonly receipts: { id: string; at: number }[] = [];
  /** Per `webhook-id`: how many times. */
  readonly counts = new Map<string, number>();

  constructor() {
    this.server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => this.handle(req, res));
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse): void;

  /** Notes a hook request whose body has been read; returns its arrival time. */
  protected receive(id: string): number {
    const at = performance.now();
    this.receipts.push({ id, at });
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
    return at;
  }

  listen(): Promise<void> {
    return new Promise((resolveListen, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, RECEIVER_HOST, () => {
        this.server.off("error", reject);
        this.port = (this.server.address() as AddressInfo).port;
        resolveListen();
      });
    });
  }

  url(path: string): string {
    return `http://${RECEIVER_HOST}:${this.port}${path}`;
  }

  /** Until `total` hook requests in all, looking every `pollMs`; fails when none arrives for STALL_MS. */
  async waitFor(total: number, what: string, pollMs = 10): Promise<void> {
    let last = this.receipts.length;
    let lastChange = performance.now();
    while (this.receipts.length < total) {
      await sleep(pollMs);
      if (this.receipts.length !== last) {
        last = this.receipts.length;
        lastChange = performance.now();
      } else if (performance.now() - lastChange > STALL_MS) {
        throw new Error(
          `${what}: ${this.receipts.length} of ${total} requests received, none for ${STALL_MS} ms`,
        );
      }
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolveClose) => this.server.close(() => resolveClose()));
  }
}

/** The local receiver: 204 to everything; `/raw` is counted only, `/hook/<name>` recorded by `webhook-id`. */
export class Receiver extends LocalReceiver {
  /** Requests to /raw. */
  raw = 0;
  /** Per `webhook-id`: when first. */
  readonly firstAt = new Map<string, number>();
  readonly samples: Sample[] = [];
  /** Hook path → the automation's signing secret. */
  readonly secrets = new Map<string, string>();

  protected handle(req: IncomingMessage, res: ServerResponse): void {
    const path = req.url ?? "/";
    if (path === "/raw") {
      req.resume();
      req.on("end", () => {
        this.raw++;
        res.statusCode = 204;
        res.end();
      });
      return;
    }
    const sampled = this.receipts.length % SAMPLE_EVERY === 0;
    const chunks: Buffer[] = [];
    if (sampled) req.on("data", (chunk: Buffer) => chunks.push(chunk));
    else req.resume();
    req.on("end", () => {
      const id = headerOf(req, "webhook-id");
      const at = this.receive(id);
      if (!this.firstAt.has(id)) this.firstAt.set(id, at);
      if (sampled) {
        this.samples.push({
          path,
          headers: flatHeaders(req),
          body: Buffer.concat(chunks).toString("utf8"),
        });
      }
      res.statusCode = 204;
      res.end();
    });
  }

  /** Verifies the samples from index `from` on with their automation's secret. */
  verify(from: number): { verified: number; failed: number } {
    let verified = 0;
    let failed = 0;
    for (const sample of this.samples.slice(from)) {
      const secret = this.secrets.get(sample.path);
      try {
        if (secret === undefined) throw new Error("no secret for this path");
        new Webhook(secret).verify(sample.body, sample.headers);
        verified++;
      } catch {
        failed++;
      }
    }
    return { verified, failed };
  }
}

function headerOf(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name of Object.keys(req.headers)) flat[name] = headerOf(req, name);
  return flat;
}

// ---------------------------------------------------------------------------------------------- worker child

export interface WorkerChild {
  pid: number | undefined;
  rawPosts(request: RawPostsRequest): Promise<RawPostsResult>;
  startLoop(): Promise<void>;
  stopLoop(): Promise<void>;
  startPeer(options: PeerRunOptions): Promise<void>;
  stopPeer(): Promise<PeerSummary>;
  /** The child's CPU time so far, µs. */
  cpuUs(): Promise<number>;
  exit(): Promise<void>;
}

type ChildAnswer = Omit<Extract<WorkerChildMessage, { type: "done" }>, "type" | "requestId">;

function startWorkerChild(config: DeliveryWorkerConfig, execArgv: string[]): Promise<WorkerChild> {
  return forkWorkerChild(WORKER_JS, { [DELIVERY_WORKER_CONFIG_ENV]: JSON.stringify(config) }, execArgv);
}

/**
 * A bench worker child (`script`, speaking bench/protocol.ts over IPC) with `env` added to ours; resolves once it
 * says it is ready. Used for (g)'s delivery worker and (k)'s fairness worker.
 */
export function forkWorkerChild(
  script: string,
  env: Record<string, string>,
  execArgv: string[],
): Promise<WorkerChild> {
  const name = basename(script, ".js");
  const child: ChildProcess = fork(script, [], {
    env: { ...process.env, ...env },
    execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolveExit) => child.once("exit", () => resolveExit()));
  const pending = new Map<number, { resolve: (answer: ChildAnswer) => void; reject: (e: Error) => void }>();
  let requestIds = 0;
  const failPending = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  child.on("message", (message: WorkerChildMessage) => {
    if (message.type === "done") {
      const { type: _type, requestId: _requestId, ...answer } = message;
      pending.get(message.requestId)?.resolve(answer);
      pending.delete(message.requestId);
    } else if (message.type === "error") {
      const err = new Error(`${name}: ${message.message}`);
      if (message.requestId === undefined) failPending(err);
      else {
        pending.get(message.requestId)?.reject(err);
        pending.delete(message.requestId);
      }
    }
  });
  child.once("exit", () => failPending(new Error(`${name} exited`)));
  type Call = WorkerParentMessage extends infer M
    ? M extends { requestId: number }
      ? Omit<M, "requestId">
      : never
    : never;
  const call = (message: Call) =>
    new Promise<ChildAnswer>((resolveCall, reject) => {
      const requestId = ++requestIds;
      pending.set(requestId, { resolve: resolveCall, reject });
      child.send({ ...message, requestId } as WorkerParentMessage);
    });
  const worker: WorkerChild = {
    pid: child.pid,
    async rawPosts(request) {
      const { result } = await call({ type: "rawPosts", request });
      if (result === undefined) throw new Error("rawPosts: no result");
      return result;
    },
    async startLoop() {
      await call({ type: "startLoop" });
    },
    async stopLoop() {
      await call({ type: "stopLoop" });
    },
    async startPeer(peerOptions) {
      await call({ type: "startPeer", options: peerOptions });
    },
    async stopPeer() {
      const { peer } = await call({ type: "stopPeer" });
      if (peer === undefined) throw new Error("stopPeer: no summary");
      return peer;
    },
    async cpuUs() {
      const { cpu } = await call({ type: "cpuUsage" });
      if (cpu === undefined) throw new Error("cpuUsage: no answer");
      return cpu.userUs + cpu.systemUs;
    },
    async exit() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: "exit" } satisfies WorkerParentMessage);
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return new Promise((resolveStart, reject) => {
    child.once("message", (message: WorkerChildMessage) => {
      if (message.type === "ready") resolveStart(worker);
      else if (message.type === "error") reject(new Error(`${name} failed:\n${message.message}`));
    });
    child.once("exit", (code) => reject(new Error(`${name} exited with code ${code}`)));
  });
}

// ---------------------------------------------------------------------------------------------- seeding

interface Setup {
  tenantId: string;
  config: Config;
  env: Record<string, string>;
  databaseUrl: string;
}

/** The worker's configuration (and the one the automations are sealed with): production on PostgreSQL. */
function workerEnv(databaseUrl: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: String(WORKER_POOL_SIZE),
    SESSION_SECRET: randomBytes(32).toString("hex"),
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    OUTBOUND_ALLOW_CIDRS: `${RECEIVER_HOST}/32`,
    LOG_LEVEL: "warn",
  };
}

/**
 * A tenant with FANOUT automations on lesson_completed posting to /hook/0…, and one on quiz_submitted posting to
 * /hook/h, made by createAutomation (URL check, secret sealed with the worker's keyring).
 */
async function seedAutomations(database: Database, receiver: Receiver, databaseUrl: string): Promise<Setup> {
  const env = workerEnv(databaseUrl);
  const config = loadConfig(env);
  const tenant = await makeTenant(database.db, loadPlanConfig({}), "deliveries");
  const deps = { db: database.db, config, resolve: systemResolver };
  const hooks: { path: string; event: "lesson_completed" | "quiz_submitted" }[] = [
    ...Array.from({ length: FANOUT }, (_, i) => ({ path: `/hook/${i}`, event: "lesson_completed" as const })),
    { path: "/hook/h", event: "quiz_submitted" },
  ];
  for (const hook of hooks) {
    const created = await createAutomation(
      deps,
      tenant.id,
      {
        name: `bench ${hook.path}`,
        trigger: { event: hook.event },
        action: { type: "send_webhook", url: receiver.url(hook.path) },
      },
      "http://localhost",
    );
    receiver.secrets.set(hook.path, created.signingSecret);
  }
  return { tenantId: tenant.id, config, env, databaseUrl };
}

export function lessonData(n: number): EventPayloads["lesson_completed"] {
  return {
    ...EVENT_SAMPLES.lesson_completed,
    courseId: randomUUID(),
    lessonId: randomUUID(),
    moduleId: null,
    enrollmentId: randomUUID(),
    completedAt: new Date().toISOString(),
    timeSpentSeconds: 300 + (n % 600),
    scorePercent: n % 101,
    progressPercent: 50,
    courseCompleted: false,
  };
}

export function quizData(n: number): EventPayloads["quiz_submitted"] {
  return {
    ...EVENT_SAMPLES.quiz_submitted,
    courseId: randomUUID(),
    quizId: randomUUID(),
    attemptId: randomUUID(),
    attemptNumber: 1,
    score: n % 11,
    maxScore: 10,
    percent: (n % 11) * 10,
    passed: n % 11 >= 6,
    submittedAt: new Date().toISOString(),
    lessonId: randomUUID(),
    enrollmentId: randomUUID(),
    gradingStatus: "graded",
    timeSpentSeconds: 60 + (n % 600),
  };
}

/** The tables each queue writes: ours, and graphile-worker's schema (once the peer has installed it). */
const QUEUE_TABLES = {
  ours: sql`schemaname = 'public' AND tablename IN ('webhook_deliveries', 'delivery_attempts', 'delivery_stats',
    'automations', 'platform_events', 'tenant_counters')`,
  peer: sql`schemaname = 'graphile_worker'`,
};

/**
 * Before each pass of (g) and (p), and their warm-ups, with the pass's rows written: VACUUM (ANALYZE) of the other
 * queue's tables, and ANALYZE of the measured queue's own (graphile-worker's are left to autovacuum, as before).
 * - ANALYZE, as autovacuum would on tables that grew this much: unanalyzed, the claim's UPDATE joined the batch to
 *   webhook_deliveries through webhook_deliveries_automation_idx, reading every delivery of each automation
 *   (≈ 15 ms a claim at 5k deliveries) instead of one row by primary key.
 * - VACUUM of the other queue, because CPU per delivery counts every postgres process of the database: autovacuum
 *   cleaning up after graphile-worker's pass ran in the window of our next one (and ours in its), and moved a
 *   pass's figure by up to 15 µs. The measured queue's own tables are not vacuumed: cleaning up after its warm-up
 *   and reading its freshly written rows for the first time (hint bits, page pruning) are part of what it costs,
 *   as they would be in production. Vacuuming them too took 10 µs a job off graphile-worker's PostgreSQL CPU and
 *   nothing off ours.
 */
export async function settleQueues(db: Db, measured: keyof typeof QUEUE_TABLES): Promise<void> {
  const other = measured === "ours" ? "peer" : "ours";
  const names = async (which: keyof typeof QUEUE_TABLES) =>
    rowsOf<{ name: string }>(
      await db.execute(
        sql`SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE ${QUEUE_TABLES[which]} ORDER BY 1`,
      ),
    ).map((t) => t.name);
  const vacuum = await names(other);
  if (vacuum.length > 0) await db.execute(sql.raw(`VACUUM (ANALYZE) ${vacuum.join(", ")}`));
  if (measured === "ours") await db.execute(sql.raw(`ANALYZE ${(await names("ours")).join(", ")}`));
}

/** lesson_completed events through the fan-out, EMIT_BATCH per transaction: their ids and deliveries written. */
async function emitLessons(
  db: Db,
  tenantId: string,
  events: number,
): Promise<{ eventIds: string[]; deliveries: number }> {
  const eventIds: string[] = [];
  let deliveries = 0;
  for (let start = 0; start < events; start += EMIT_BATCH) {
    const end = Math.min(events, start + EMIT_BATCH);
    await db.transaction(async (tx) => {
      for (let n = start; n < end; n++) {
        const emitted = await emitEvent(tx, {
          tenantId,
          type: "lesson_completed",
          data: lessonData(n),
          actor: { type: "system" },
        });
        eventIds.push(emitted.id);
        deliveries += emitted.deliveries;
      }
    });
  }
  return { eventIds, deliveries };
}

// ---------------------------------------------------------------------------------------------- checks

interface DeliveryRow {
  id: string;
  event_id: string;
  status: string;
  attempts: number;
  attempt_rows: number;
  /** The first attempt's start, ms since the epoch (timestamp(3)). */
  started_ms: number | null;
  duration_ms: number | null;
}

/** The deliveries of `eventIds` with their attempts. */
async function deliveriesOf(db: Db, tenantId: string, eventIds: string[]): Promise<DeliveryRow[]> {
  // The ids go as one JSON parameter: thousands of them would exceed the bind-parameter limit.
  const result = await db.execute(sql`
    SELECT d.id::text AS id, d.event_id::text AS event_id, d.status, d.attempts,
      count(a.attempt)::int AS attempt_rows,
      (extract(epoch FROM min(a.started_at)) * 1000)::float8 AS started_ms,
      min(a.duration_ms) AS duration_ms
    FROM webhook_deliveries AS d
    LEFT JOIN delivery_attempt_log AS a ON a.tenant_id = d.tenant_id AND a.delivery_id = d.id
    WHERE d.tenant_id = ${tenantId}::uuid
      AND d.event_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(eventIds)}::jsonb)::uuid)
    GROUP BY d.tenant_id, d.id
  `);
  return rowsOf<DeliveryRow>(result).map((r) => ({
    ...r,
    attempts: Number(r.attempts),
    attempt_rows: Number(r.attempt_rows),
    started_ms: r.started_ms === null ? null : Number(r.started_ms),
    duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
  }));
}

/** Until the tenant has no delivery pending or leased: the loop has recorded the last attempts. */
async function settle(db: Db, tenantId: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const result = await db.execute(sql`
      SELECT count(*)::int AS n FROM webhook_deliveries
      WHERE tenant_id = ${tenantId}::uuid AND status IN ('pending', 'delivering')
    `);
    if (Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0) === 0) return;
    await sleep(100);
  }
  throw new Error("deliveries still pending or delivering 30 s after the receiver had them all");
}

export type ReceiptCheck = Pick<
  DeliveryCheck,
  "received" | "duplicates" | "missing" | "signaturesVerified" | "signatureFailures" | "problems"
>;

/**
 * The receiver's side of a phase whose requests carry the `webhook-id`s `ids`: each was received once, nothing
 * else arrived from receipt `fromReceipt` on, and the samples from `fromSample` on verify.
 */
export function checkReceipts(
  receiver: Receiver,
  ids: readonly string[],
  fromReceipt: number,
  fromSample: number,
): ReceiptCheck {
  const problems: string[] = [];
  const known = new Set(ids);
  const missing = ids.filter((id) => (receiver.counts.get(id) ?? 0) === 0).length;
  const duplicates = ids.filter((id) => (receiver.counts.get(id) ?? 0) > 1).length;
  if (missing > 0) problems.push(`${missing} deliveries never received`);
  if (duplicates > 0) problems.push(`${duplicates} deliveries received more than once`);
  const phase = receiver.receipts.slice(fromReceipt);
  const strays = phase.filter((r) => !known.has(r.id)).length;
  if (strays > 0) problems.push(`${strays} requests received that are not deliveries of this phase`);
  const signatures = receiver.verify(fromSample);
  if (signatures.failed > 0) problems.push(`${signatures.failed} sampled signatures did not verify`);
  if (signatures.verified === 0) problems.push("no signature was sampled");
  return {
    received: phase.length,
    duplicates,
    missing,
    signaturesVerified: signatures.verified,
    signatureFailures: signatures.failed,
    problems,
  };
}

interface PhaseCheck {
  check: Omit<DeliveryCheck, "seconds">;
  rows: DeliveryRow[];
}

/**
 * The phase's deliveries (those of `eventIds`, `expected` of them): each succeeded after one attempt and was
 * received once; the receiver took nothing else from index `fromReceipt` on; the samples from `fromSample` on
 * verify.
 */
async function checkPhase(
  db: Db,
  tenantId: string,
  receiver: Receiver,
  eventIds: string[],
  expected: number,
  fromReceipt: number,
  fromSample: number,
): Promise<PhaseCheck> {
  await settle(db, tenantId);
  const rows = await deliveriesOf(db, tenantId, eventIds);
  const problems: string[] = [];
  if (rows.length !== expected)
    problems.push(`${rows.length} deliveries in the database, ${expected} written`);
  const statuses: Record<string, number> = {};
  for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  if ((statuses.succeeded ?? 0) !== rows.length) problems.push(`statuses ${JSON.stringify(statuses)}`);
  const retried = rows.filter((r) => r.attempts !== 1 || r.attempt_rows !== 1).length;
  if (retried > 0) problems.push(`${retried} deliveries with other than exactly one attempt`);
  const receipts = checkReceipts(
    receiver,
    rows.map((r) => r.id),
    fromReceipt,
    fromSample,
  );
  return {
    rows,
    check: {
      ...receipts,
      expected,
      statuses,
      loop: { ...LOOP },
      problems: [...problems, ...receipts.problems],
    },
  };
}

// ---------------------------------------------------------------------------------------------- cpu per delivery

/** USER_HZ, the unit of /proc CPU times on Linux. */
const CLOCK_TICK = 100;

/** A backend's process title: `postgres: 15/main: <user> <database> <host>(<port>) <state>`, or `[local]`. */
const BACKEND_TITLE = /^postgres: [^:]+: \S+ (\S+) (?:\S+\(\d+\)|\[local\])/;

/**
 * utime + stime of the `postgres` processes that serve `database` by pid, µs: its backends and the server's own
 * processes (WAL writer, checkpointer…, which work for every database), not the backends of other databases (on
 * a shared machine, other benches' and tests'). Null where /proc cannot be read.
 */
function postgresCpu(database: string): Map<number, number> | null {
  try {
    const byPid = new Map<number, number>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // gone in between
      }
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "postgres") continue;
      let title = "";
      try {
        title = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      } catch {
        continue;
      }
      const backendOf = BACKEND_TITLE.exec(title)?.[1];
      if (backendOf !== undefined && backendOf !== database) continue;
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      byPid.set(Number(entry), ((Number(rest[11]) + Number(rest[12])) / CLOCK_TICK) * 1e6);
    }
    return byPid;
  } catch {
    return null;
  }
}

export interface CpuMark {
  worker: number;
  postgres: Map<number, number> | null;
}

/** The worker child's CPU time now, and PostgreSQL's for the database at `databaseUrl`. */
export async function cpuMark(worker: WorkerChild, databaseUrl: string): Promise<CpuMark> {
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  return { worker: await worker.cpuUs(), postgres: postgresCpu(database) };
}

/**
 * CPU per delivery between two marks. PostgreSQL's is compared pid by pid: a backend started in between counts
 * whole, one that exited in between (an idle pool connection closing) is not counted, so it can only be low.
 */
export function cpuPerDelivery(before: CpuMark, after: CpuMark, deliveries: number): CpuPerDelivery {
  let postgres: number | null = null;
  if (before.postgres !== null && after.postgres !== null) {
    postgres = 0;
    for (const [pid, us] of after.postgres) postgres += us - (before.postgres.get(pid) ?? 0);
  }
  const n = Math.max(1, deliveries);
  return {
    worker: round((after.worker - before.worker) / n, 1),
    postgres: postgres === null ? null : round(postgres / n, 1),
  };
}

// ---------------------------------------------------------------------------------------------- scenarios

/** The body and headers of a lesson_completed delivery as the fan-out renders and send.ts signs it. */
function deliveryShapedRequest(secret: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    type: "lesson_completed",
    timestamp: new Date().toISOString(),
    data: lessonData(0),
  });
  const signed = signedHeaders({ id: randomUUID(), headers: {}, body }, secret, new Date());
  if (!signed.ok) throw new Error(signed.message);
  return { body, headers: signed.headers };
}

async function measureRaw(
  worker: WorkerChild,
  receiver: Receiver,
  options: DeliveryBenchOptions,
): Promise<DeliveryMeasurement> {
  const { body, headers } = deliveryShapedRequest(receiver.secrets.get("/hook/0") ?? "");
  const request = (seconds: number): RawPostsRequest => ({
    url: receiver.url("/raw"),
    seconds,
    concurrency: LOOP.concurrency,
    headers,
    body,
  });
  if (options.warmupSeconds > 0) await worker.rawPosts(request(options.warmupSeconds));
  const before = receiver.raw;
  const meter = options.cpuMeter(worker.pid);
  const r = await worker.rawPosts(request(options.durationSeconds));
  const cpu = meter();
  const received = receiver.raw - before;
  const problems: string[] = [];
  if (r.non2xx + r.errors > 0) problems.push(`${r.non2xx} non-2xx, ${r.errors} errors`);
  if (received !== r.requests)
    problems.push(`the receiver took ${received} requests, the sender completed ${r.requests}`);
  return {
    scenario: "g0",
    name: DELIVERY_SCENARIO_NAMES.g0,
    db: "none",
    rows: r.requests,
    reqPerSec: round(r.requests / r.seconds, 1),
    latencyMs: r.latencyMs,
    requests: { total: r.requests, non2xx: r.non2xx, errors: r.errors, timeouts: 0 },
    otherCpuCores: cpu.other,
    stealCores: cpu.steal,
    delivery: {
      expected: r.requests,
      received,
      duplicates: 0,
      missing: 0,
      statuses: {},
      signaturesVerified: 0,
      signatureFailures: 0,
      seconds: round(r.seconds, 3),
      problems,
    },
  };
}

/** (g): a warm-up, then N deliveries seeded with the loop stopped and drained from the loop's start. */
async function measureThroughput(
  database: Database,
  setup: Setup,
  worker: WorkerChild,
  receiver: Receiver,
  options: DeliveryBenchOptions,
): Promise<DeliveryMeasurement> {
  const { db } = database;
  const events = Math.ceil(options.deliveries / FANOUT);
  const warmupProblems: string[] = [];
  if (options.warmupSeconds > 0) {
    const warmEvents = Math.max(1, Math.round(events * WARMUP_SHARE));
    const fromReceipt = receiver.receipts.length;
    const fromSample = receiver.samples.length;
    const warm = await emitLessons(db, setup.tenantId, warmEvents);
    await settleQueues(db, "ours");
    await worker.startLoop();
    await receiver.waitFor(fromReceipt + warm.deliveries, "(g) warm-up");
    await worker.stopLoop();
    const { check } = await checkPhase(
      db,
      setup.tenantId,
      receiver,
      warm.eventIds,
      warm.deliveries,
      fromReceipt,
      fromSample,
    );
    warmupProblems.push(...check.problems.map((p) => `warm-up: ${p}`));
  }
  const t0seed = performance.now();
  const seeded = await emitLessons(db, setup.tenantId, events);
  await settleQueues(db, "ours");
  options.log(
    `postgres: ${seeded.deliveries} deliveries written by ${events} lesson_completed events ` +
      `(${((performance.now() - t0seed) / 1000).toFixed(1)} s)`,
  );
  const fromReceipt = receiver.receipts.length;
  const fromSample = receiver.samples.length;
  const meter = options.cpuMeter(worker.pid);
  const cpuBefore = await cpuMark(worker, setup.databaseUrl);
  const t0 = performance.now();
  await worker.startLoop();
  await receiver.waitFor(fromReceipt + seeded.deliveries, "(g)");
  // CPU until the last attempt is recorded: recording is part of each delivery's cost.
  await settle(db, setup.tenantId);
  const cpuPer = cpuPerDelivery(cpuBefore, await cpuMark(worker, setup.databaseUrl), seeded.deliveries);
  const cpu = meter();
  const last = receiver.receipts[fromReceipt + seeded.deliveries - 1]?.at ?? performance.now();
  const times = receiver.receipts.slice(fromReceipt, fromReceipt + seeded.deliveries).map((r) => r.at);
  const longestPause = times.reduce(
    (most, at, i) => (i === 0 ? most : Math.max(most, at - times[i - 1]!)),
    0,
  );
  const seconds = (last - t0) / 1000;
  const { check, rows } = await checkPhase(
    db,
    setup.tenantId,
    receiver,
    seeded.eventIds,
    seeded.deliveries,
    fromReceipt,
    fromSample,
  );
  check.problems.unshift(...warmupProblems);
  const durations = rows.flatMap((r) => (r.duration_ms === null ? [] : [r.duration_ms]));
  const failed = rows.length - (check.statuses.succeeded ?? 0);
  return {
    scenario: "g",
    name: DELIVERY_SCENARIO_NAMES.g,
    db: "postgres",
    rows: seeded.deliveries,
    reqPerSec: round(seeded.deliveries / seconds, 1),
    latencyMs: summarise(durations),
    requests: { total: check.received, non2xx: failed, errors: check.missing, timeouts: 0 },
    otherCpuCores: cpu.other,
    stealCores: cpu.steal,
    delivery: {
      ...check,
      seconds: round(seconds, 3),
      cpuPerDeliveryUs: cpuPer,
      longestPauseMs: round(longestPause, 1),
      firstReceiptMs: round((times[0] ?? t0) - t0, 1),
    },
  };
}

/** (h): one event per transaction at LATENCY_RATE for BENCH_DURATION while the loop runs. */
async function measureLatency(
  database: Database,
  setup: Setup,
  worker: WorkerChild,
  receiver: Receiver,
  options: DeliveryBenchOptions,
): Promise<DeliveryMeasurement> {
  const { db } = database;
  const events = Math.max(1, LATENCY_RATE * options.durationSeconds);
  const commits = new Map<string, number>();
  let deliveries = 0;
  const fromReceipt = receiver.receipts.length;
  const fromSample = receiver.samples.length;
  const meter = options.cpuMeter(worker.pid);
  const start = performance.now();
  for (let n = 0; n < events; n++) {
    const wait = start + (n * 1000) / LATENCY_RATE - performance.now();
    if (wait > 0) await sleep(wait);
    const emitted = await db.transaction((tx) =>
      emitEvent(tx, {
        tenantId: setup.tenantId,
        type: "quiz_submitted",
        data: quizData(n),
        actor: { type: "system" },
      }),
    );
    commits.set(emitted.id, performance.now());
    deliveries += emitted.deliveries;
  }
  const seconds = (performance.now() - start) / 1000;
  await receiver.waitFor(fromReceipt + deliveries, "(h)");
  const cpu = meter();
  const { check, rows } = await checkPhase(
    db,
    setup.tenantId,
    receiver,
    [...commits.keys()],
    deliveries,
    fromReceipt,
    fromSample,
  );
  const e2e: number[] = [];
  const queueWait: number[] = [];
  const sendToReceipt: number[] = [];
  for (const r of rows) {
    const committed = commits.get(r.event_id);
    const received = receiver.firstAt.get(r.id);
    if (committed === undefined || received === undefined) continue;
    e2e.push(received - committed);
    if (r.started_ms !== null) {
      queueWait.push(r.started_ms - (performance.timeOrigin + committed));
      sendToReceipt.push(performance.timeOrigin + received - r.started_ms);
    }
  }
  if (deliveries !== events)
    check.problems.push(`${deliveries} deliveries for ${events} events, expected one each`);
  const failed = rows.length - (check.statuses.succeeded ?? 0);
  return {
    scenario: "h",
    name: DELIVERY_SCENARIO_NAMES.h,
    db: "postgres",
    rows: events,
    reqPerSec: round(events / seconds, 1),
    latencyMs: summarise(e2e),
    requests: { total: check.received, non2xx: failed, errors: check.missing, timeouts: 0 },
    otherCpuCores: cpu.other,
    stealCores: cpu.steal,
    delivery: {
      ...check,
      seconds: round(seconds, 3),
      queueWaitMs: summarise(queueWait),
      sendToReceiptMs: summarise(sendToReceipt),
    },
  };
}

/** (g0), (g), (h) on the PostgreSQL database `database` (at `databaseUrl`, which the worker child opens too). */
export async function measureDeliveries(
  database: Database,
  databaseUrl: string,
  options: DeliveryBenchOptions,
): Promise<DeliveryMeasurement[]> {
  const receiver = new Receiver();
  await receiver.listen();
  try {
    const setup = await seedAutomations(database, receiver, databaseUrl);
    const worker = await startWorkerChild({ env: setup.env }, options.execArgv);
    try {
      const out: DeliveryMeasurement[] = [];
      for (const measure of [
        () => measureRaw(worker, receiver, options),
        () => measureThroughput(database, setup, worker, receiver, options),
        () => measureLatency(database, setup, worker, receiver, options),
      ]) {
        const m = await measure();
        out.push(m);
        logMeasurement(options.log, m);
      }
      if (options.peer !== undefined) {
        // The loop idles between (h) and the end; stopped, it takes no CPU from the peer's phases.
        await worker.stopLoop();
        const bench = { database, databaseUrl, tenantId: setup.tenantId, worker, receiver, options };
        for (const m of await options.peer(bench)) {
          out.push(m);
          logMeasurement(options.log, m);
        }
        // The peer measures (p) twice, (g) runs again after it: g … p p g, so that g/p (over both runs of each)
        // is not the order's doing (the machine warming up, autovacuum, the page cache). Single runs had moved
        // g/p between 0.83 and 1.20.
        const again = await measureThroughput(database, setup, worker, receiver, options);
        again.name = `${again.name}, again`;
        out.push(again);
        logMeasurement(options.log, again);
      }
      return out;
    } finally {
      await worker.exit();
    }
  } finally {
    await receiver.close();
  }
}

const UNITS: Record<DeliveryScenario, string> = {
  g0: "requests/s",
  g: "deliveries/s",
  h: "events/s",
  p: "deliveries/s",
  pl: "jobs/s",
};

/** "CPU µs per delivery: worker X, PostgreSQL Y" for (g) and (p). */
export function cpuLine(cpu: CpuPerDelivery | undefined): string | undefined {
  if (cpu === undefined) return undefined;
  return `CPU µs per delivery: worker ${cpu.worker}, PostgreSQL ${cpu.postgres ?? "?"}`;
}

function logMeasurement(log: (message: string) => void, m: DeliveryMeasurement): void {
  const unit = UNITS[m.scenario];
  const d = m.delivery;
  const cpu = cpuLine(d.cpuPerDeliveryUs);
  const start = m.scenario === "pl" ? "task start" : "attempt start";
  const extra =
    m.scenario === "h" || m.scenario === "pl"
      ? `, commit → ${start} p50 ${d.queueWaitMs?.p50} ms p99 ${d.queueWaitMs?.p99} ms, ` +
        `${start} → receipt p50 ${d.sendToReceiptMs?.p50} ms p99 ${d.sendToReceiptMs?.p99} ms`
      : cpu === undefined
        ? ""
        : `, ${cpu}` +
          (d.longestPauseMs === undefined
            ? ""
            : `, first receipt after ${d.firstReceiptMs} ms, longest pause between receipts ${d.longestPauseMs} ms`);
  log(
    `${m.name.padEnd(40)} ${String(m.rows).padStart(6)} ${m.db.padEnd(8)} ${Math.round(m.reqPerSec)} ${unit}, ` +
      `p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms, other cpu ${m.otherCpuCores ?? "?"}${extra}`,
  );
  for (const problem of d.problems) log(`CHECK FAILED ${m.name}: ${problem}`);
}
