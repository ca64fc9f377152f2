/**
 * The peer (issue 11): graphile-worker, a PostgreSQL job queue in Node (LISTEN/NOTIFY wake-up, `SKIP LOCKED`,
 * batched fetching and completion), beside our delivery loop in one run, on the same PostgreSQL database, sending
 * the same signed POSTs from the same kind of worker child (bench/peer-worker.ts) to the same receiver:
 *
 *   (p)  throughput, as (g): PEER N jobs of the task `deliver` added with `addJobs` (EMIT_BATCH × FANOUT a call)
 *        before the runner starts, each carrying what a delivery row carries (id, url, headers, the body the
 *        fan-out renders for a lesson_completed event, and the automation's sealed secret) for the same FANOUT
 *        automations; deliveries/s = N / (runner start → N-th receipt). A warm-up of WARMUP_SHARE of N first (with
 *        BENCH_WARMUP > 0), in a runner of its own.
 *   (pl) latency, as (h): with a runner started and idle, one `addJob` (one statement, so one transaction) at
 *        LATENCY_RATE jobs/s for BENCH_DURATION — latency from the add's commit (acknowledged) to the receipt,
 *        split into commit → task start and task start → receipt.
 *
 * graphile-worker runs as its performance page configures it for throughput (localQueue, completeJobBatchDelay
 * 0; pollInterval at its default, LISTEN/NOTIFY on) at our loop's concurrency (LOOP.concurrency) and with our
 * worker's pool size (WORKER_POOL_SIZE): batched fetching and completion need few connections, and a pool per job
 * slot (its fallback advice, concurrency + 2) would pass PostgreSQL's default max_connections of 100.
 *
 * Checks: each job's request was received exactly once (by `webhook-id`), nothing else was received, sampled
 * signatures verify, no task failed, every task completed, and the queue is empty afterwards.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { makeWorkerUtils, type WorkerUtils } from "graphile-worker";
import type { Db } from "../src/db/client.js";
import { rowsOf } from "../src/db/rows.js";
import {
  type CpuPerDelivery,
  checkReceipts,
  cpuMark,
  cpuPerDelivery,
  DELIVERY_SCENARIO_NAMES,
  type DeliveryBench,
  type DeliveryCheck,
  type DeliveryMeasurement,
  EMIT_BATCH,
  FANOUT,
  LATENCY_RATE,
  LOOP,
  lessonData,
  quizData,
  round,
  settleQueues,
  sleep,
  WARMUP_SHARE,
  WORKER_POOL_SIZE,
} from "./deliveries.js";
import { quietLogger } from "./peer-worker.js";
import { type PeerJob, type PeerRunOptions, type PeerSummary, summarise } from "./protocol.js";

const TASK = "deliver";

/** How long (pl)'s runner idles before the first job: it has connected and is listening. */
const IDLE_BEFORE_LATENCY_MS = 1_000;

export const PEER_OPTIONS: PeerRunOptions = {
  concurrency: LOOP.concurrency,
  maxPoolSize: WORKER_POOL_SIZE,
  // The starting point graphile-worker's documentation gives: concurrency + 1.
  localQueueSize: LOOP.concurrency + 1,
  completeJobBatchDelay: 0,
};

/** An automation of the bench tenant as the task needs it. */
interface Hook {
  automationId: string;
  url: string;
  sealedSecret: string;
}

/** The tenant's automations by receiver path (`/hook/0`…, `/hook/h`), from their rows: sealed secret and URL. */
async function hooksOf(db: Db, tenantId: string): Promise<Map<string, Hook>> {
  const result = await db.execute(sql`
    SELECT id::text AS id, action->>'url' AS url, signing_secret
    FROM automations WHERE tenant_id = ${tenantId}::uuid
  `);
  const hooks = new Map<string, Hook>();
  for (const row of rowsOf<{ id: string; url: string; signing_secret: string }>(result)) {
    hooks.set(new URL(row.url).pathname, {
      automationId: row.id,
      url: row.url,
      sealedSecret: row.signing_secret,
    });
  }
  return hooks;
}

function hook(hooks: Map<string, Hook>, path: string): Hook {
  const found = hooks.get(path);
  if (found === undefined) throw new Error(`no automation posts to ${path}`);
  return found;
}

/** A job as the fan-out would write the delivery: the default body `{type, timestamp, data}`, no extra headers. */
function job(tenantId: string, target: Hook, eventId: string, type: string, data: unknown): PeerJob {
  const timestamp = new Date().toISOString();
  return {
    tenantId,
    id: randomUUID(),
    automationId: target.automationId,
    eventId,
    eventType: type,
    url: target.url,
    headers: {},
    body: JSON.stringify({ type, timestamp, data }),
    signingSecret: target.sealedSecret,
  };
}

