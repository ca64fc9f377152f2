/**
 * (k) Fair between endpoints (issue 11 item 3): "one endpoint that times out or answers slowly cannot starve the
 * others … a bench scenario with 1 endpoint hanging until the timeout among 99 healthy ones, where the healthy
 * ones keep ≥ 0.8 of their throughput without it". PostgreSQL only, like (g).
 *
 * Two tenants of its own (MAX_AUTOMATIONS_PER_INSTITUTION is 50 by default): tenant A with 50 automations on
 * lesson_completed, tenant B with 49 on lesson_completed and one on quiz_submitted, all made by createAutomation.
 * The receiver (in this process, node:http on 127.0.0.2) answers 204 at once on the 99 healthy paths and never
 * answers on /hang: the request stays open until the worker's WEBHOOK_TIMEOUT_MS (FAIRNESS_TIMEOUT_MS here, not
 * production's 15 s, so that the scenario fits in seconds) aborts it. The worker is a child process
 * (bench/fairness-worker.ts) running `startDeliveryLoop` with production's defaults from the configuration.
 *
 * Each phase writes ROUNDS rounds with the loop stopped, one transaction per round (so the rounds' next_attempt_at
 * differ and the claim's oldest-first order interleaves them): a lesson_completed event to A and one to B (99
 * healthy deliveries), and in (k1) a quiz_submitted event to B (1 delivery to /hang, the same share each healthy
 * endpoint gets). Then the loop starts; healthy throughput = healthy deliveries / (loop start → last healthy
 * receipt). (k0) has no hanging endpoint, (k1) has it; each runs REPEATS times (k0 k1 k1 k0) and each figure is
 * over its runs (deliveries / seconds summed); k1/k0 is the figure (target ≥ 0.8). After each (k1) run its /hang
 * deliveries (pending retries) are deleted. A warm-up phase of WARMUP_ROUNDS healthy rounds runs first. Checks:
 * every healthy delivery succeeded after one attempt and was received exactly once (by webhook-id), nothing else
 * reached the healthy paths; the hanging deliveries' attempts are reported (outcome timeout), with the most in
 * flight at once by the delivery log (what the per-endpoint cap bounds) and by the receiver.
 * After (k1) the scenario's deliveries are deleted, so its pending retries cannot reach later scenarios' claims.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { type Config, loadConfig } from "../src/config/index.js";
import { loadPlanConfig } from "../src/config/plans.js";
import type { Database, Db } from "../src/db/client.js";
import { rowsOf } from "../src/db/rows.js";
import { createAutomation } from "../src/modules/automations/service.js";
import { EVENT_SAMPLES, type EventPayloads } from "../src/modules/events/catalogue.js";
import { emitEvent } from "../src/modules/events/emit.js";
import { systemResolver } from "../src/platform/outbound/resolver.js";
import { forkWorkerChild, LocalReceiver, RECEIVER_HOST, type WorkerChild } from "./deliveries.js";
import { FAIRNESS_WORKER_ENV } from "./fairness-worker.js";
import { type LatencySummary, summarise } from "./protocol.js";
import { makeTenant } from "./seed.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const WORKER_JS = join(HERE, "fairness-worker.js");

/** The worker's WEBHOOK_TIMEOUT_MS in (k): how long each request to /hang holds a send. */
export const FAIRNESS_TIMEOUT_MS = 2000;
/** Healthy endpoints, split over two tenants (A: TENANT_A_HOOKS, B: the rest and /hang). */
export const HEALTHY_ENDPOINTS = 99;
const TENANT_A_HOOKS = 50;
/** Rounds per measured phase: each healthy endpoint (and /hang in k1) gets this many deliveries. */
export const ROUNDS = 200;
const WARMUP_ROUNDS = 50;
/**
 * (k0) and (k1) run this many times each, in the order k0 k1 k1 k0 …, and each scenario's figure is over all its
 * runs: on a shared two-core machine one ten-second run swings by ±20% with whatever else runs, and the order
 * cancels a steady drift (the runs got faster one after the other in trials, warm-up notwithstanding).
 */
export const REPEATS = 2;

export type FairnessScenario = "k0" | "k1";