/** `events` lesson_completed events' jobs, FANOUT each (one per /hook/i), as (g)'s fan-out writes them. */
function lessonJobs(tenantId: string, hooks: Map<string, Hook>, events: number): PeerJob[] {
  const jobs: PeerJob[] = [];
  for (let n = 0; n < events; n++) {
    const eventId = randomUUID();
    const data = lessonData(n);
    for (let i = 0; i < FANOUT; i++) {
      jobs.push(job(tenantId, hook(hooks, `/hook/${i}`), eventId, "lesson_completed", data));
    }
  }
  return jobs;
}

async function addInBatches(utils: WorkerUtils, jobs: PeerJob[]): Promise<void> {
  const batch = EMIT_BATCH * FANOUT;
  for (let start = 0; start < jobs.length; start += batch) {
    await utils.addJobs(jobs.slice(start, start + batch).map((payload) => ({ identifier: TASK, payload })));
  }
}

/** Jobs in graphile-worker's queue (completed ones are deleted). */
async function queued(db: Db): Promise<number> {
  const result = await db.execute(sql`SELECT count(*)::int AS n FROM graphile_worker.jobs`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** Until graphile-worker's queue holds no job: the last batched completions are written. */
async function settlePeer(db: Db): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if ((await queued(db)) === 0) return;
    await sleep(100);
  }
  throw new Error("graphile-worker jobs still queued 30 s after the receiver had them all");
}

/** The receiver's checks plus the runner's: every task completed, none failed. */
function checkPeer(
  bench: DeliveryBench,
  jobs: PeerJob[],
  summary: PeerSummary,
  fromReceipt: number,
  fromSample: number,
): Omit<DeliveryCheck, "seconds"> {
  const receipts = checkReceipts(
    bench.receiver,
    jobs.map((j) => j.id),
    fromReceipt,
    fromSample,
  );
  const problems: string[] = [];
  if (summary.errors > 0) {
    problems.push(`${summary.errors} tasks failed (${summary.errorMessages.join("; ")})`);
  }
  if (summary.completed !== jobs.length) {
    problems.push(`${summary.completed} tasks completed, ${jobs.length} jobs added`);
  }
  return {
    ...receipts,
    expected: jobs.length,
    statuses: { completed: summary.completed, failed: summary.errors },
    peer: { ...PEER_OPTIONS },
    problems: [...problems, ...receipts.problems],
  };
}

/** Runs `jobs`, already added, to the end in a runner of their own; returns its summary and the phase's CPU. */
async function drain(
  bench: DeliveryBench,
  jobs: PeerJob[],
  what: string,
): Promise<{ summary: PeerSummary; seconds: number; cpu: CpuPerDelivery }> {
  const { worker, receiver } = bench;
  const fromReceipt = receiver.receipts.length;
  const before = await cpuMark(worker, bench.databaseUrl);
  const t0 = performance.now();
  await worker.startPeer(PEER_OPTIONS);
  await receiver.waitFor(fromReceipt + jobs.length, what);
  const last = receiver.receipts[fromReceipt + jobs.length - 1]?.at ?? performance.now();
  // CPU until the last completion is written: completing is part of each job's cost.
  await settlePeer(bench.database.db);
  const cpu = cpuPerDelivery(before, await cpuMark(worker, bench.databaseUrl), jobs.length);
  const summary = await worker.stopPeer();
  return { summary, seconds: (last - t0) / 1000, cpu };
}

/** (p): a warm-up, then N jobs added with no runner and drained from the runner's start. */
async function measurePeerThroughput(bench: DeliveryBench, utils: WorkerUtils): Promise<DeliveryMeasurement> {
  const { receiver, options, tenantId } = bench;
  const hooks = await hooksOf(bench.database.db, tenantId);
  const events = Math.ceil(options.deliveries / FANOUT);
  const warmupProblems: string[] = [];
  if (options.warmupSeconds > 0) {
    const warm = lessonJobs(tenantId, hooks, Math.max(1, Math.round(events * WARMUP_SHARE)));
    const fromReceipt = receiver.receipts.length;
    const fromSample = receiver.samples.length;
    await addInBatches(utils, warm);
    await settleQueues(bench.database.db, "peer");
    const { summary } = await drain(bench, warm, "(p) warm-up");
    const check = checkPeer(bench, warm, summary, fromReceipt, fromSample);
    warmupProblems.push(...check.problems.map((p) => `warm-up: ${p}`));
  }
  const jobs = lessonJobs(tenantId, hooks, events);
  const t0add = performance.now();
  await addInBatches(utils, jobs);
  options.log(
    `postgres: ${jobs.length} graphile-worker jobs added (${((performance.now() - t0add) / 1000).toFixed(1)} s)`,
  );
  await settleQueues(bench.database.db, "peer");
  const fromReceipt = receiver.receipts.length;
  const fromSample = receiver.samples.length;
  const meter = options.cpuMeter(bench.worker.pid);
  const { summary, seconds, cpu: cpuPer } = await drain(bench, jobs, "(p)");
  const cpu = meter();
  const check = checkPeer(bench, jobs, summary, fromReceipt, fromSample);
  check.problems.unshift(...warmupProblems);
  return {
    scenario: "p",
    name: DELIVERY_SCENARIO_NAMES.p,
    db: "postgres",
    rows: jobs.length,
    reqPerSec: round(jobs.length / seconds, 1),
    latencyMs: summarise(summary.durationsMs),
    requests: { total: check.received, non2xx: summary.errors, errors: check.missing, timeouts: 0 },
    otherCpuCores: cpu.other,
    stealCores: cpu.steal,
    delivery: { ...check, seconds: round(seconds, 3), cpuPerDeliveryUs: cpuPer },
  };
}

/** (pl): one job per add at LATENCY_RATE for BENCH_DURATION while an idle runner waits. */
async function measurePeerLatency(bench: DeliveryBench, utils: WorkerUtils): Promise<DeliveryMeasurement> {
  const { receiver, options, tenantId, worker } = bench;
  const target = hook(await hooksOf(bench.database.db, tenantId), "/hook/h");
  const count = Math.max(1, LATENCY_RATE * options.durationSeconds);
  const jobs = Array.from({ length: count }, (_, n) =>
    job(tenantId, target, randomUUID(), "quiz_submitted", quizData(n)),
  );
  await worker.startPeer(PEER_OPTIONS);
  await sleep(IDLE_BEFORE_LATENCY_MS);
  const commits = new Map<string, number>();
  const fromReceipt = receiver.receipts.length;
  const fromSample = receiver.samples.length;
  const meter = options.cpuMeter(worker.pid);
  const start = performance.now();
  for (const [n, payload] of jobs.entries()) {
    const wait = start + (n * 1000) / LATENCY_RATE - performance.now();
    if (wait > 0) await sleep(wait);
    await utils.addJob(TASK, payload);
    commits.set(payload.id, performance.now());
  }
  const seconds = (performance.now() - start) / 1000;
  await receiver.waitFor(fromReceipt + jobs.length, "(pl)");
  await settlePeer(bench.database.db);
  const cpu = meter();
  const summary = await worker.stopPeer();
  const check = checkPeer(bench, jobs, summary, fromReceipt, fromSample);
  const e2e: number[] = [];
  const queueWait: number[] = [];
  const sendToReceipt: number[] = [];
  for (const [id, committed] of commits) {
    const received = receiver.firstAt.get(id);
    if (received === undefined) continue;
    e2e.push(received - committed);
    const started = summary.startedAt[id];
    if (started !== undefined) {
      queueWait.push(started - (performance.timeOrigin + committed));
      sendToReceipt.push(performance.timeOrigin + received - started);
    }
  }
  return {
    scenario: "pl",
    name: DELIVERY_SCENARIO_NAMES.pl,
    db: "postgres",
    rows: jobs.length,
    reqPerSec: round(jobs.length / seconds, 1),
    latencyMs: summarise(e2e),
    requests: { total: check.received, non2xx: summary.errors, errors: check.missing, timeouts: 0 },
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

/** (p) and (pl): graphile-worker's schema installed (its own migrations), then both phases. */
export async function measurePeer(bench: DeliveryBench): Promise<DeliveryMeasurement[]> {
  const utils = await makeWorkerUtils({ connectionString: bench.databaseUrl, logger: quietLogger });
  try {
    await utils.migrate();
    // Jobs left by an interrupted run on a reused BENCH_DATABASE_URL would run too and fail the checks as strays.
    const left = await queued(bench.database.db);
    if (left > 0)
      throw new Error(`graphile_worker.jobs holds ${left} jobs from an earlier run: empty it first`);
    // (p) twice, around nothing of ours: the parent runs (g) before and again after (g … p pl p g).
    const first = await measurePeerThroughput(bench, utils);
    const latency = await measurePeerLatency(bench, utils);
    const again = await measurePeerThroughput(bench, utils);
    again.name = `${again.name}, again`;
    return [first, latency, again];
  } finally {
    await utils.release();
  }
}