export const FAIRNESS_SCENARIO_NAMES: Record<FairnessScenario, string> = {
  k0: `(k0) ${HEALTHY_ENDPOINTS} healthy endpoints`,
  k1: `(k1) ${HEALTHY_ENDPOINTS} healthy + 1 hanging`,
};

export interface FairnessCheck {
  /** Healthy deliveries written, received (requests to the healthy paths), duplicates, never received. */
  healthyExpected: number;
  healthyReceived: number;
  duplicates: number;
  missing: number;
  /** The healthy deliveries' statuses once the loop had stopped. */
  statuses: Record<string, number>;
  /** (k1): deliveries to /hang, the requests /hang took, and their recorded attempts by outcome. */
  hangingDeliveries: number;
  hangingRequests: number;
  hangingAttempts: Record<string, number>;
  /**
   * The most /hang attempts in flight at once by the worker's own records (started_at, duration_ms): what the
   * per-endpoint cap bounds.
   */
  hangingInFlight: number;
  /**
   * Pauses in the healthy receipts (loop start included): the longest, and the time spent in those over GAP_MS —
   * where the loop sent nothing healthy (waiting for a wake-up or a poll while healthy deliveries were due).
   */
  longestGapMs: number;
  gapsOverMs: number;
  /**
   * The most requests the receiver held open at once: on /hang, and on all paths. A request the sender has
   * aborted stays open here until the receiver's event loop sees the connection close, so under load this can
   * exceed hangingInFlight by a request or two.
   */
  peakHangingOpen: number;
  peakOpen: number;
  /** Loop start → last healthy receipt, s, summed over the runs. */
  seconds: number;
  /** Healthy deliveries/s of each run (REPEATS of them); the measurement's figure is over all of them. */
  runs: number[];
  /** What the worker's configuration says (the loop takes its defaults from it). */
  config: { concurrency: number; endpointConcurrency: number; timeoutMs: number; pollMs: number };
  problems: string[];
}

/** Shaped like run.ts's Measurement, which it joins. */
export interface FairnessMeasurement {
  scenario: FairnessScenario;
  name: string;
  db: "postgres";
  /** Healthy deliveries. */
  rows: number;
  /** Healthy deliveries per second. */
  reqPerSec: number;
  /** The healthy attempts' duration_ms. */
  latencyMs: LatencySummary;
  requests: { total: number; non2xx: number; errors: number; timeouts: number };
  otherCpuCores: number | null;
  stealCores: number | null;
  fairness: FairnessCheck;
}

export interface FairnessBenchOptions {
  log(message: string): void;
  cpuMeter(childPid: number | undefined): () => { other: number | null; steal: number | null };
  execArgv: string[];
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------------- receiver

/** 204 at once on /hook/<n>, recorded by webhook-id; /hang is read and never answered. */
class Receiver extends LocalReceiver {
  hangRequests = 0;
  open = 0;
  hangingOpen = 0;
  peakOpen = 0;
  peakHangingOpen = 0;

  protected handle(req: IncomingMessage, res: ServerResponse): void {
    this.open++;
    this.peakOpen = Math.max(this.peakOpen, this.open);
    // 'close' on the response: answered, or the connection dropped (the sender's timeout on /hang).
    res.once("close", () => this.open--);
    if (req.url === "/hang") {
      this.hangRequests++;
      this.hangingOpen++;
      this.peakHangingOpen = Math.max(this.peakHangingOpen, this.hangingOpen);
      res.once("close", () => this.hangingOpen--);
      req.resume();
      return;
    }
    req.resume();
    req.on("end", () => {
      this.receive(String(req.headers["webhook-id"] ?? ""));
      res.statusCode = 204;
      res.end();
    });
  }

  resetPeaks(): void {
    this.peakOpen = this.open;
    this.peakHangingOpen = this.hangingOpen;
  }
}

// ---------------------------------------------------------------------------------------------- worker child

function startWorkerChild(env: Record<string, string>, execArgv: string[]): Promise<WorkerChild> {
  return forkWorkerChild(WORKER_JS, { [FAIRNESS_WORKER_ENV]: JSON.stringify(env) }, execArgv);
}

// ---------------------------------------------------------------------------------------------- seeding

interface Setup {
  tenantA: string;
  tenantB: string;
  hangAutomationId: string;
  config: Config;
  env: Record<string, string>;
}

/** Production's configuration on PostgreSQL, but for the attempt timeout (FAIRNESS_TIMEOUT_MS). */
function workerEnv(databaseUrl: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    OUTBOUND_ALLOW_CIDRS: `${RECEIVER_HOST}/32`,
    WEBHOOK_TIMEOUT_MS: String(FAIRNESS_TIMEOUT_MS),
    LOG_LEVEL: "warn",
  };
}

async function seed(database: Database, receiver: Receiver, databaseUrl: string): Promise<Setup> {
  const env = workerEnv(databaseUrl);
  const config = loadConfig(env);
  const plans = loadPlanConfig({});
  const tenantA = (await makeTenant(database.db, plans, "fair-a")).id;
  const tenantB = (await makeTenant(database.db, plans, "fair-b")).id;
  const deps = { db: database.db, config, resolve: systemResolver };
  const make = (tenantId: string, event: "lesson_completed" | "quiz_submitted", path: string) =>
    createAutomation(
      deps,
      tenantId,
      {
        name: `bench fairness ${path}`,
        trigger: { event },
        action: { type: "send_webhook", url: receiver.url(path) },
      },
      "http://localhost",
    );
  for (let i = 0; i < HEALTHY_ENDPOINTS; i++) {
    await make(i < TENANT_A_HOOKS ? tenantA : tenantB, "lesson_completed", `/hook/${i}`);
  }
  const hang = await make(tenantB, "quiz_submitted", "/hang");
  return { tenantA, tenantB, hangAutomationId: hang.id, config, env };
}

function lessonData(n: number): EventPayloads["lesson_completed"] {
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

function quizData(n: number): EventPayloads["quiz_submitted"] {
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

interface Emitted {
  eventIds: string[];
  healthy: number;
  hanging: number;
}

/** `rounds` transactions, each one round: a lesson to A and to B, and with `hang` a quiz to B. */
async function emitRounds(db: Db, setup: Setup, rounds: number, hang: boolean): Promise<Emitted> {
  const out: Emitted = { eventIds: [], healthy: 0, hanging: 0 };
  for (let n = 0; n < rounds; n++) {
    await db.transaction(async (tx) => {
      for (const tenantId of [setup.tenantA, setup.tenantB]) {
        const e = await emitEvent(tx, {
          tenantId,
          type: "lesson_completed",
          data: lessonData(n),
          actor: { type: "system" },
        });
        out.eventIds.push(e.id);
        out.healthy += e.deliveries;
      }
      if (hang) {
        const e = await emitEvent(tx, {
          tenantId: setup.tenantB,
          type: "quiz_submitted",
          data: quizData(n),
          actor: { type: "system" },
        });
        out.eventIds.push(e.id);
        out.hanging += e.deliveries;
      }
    });
  }
  // As autovacuum would on tables that grew this much (see deliveries.ts analyzeOutbox).
  await db.execute(sql`ANALYZE webhook_deliveries, delivery_attempts, automations, platform_events`);
  return out;
}

// ---------------------------------------------------------------------------------------------- phases

interface Row {
  id: string;
  automation_id: string;
  status: string;
  attempts: number;
  attempt_rows: number;
  duration_ms: number | null;
  outcomes: string | null;
}

async function rowsOfPhase(db: Db, setup: Setup, eventIds: string[]): Promise<Row[]> {
  const result = await db.execute(sql`
    SELECT d.id::text AS id, d.automation_id::text AS automation_id, d.status, d.attempts,
      count(a.attempt)::int AS attempt_rows, min(a.duration_ms) AS duration_ms,
      string_agg(a.outcome, ',') AS outcomes
    FROM webhook_deliveries AS d
    LEFT JOIN delivery_attempt_log AS a ON a.tenant_id = d.tenant_id AND a.delivery_id = d.id
    WHERE d.tenant_id IN (${setup.tenantA}::uuid, ${setup.tenantB}::uuid)
      AND d.event_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(eventIds)}::jsonb)::uuid)
    GROUP BY d.tenant_id, d.id
  `);
  return rowsOf<Row>(result).map((r) => ({
    ...r,
    attempts: Number(r.attempts),
    attempt_rows: Number(r.attempt_rows),
    duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
  }));
}

/**
 * started_at is stored to the millisecond and duration_ms in whole milliseconds, so an attempt that starts as the
 * previous one ends can seem to overlap it by a millisecond or two: overlaps this short are not counted.
 */
const ROUNDING_MS = 5;

/** The most attempts to /hang that overlapped in time, from the delivery log (every phase's: only k1 has any). */
async function mostInFlight(db: Db, setup: Setup): Promise<number> {
  const result = await db.execute(sql`
    SELECT (extract(epoch FROM a.started_at) * 1000)::float8 AS started_ms, a.duration_ms
    FROM delivery_attempt_log AS a
    JOIN webhook_deliveries AS d ON d.tenant_id = a.tenant_id AND d.id = a.delivery_id
    WHERE d.tenant_id = ${setup.tenantB}::uuid AND d.automation_id = ${setup.hangAutomationId}::uuid`);
  const edges = rowsOf<{ started_ms: number; duration_ms: number }>(result).flatMap((r) => [
    { at: Number(r.started_ms), step: 1 },
    { at: Number(r.started_ms) + Number(r.duration_ms) - ROUNDING_MS, step: -1 },
  ]);
  // An attempt that ends when another starts does not overlap it: ends first.
  edges.sort((x, y) => x.at - y.at || x.step - y.step);
  let now = 0;
  let most = 0;
  for (const edge of edges) {
    now += edge.step;
    most = Math.max(most, now);
  }
  return most;
}

/** A pause between two healthy receipts longer than this counts in gapsOverMs. */
const GAP_MS = 50;

function gapsOf(receipts: { at: number }[], t0: number): { longestGapMs: number; gapsOverMs: number } {
  let previous = t0;
  let longest = 0;
  let over = 0;
  for (const { at } of receipts) {
    const gap = at - previous;
    longest = Math.max(longest, gap);
    if (gap > GAP_MS) over += gap;
    previous = Math.max(previous, at);
  }
  return { longestGapMs: round(longest, 1), gapsOverMs: round(over, 1) };
}

interface Phase {
  seconds: number;
  cpu: { other: number | null; steal: number | null };
  check: FairnessCheck;
  durations: number[];
}

async function runPhase(
  database: Database,
  setup: Setup,
  worker: WorkerChild,
  receiver: Receiver,
  rounds: number,
  hang: boolean,
  options: FairnessBenchOptions,
): Promise<Phase> {
  const { db } = database;
  const emitted = await emitRounds(db, setup, rounds, hang);
  const fromReceipt = receiver.receipts.length;
  const hangFrom = receiver.hangRequests;
  receiver.resetPeaks();
  const meter = options.cpuMeter(worker.pid);
  const t0 = performance.now();
  await worker.startLoop();
  await receiver.waitFor(fromReceipt + emitted.healthy, hang ? "(k1)" : "(k0)", 5);
  const cpu = meter();
  const last = receiver.receipts[fromReceipt + emitted.healthy - 1]?.at ?? performance.now();
  const seconds = (last - t0) / 1000;
  const gaps = gapsOf(receiver.receipts.slice(fromReceipt, fromReceipt + emitted.healthy), t0);
  const peakOpen = receiver.peakOpen;
  const peakHangingOpen = receiver.peakHangingOpen;
  // Waits for the sends in flight (at most one timeout) and their records.
  await worker.stopLoop();
  const hangingInFlight = await mostInFlight(db, setup);
  const rows = await rowsOfPhase(db, setup, emitted.eventIds);
  // The /hang deliveries wait for their retries: gone, so that the next (k0) has no hanging endpoint.
  await db.execute(sql`
    DELETE FROM webhook_deliveries
    WHERE tenant_id = ${setup.tenantB}::uuid AND automation_id = ${setup.hangAutomationId}::uuid`);
  const healthy = rows.filter((r) => r.automation_id !== setup.hangAutomationId);
  const hanging = rows.filter((r) => r.automation_id === setup.hangAutomationId);
  const problems: string[] = [];
  if (healthy.length !== emitted.healthy)
    problems.push(`${healthy.length} healthy deliveries in the database, ${emitted.healthy} written`);
  if (emitted.healthy !== rounds * HEALTHY_ENDPOINTS)
    problems.push(`${emitted.healthy} healthy deliveries written, expected ${rounds * HEALTHY_ENDPOINTS}`);
  if (emitted.hanging !== (hang ? rounds : 0))
    problems.push(`${emitted.hanging} deliveries to /hang written, expected ${hang ? rounds : 0}`);
  const statuses: Record<string, number> = {};
  for (const r of healthy) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  if ((statuses.succeeded ?? 0) !== healthy.length) problems.push(`statuses ${JSON.stringify(statuses)}`);
  const retried = healthy.filter((r) => r.attempts !== 1 || r.attempt_rows !== 1).length;
  if (retried > 0) problems.push(`${retried} healthy deliveries with other than exactly one attempt`);
  const missing = healthy.filter((r) => (receiver.counts.get(r.id) ?? 0) === 0).length;
  const duplicates = healthy.filter((r) => (receiver.counts.get(r.id) ?? 0) > 1).length;
  if (missing > 0) problems.push(`${missing} healthy deliveries never received`);
  if (duplicates > 0) problems.push(`${duplicates} healthy deliveries received more than once`);
  const ids = new Set(healthy.map((r) => r.id));
  const phaseReceipts = receiver.receipts.slice(fromReceipt);
  const strays = phaseReceipts.filter((r) => !ids.has(r.id)).length;
  if (strays > 0) problems.push(`${strays} requests on the healthy paths that are not this phase's`);
  const hangingAttempts: Record<string, number> = {};
  for (const r of hanging) {
    for (const outcome of (r.outcomes ?? "").split(",").filter((o) => o !== "")) {
      hangingAttempts[outcome] = (hangingAttempts[outcome] ?? 0) + 1;
    }
  }
  if (hang && (hangingAttempts.succeeded ?? 0) > 0) problems.push("an attempt to /hang succeeded");
  const delivery = setup.config.outbound.delivery;
  return {
    seconds,
    cpu,
    durations: healthy.flatMap((r) => (r.duration_ms === null ? [] : [r.duration_ms])),
    check: {
      healthyExpected: emitted.healthy,
      healthyReceived: phaseReceipts.length,
      duplicates,
      missing,
      statuses,
      hangingDeliveries: hanging.length,
      hangingRequests: receiver.hangRequests - hangFrom,
      hangingAttempts,
      hangingInFlight,
      ...gaps,
      peakHangingOpen,
      peakOpen,
      seconds: round(seconds, 3),
      runs: [round(emitted.healthy / seconds, 1)],
      config: {
        concurrency: delivery.concurrency,
        endpointConcurrency: delivery.endpointConcurrency,
        timeoutMs: setup.config.outbound.timeoutMs,
        pollMs: delivery.pollMs,
      },
      problems,
    },
  };
}

const add = (x: Record<string, number>, y: Record<string, number>) => {
  const sum = { ...x };
  for (const [k, v] of Object.entries(y)) sum[k] = (sum[k] ?? 0) + v;
  return sum;
};

/** One scenario's runs as one: counts and times summed, peaks the highest, problems named by run. */
function merge(phases: Phase[]): Phase {
  const [first, ...rest] = phases;
  if (first === undefined) throw new Error("no run to merge");
  const mean = (xs: (number | null)[]) => {
    const known = xs.filter((x): x is number => x !== null);
    return known.length === 0 ? null : round(known.reduce((s, x) => s + x, 0) / known.length, 2);
  };
  const c = first.check;
  const merged: FairnessCheck = {
    ...c,
    problems: phases.flatMap((p, i) => p.check.problems.map((problem) => `run ${i + 1}: ${problem}`)),
  };
  for (const { check: r } of rest) {
    merged.healthyExpected += r.healthyExpected;
    merged.healthyReceived += r.healthyReceived;
    merged.duplicates += r.duplicates;
    merged.missing += r.missing;
    merged.statuses = add(merged.statuses, r.statuses);
    merged.hangingDeliveries += r.hangingDeliveries;
    merged.hangingRequests += r.hangingRequests;
    merged.hangingAttempts = add(merged.hangingAttempts, r.hangingAttempts);
    merged.hangingInFlight = Math.max(merged.hangingInFlight, r.hangingInFlight);
    merged.longestGapMs = Math.max(merged.longestGapMs, r.longestGapMs);
    merged.gapsOverMs = round(merged.gapsOverMs + r.gapsOverMs, 1);
    merged.peakHangingOpen = Math.max(merged.peakHangingOpen, r.peakHangingOpen);
    merged.peakOpen = Math.max(merged.peakOpen, r.peakOpen);
    merged.runs = [...merged.runs, ...r.runs];
  }
  const seconds = phases.reduce((s, p) => s + p.seconds, 0);
  merged.seconds = round(seconds, 3);
  return {
    seconds,
    cpu: { other: mean(phases.map((p) => p.cpu.other)), steal: mean(phases.map((p) => p.cpu.steal)) },
    durations: phases.flatMap((p) => p.durations),
    check: merged,
  };
}

function toMeasurement(scenario: FairnessScenario, phase: Phase): FairnessMeasurement {
  const c = phase.check;
  return {
    scenario,
    name: FAIRNESS_SCENARIO_NAMES[scenario],
    db: "postgres",
    rows: c.healthyExpected,
    reqPerSec: round(c.healthyExpected / phase.seconds, 1),
    latencyMs: summarise(phase.durations),
    requests: {
      total: c.healthyReceived,
      non2xx: c.healthyExpected - (c.statuses.succeeded ?? 0),
      errors: c.missing,
      timeouts: c.hangingAttempts.timeout ?? 0,
    },
    otherCpuCores: phase.cpu.other,
    stealCores: phase.cpu.steal,
    fairness: c,
  };
}

/** (k0) and (k1) on the PostgreSQL database `database` (at `databaseUrl`, which the worker child opens too). */
export async function measureFairness(
  database: Database,
  databaseUrl: string,
  options: FairnessBenchOptions,
): Promise<FairnessMeasurement[]> {
  const receiver = new Receiver();
  await receiver.listen();
  let setup: Setup | undefined;
  try {
    setup = await seed(database, receiver, databaseUrl);
    const worker = await startWorkerChild(setup.env, options.execArgv);
    try {
      const warm = await runPhase(database, setup, worker, receiver, WARMUP_ROUNDS, false, options);
      const runs: Record<FairnessScenario, Phase[]> = { k0: [], k1: [] };
      for (let i = 0; i < REPEATS; i++) {
        for (const scenario of i % 2 === 0 ? (["k0", "k1"] as const) : (["k1", "k0"] as const)) {
          const hang = scenario === "k1";
          runs[scenario].push(await runPhase(database, setup, worker, receiver, ROUNDS, hang, options));
        }
      }
      const out = (["k0", "k1"] as const).map((scenario) => toMeasurement(scenario, merge(runs[scenario])));
      out[0]?.fairness.problems.unshift(...warm.check.problems.map((p) => `warm-up: ${p}`));
      for (const m of out) logMeasurement(options.log, m);
      return out;
    } finally {
      await worker.exit();
    }
  } finally {
    await receiver.close();
    // (k1) leaves deliveries to /hang pending a retry: none of them may reach a later scenario's claim.
    if (setup !== undefined) {
      await database.db.execute(sql`
        DELETE FROM webhook_deliveries WHERE tenant_id IN (${setup.tenantA}::uuid, ${setup.tenantB}::uuid)`);
    }
  }
}

function logMeasurement(log: (message: string) => void, m: FairnessMeasurement): void {
  const f = m.fairness;
  log(
    `${m.name.padEnd(40)} ${String(m.rows).padStart(6)} postgres ${Math.round(m.reqPerSec)} healthy deliveries/s ` +
      `(${f.seconds} s; runs ${f.runs.join(", ")}/s), /hang: ${f.hangingDeliveries} deliveries, ` +
      `${f.hangingRequests} requests, attempts ${JSON.stringify(f.hangingAttempts)}, at once ` +
      `${f.hangingInFlight} (the receiver saw ${f.peakHangingOpen} on /hang, ${f.peakOpen} in all), ` +
      `healthy pauses: longest ${f.longestGapMs} ms, ${f.gapsOverMs} ms in pauses over ${GAP_MS} ms, ` +
      `other cpu ${m.otherCpuCores ?? "?"}`,
  );
  for (const problem of f.problems) log(`CHECK FAILED ${m.name}: ${problem}`);
}
