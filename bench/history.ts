/**
 * (l) Flat as history grows (issue 11 item 5): "the claim costs the same with 1,000,000 completed deliveries in the
 * table as with none (bench it); completed deliveries and attempts past their retention are purged in batches by
 * the worker". PostgreSQL only.
 *
 * A tenant of its own with AUTOMATIONS automations (createAutomation; nothing is sent, so their URL is never
 * reached) and PENDING due deliveries spread over them, written in SQL with distinct next_attempt_at. The claim is
 * timed directly, in this process: `claimDue(db, {limit: CLAIM_LIMIT, leaseSeconds: 60})` as the worker calls it,
 * PENDING / CLAIM_LIMIT claims a round (which drain the due rows), the claimed rows put back to pending between
 * rounds (not timed); one unmeasured round, then ROUNDS measured. (l0) with none of the scenario's history; then
 * BENCH_HISTORY succeeded deliveries (each with its succeeded attempt, on its row) inserted with
 * generate_series in batches of INSERT_BATCH, completed between 1 and 31 days past WEBHOOK_RETENTION_DAYS ago, and
 * (l1) the same claims again. Before each phase VACUUM (ANALYZE) of the outbox tables, as autovacuum would after
 * such growth, and a CHECKPOINT. Per claim: mean, p50, p99; l1/l0 compares claims per second at the median claim
 * (target ≈ 1, printed as ≥ 0.8 like the other ratios). After each phase the claim is EXPLAINed (ANALYZE, BUFFERS)
 * EXPLAINS times, each in a transaction rolled back: the median execution time is the database's own cost of a
 * claim (no round trip, no commit), and the pages it touched are the plan's buffers.
 *
 * Between (l0) and (l1), (l2): a dead endpoint's backlog ahead of the rest (issue 11's fairness at scale). An 11th
 * automation of the tenant gets BACKLOG deliveries due before every other one, and the same claims run as the
 * worker runs them while that endpoint holds its cap (`endpointFree` 0 for it): each must take CLAIM_LIMIT of the
 * others and none of its, at about (l0)'s cost (l2/l0, target ≥ 0.8). Its rows are deleted afterwards.
 *
 * Then the history goes through the worker's retention purge (`purgeCompletedDeliveries`), timed: rows/s.
 * Checks: every claim took CLAIM_LIMIT deliveries of the scenario's tenant and abandoned none; no other tenant had
 * due deliveries (they would be claimed too); the purge removed exactly the history, no completed row of the
 * tenant is left and every pending one is. At the end the tenant's deliveries, attempts and delivery_stats rows
 * are deleted.
 */
import { type SQL, sql } from "drizzle-orm";
import { loadConfig } from "../src/config/index.js";
import { loadPlanConfig } from "../src/config/plans.js";
import type { Database, Db } from "../src/db/client.js";
import { rowsOf } from "../src/db/rows.js";
import { createAutomation } from "../src/modules/automations/service.js";
import { type ClaimOptions, claimDue } from "../src/modules/outbox/claim.js";
import { PURGE_BATCH_SIZE, purgeCompletedDeliveries } from "../src/modules/outbox/retention.js";
import { systemResolver } from "../src/platform/outbound/resolver.js";
import { explainClaim } from "./explain-claim.js";
import { type LatencySummary, summarise } from "./protocol.js";
import { makeTenant } from "./seed.js";

/** Due deliveries waiting in the outbox during each claim round. */
export const PENDING = 2000;
export const CLAIM_LIMIT = 100;
const LEASE_SECONDS = 60;
const ROUNDS = 10;
/** Endpoints the pending rows and the history are spread over (a per-endpoint cap must not shorten a claim). */
const AUTOMATIONS = 10;
const INSERT_BATCH = 100_000;
/** EXPLAIN ANALYZE runs after each phase (each is one claim, rolled back). */
const EXPLAINS = 5;
/** The history's completion times: spread over this many days, the newest a day past retention. */
const HISTORY_SPAN_DAYS = 30;
/** (l2): due deliveries of one endpoint at its cap, ahead of the PENDING ones. */
export const BACKLOG = 50_000;

export type HistoryScenario = "l0" | "l1" | "l2";

export interface PurgeReport {
  /** What removed the history: the worker's purge, or one SQL DELETE when src/ has no purge yet. */
  method: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  /** Completed deliveries of the tenant left afterwards, and pending ones kept (of PENDING). */
  completedLeft: number;
  pendingKept: number;
}

export interface HistoryCheck {
  /** The scenario's completed deliveries in webhook_deliveries, its attempts, and all rows of the table. */
  completedRows: number;
  attemptRows: number;
  tableRows: number;
  pending: number;
  claims: number;
  /** Fewest and most deliveries one claim took. */
  claimedMin: number;
  claimedMax: number;
  /** Seconds to insert the history (l1). */
  seedSeconds?: number;
  /**
   * EXPLAIN (ANALYZE, BUFFERS) of the claim's statement(s) after the phase, the median execution time of EXPLAINS
   * runs, and the pages (shared buffers hit or read) the statement touched: flat history means flat pages.
   */
  plan?: string[];
  planExecutionMs?: number | null;
  planBuffers?: number | null;
  purge?: PurgeReport;
  problems: string[];
}

/** Shaped like run.ts's Measurement, which it joins. */
export interface HistoryMeasurement {
  scenario: HistoryScenario;
  name: string;
  db: "postgres";
  /** Completed deliveries of the scenario in the table. */
  rows: number;
  /** Claims per second at the median claim (1000 / p50). */
  reqPerSec: number;
  /** Per claim, ms. */
  latencyMs: LatencySummary;
  requests: { total: number; non2xx: number; errors: number; timeouts: number };
  otherCpuCores: number | null;
  stealCores: number | null;
  history: HistoryCheck;
}

export interface HistoryBenchOptions {
  /** The database's URL: the EXPLAIN runs on a connection of its own (notices). */
  databaseUrl: string;
  /** BENCH_HISTORY: completed deliveries for (l1). */
  rows: number;
  log(message: string): void;
  cpuMeter(): () => { other: number | null; steal: number | null };
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

function formatCount(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return String(n);
}

async function count(db: Db, query: SQL): Promise<number> {
  return Number(rowsOf<{ n: number | string }>(await db.execute(query))[0]?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------- seeding

interface Setup {
  tenantId: string;
  automationIds: string[];
  /** (l2)'s endpoint, which holds its cap: none of the PENDING rows are its. */
  backlogId: string;
  retentionDays: number;
}

/** A delivery body of the size the fan-out writes for lesson_completed. */
const BODY = JSON.stringify({
  type: "lesson_completed",
  timestamp: "2026-01-01T00:00:00.000Z",
  data: {
    courseId: "00000000-0000-4000-8000-000000000001",
    lessonId: "00000000-0000-4000-8000-000000000002",
    moduleId: null,
    enrollmentId: "00000000-0000-4000-8000-000000000003",
    completedAt: "2026-01-01T00:00:00.000Z",
    timeSpentSeconds: 300,
    scorePercent: 80,
    progressPercent: 50,
    courseCompleted: false,
    user: { id: "00000000-0000-4000-8000-000000000004", email: "student@example.test", name: "A Student" },
  },
});
const URL_OF = "http://127.0.0.2:9/hook";

async function seed(database: Database): Promise<Setup> {
  const config = loadConfig({
    NODE_ENV: "production",
    DATABASE_URL: "postgres://unused",
    SESSION_SECRET: "x".repeat(64),
    SECRETS_ENCRYPTION_KEY: "0".repeat(64),
    OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32",
  });
  const tenant = await makeTenant(database.db, loadPlanConfig({}), "history");
  const deps = { db: database.db, config, resolve: systemResolver };
  const automationIds: string[] = [];
  for (let i = 0; i <= AUTOMATIONS; i++) {
    const created = await createAutomation(
      deps,
      tenant.id,
      {
        name: `bench history ${i}`,
        trigger: { event: "lesson_completed" },
        action: { type: "send_webhook", url: `${URL_OF}/${i}` },
      },
      "http://localhost",
    );
    automationIds.push(created.id);
  }
  const backlogId = automationIds.pop() as string;
  // Due a little while ago, a millisecond apart, round-robin over the endpoints.
  await database.db.execute(sql`
    INSERT INTO webhook_deliveries (tenant_id, automation_id, event_id, event_type, status, url, headers, body,
      attempts, next_attempt_at, created_at)
    SELECT ${tenant.id}::uuid, (${sql.param(automationIds)}::uuid[])[1 + n % ${AUTOMATIONS}],
      gen_random_uuid(), 'lesson_completed', 'pending', ${URL_OF}, '{}'::jsonb, ${BODY}, 0,
      now() - interval '1 hour' + n * interval '1 millisecond', now() - interval '1 hour'
    FROM generate_series(1, ${PENDING}) AS n`);
  return {
    tenantId: tenant.id,
    automationIds,
    backlogId,
    retentionDays: config.outbound.delivery.retentionDays,
  };
}

/**
 * `rows` succeeded deliveries, each with its succeeded attempt, completed past retention. The attempt is kept on the
 * delivery row where the schema has its columns (migration 0029), as the worker keeps it; a delivery_attempts row
 * before that.
 */
async function insertHistory(db: Db, setup: Setup, rows: number, log: (m: string) => void): Promise<void> {
  const oldestDays = setup.retentionDays + 1 + HISTORY_SPAN_DAYS;
  const stepSeconds = (HISTORY_SPAN_DAYS * 86_400) / rows;
  const onRow =
    (await count(
      db,
      sql`SELECT count(*) AS n FROM information_schema.columns
        WHERE table_name = 'webhook_deliveries' AND column_name = 'success_started_at'`,
    )) > 0;
  for (let from = 1; from <= rows; from += INSERT_BATCH) {
    const to = Math.min(rows, from + INSERT_BATCH - 1);
    const series = sql`
      FROM generate_series(${from}::int, ${to}::int) AS n,
        LATERAL (SELECT now() - make_interval(days => ${oldestDays})
          + n * ${stepSeconds}::float8 * interval '1 second' AS t) AS ts`;
    const automation = sql`(${sql.param(setup.automationIds)}::uuid[])[1 + n % ${AUTOMATIONS}]`;
    if (onRow) {
      await db.execute(sql`
        INSERT INTO webhook_deliveries (tenant_id, automation_id, event_id, event_type, status, url, headers, body,
          attempts, next_attempt_at, last_status_code, created_at, completed_at, success_started_at,
          success_duration_ms)
        SELECT ${setup.tenantId}::uuid, ${automation}, gen_random_uuid(), 'lesson_completed', 'succeeded', ${URL_OF},
          '{}'::jsonb, ${BODY}, 1, t, 204, t, t + interval '40 milliseconds', t, 40
        ${series}`);
    } else {
      await db.execute(sql`
        WITH ins AS (
          INSERT INTO webhook_deliveries (tenant_id, automation_id, event_id, event_type, status, url, headers, body,
            attempts, next_attempt_at, last_status_code, created_at, completed_at)
          SELECT ${setup.tenantId}::uuid, ${automation}, gen_random_uuid(), 'lesson_completed', 'succeeded',
            ${URL_OF}, '{}'::jsonb, ${BODY}, 1, t, 204, t, t + interval '40 milliseconds'
          ${series}
          RETURNING tenant_id, id, automation_id, created_at
        )
        INSERT INTO delivery_attempts
          (tenant_id, delivery_id, automation_id, attempt, started_at, duration_ms, outcome, status_code)
        SELECT tenant_id, id, automation_id, 1, created_at, 40, 'succeeded', 204 FROM ins`);
    }
    if (to % 500_000 === 0 || to === rows) log(`postgres: history ${to} of ${rows} completed deliveries`);
  }
  // The attempts' trigger filled per-minute stats for a month back, which production purges after two hours.
  await deleteStats(db, setup);
}

/** (l2): BACKLOG deliveries of the backlog endpoint, due before every PENDING one. */
async function insertBacklog(db: Db, setup: Setup): Promise<void> {
  await db.execute(sql`
    INSERT INTO webhook_deliveries (tenant_id, automation_id, event_id, event_type, status, url, headers, body,
      attempts, next_attempt_at, created_at)
    SELECT ${setup.tenantId}::uuid, ${setup.backlogId}::uuid, gen_random_uuid(), 'lesson_completed', 'pending',
      ${URL_OF}, '{}'::jsonb, ${BODY}, 0, now() - interval '2 hours' + n * interval '100 microseconds',
      now() - interval '2 hours'
    FROM generate_series(1, ${BACKLOG}) AS n`);
}

async function deleteBacklog(db: Db, setup: Setup): Promise<void> {
  await db.execute(sql`
    DELETE FROM webhook_deliveries
    WHERE tenant_id = ${setup.tenantId}::uuid AND automation_id = ${setup.backlogId}::uuid`);
}

/** The tenant's delivery_stats rows, where the schema has the table (migration 0016). */
async function deleteStats(db: Db, setup: Setup): Promise<void> {
  const exists = await count(db, sql`SELECT (to_regclass('public.delivery_stats') IS NOT NULL)::int AS n`);
  if (exists > 0) await db.execute(sql`DELETE FROM delivery_stats WHERE tenant_id = ${setup.tenantId}::uuid`);
}

/**
 * VACUUM (ANALYZE) of the outbox tables, as autovacuum would after such growth, then a CHECKPOINT: the history's
 * WAL would otherwise be flushed by a checkpoint in the middle of the measured claims (their commits waiting on it,
 * p99 ×10 in trials), which is the insert's cost, not the claim's.
 */
async function settleOutbox(db: Db): Promise<void> {
  await db.execute(sql`VACUUM (ANALYZE) webhook_deliveries, delivery_attempts`);
  await db.execute(sql`CHECKPOINT`);
}

/** Claimed (delivering) rows of the tenant back to pending, as if never claimed. */
async function restore(db: Db, setup: Setup): Promise<void> {
  await db.execute(sql`
    UPDATE webhook_deliveries SET status = 'pending', attempts = 0, lease_until = NULL
    WHERE tenant_id = ${setup.tenantId}::uuid AND status = 'delivering'`);
}

// ---------------------------------------------------------------------------------------------- phases

interface Round {
  ms: number[];
  claimed: number[];
  problems: string[];
}

/** The claim as the worker makes it in each phase: (l2)'s with the backlog endpoint at its cap. */
function claimOptions(setup: Setup, scenario: HistoryScenario): ClaimOptions {
  const claim: ClaimOptions = { limit: CLAIM_LIMIT, leaseSeconds: LEASE_SECONDS };
  return scenario === "l2" ? { ...claim, endpointFree: new Map([[setup.backlogId, 0]]) } : claim;
}

async function claimRound(db: Db, setup: Setup, claim: ClaimOptions): Promise<Round> {
  const out: Round = { ms: [], claimed: [], problems: [] };
  for (let i = 0; i < PENDING / CLAIM_LIMIT; i++) {
    const t = performance.now();
    const result = await claimDue(db, claim);
    out.ms.push(performance.now() - t);
    out.claimed.push(result.claimed.length);
    const foreign = result.claimed.filter((d) => d.tenantId !== setup.tenantId).length;
    if (foreign > 0) out.problems.push(`a claim took ${foreign} deliveries of other tenants`);
    const capped = result.claimed.filter((d) => d.automationId === setup.backlogId).length;
    if (capped > 0) out.problems.push(`a claim took ${capped} deliveries of the endpoint at its cap`);
    if (result.abandoned.length > 0) out.problems.push(`a claim abandoned ${result.abandoned.length}`);
  }
  await restore(db, setup);
  return out;
}

async function measurePhase(
  database: Database,
  setup: Setup,
  scenario: HistoryScenario,
  completedRows: number,
  options: HistoryBenchOptions,
): Promise<HistoryMeasurement> {
  const { db } = database;
  await settleOutbox(db);
  const problems: string[] = [];
  const others = await count(
    db,
    sql`SELECT count(*) AS n FROM webhook_deliveries
        WHERE status IN ('pending', 'delivering') AND tenant_id <> ${setup.tenantId}::uuid`,
  );
  if (others > 0) problems.push(`${others} due or leased deliveries of other tenants in the table`);
  const claim = claimOptions(setup, scenario);
  const warm = await claimRound(db, setup, claim);
  problems.push(...warm.problems.map((p) => `warm-up: ${p}`));
  const ms: number[] = [];
  const claimed: number[] = [];
  const meter = options.cpuMeter();
  for (let r = 0; r < ROUNDS; r++) {
    const round = await claimRound(db, setup, claim);
    ms.push(...round.ms);
    claimed.push(...round.claimed);
    problems.push(...round.problems);
  }
  const cpu = meter();
  // One EXPLAIN is one sample: the median of EXPLAINS execution times, and the last run's plan and buffers.
  let plan: string[] = [];
  const executions: number[] = [];
  for (let i = 0; i < EXPLAINS; i++) {
    const explained = await explainClaim(options.databaseUrl, claim);
    plan = explained.plan;
    if (explained.executionMs !== null) executions.push(explained.executionMs);
  }
  await restore(db, setup);
  // The first Buffers line is the top of the claim's own plan (the statement inside the function when
  // auto_explain ran): every page it touched, found in cache or read.
  const buffers = plan
    .map((l) => /Buffers: shared hit=(\d+)(?: read=(\d+))?/.exec(l))
    .find((m) => m !== null);
  const short = claimed.filter((n) => n !== CLAIM_LIMIT).length;
  if (short > 0) problems.push(`${short} claims took other than ${CLAIM_LIMIT} deliveries`);
  const latency = summarise(ms);
  const attempts = await count(
    db,
    (await count(db, sql`SELECT (to_regclass('public.delivery_attempt_log') IS NOT NULL)::int AS n`)) > 0
      ? sql`SELECT count(*) AS n FROM delivery_attempt_log WHERE tenant_id = ${setup.tenantId}::uuid`
      : sql`SELECT count(*) AS n FROM delivery_attempts WHERE tenant_id = ${setup.tenantId}::uuid`,
  );
  const tableRows = await count(db, sql`SELECT count(*) AS n FROM webhook_deliveries`);
  return {
    scenario,
    name:
      scenario === "l2"
        ? `(l) claim of ${CLAIM_LIMIT}, ${formatCount(BACKLOG)} capped ahead`
        : `(l) claim of ${CLAIM_LIMIT}, ${formatCount(completedRows)} completed`,
    db: "postgres",
    rows: completedRows,
    // At the median claim, as (i) reports items/s at its median request: one stall (a checkpoint, autovacuum)
    // would otherwise move the ratio more than the history does.
    reqPerSec: latency.p50 > 0 ? round(1000 / latency.p50, 1) : 0,
    latencyMs: latency,
    requests: { total: ms.length, non2xx: short, errors: 0, timeouts: 0 },
    otherCpuCores: cpu.other,
    stealCores: cpu.steal,
    history: {
      completedRows,
      attemptRows: attempts,
      tableRows,
      pending: PENDING,
      claims: ms.length,
      claimedMin: Math.min(...claimed),
      claimedMax: Math.max(...claimed),
      plan,
      planExecutionMs: executions.length === 0 ? null : summarise(executions).p50,
      planBuffers: buffers === undefined ? null : Number(buffers[1]) + Number(buffers[2] ?? 0),
      problems,
    },
  };
}

/**
 * The history's removal by the worker's retention job (`purgeCompletedDeliveries`, as the worker calls it: every
 * tenant, the configured retention, its own batch size), timed.
 */
async function purge(db: Db, setup: Setup): Promise<PurgeReport> {
  const t0 = performance.now();
  const result = await purgeCompletedDeliveries(db, { retentionDays: setup.retentionDays });
  const seconds = (performance.now() - t0) / 1000;
  const completedLeft = await count(
    db,
    sql`SELECT count(*) AS n FROM webhook_deliveries
        WHERE tenant_id = ${setup.tenantId}::uuid AND status IN ('succeeded', 'failed')`,
  );
  const pendingKept = await count(
    db,
    sql`SELECT count(*) AS n FROM webhook_deliveries
        WHERE tenant_id = ${setup.tenantId}::uuid AND status = 'pending'`,
  );
  return {
    method: `purgeCompletedDeliveries (batches of ${PURGE_BATCH_SIZE}, ${result.batches} statements)`,
    rows: result.deliveries,
    seconds: round(seconds, 2),
    rowsPerSecond: round(result.deliveries / seconds, 0),
    completedLeft,
    pendingKept,
  };
}

/** (l0) and (l1) on the PostgreSQL database `database`. */
export async function measureHistory(
  database: Database,
  options: HistoryBenchOptions,
): Promise<HistoryMeasurement[]> {
  const { db } = database;
  const setup = await seed(database);
  try {
    const empty = await measurePhase(database, setup, "l0", 0, options);
    log(options, empty);
    await insertBacklog(db, setup);
    const backlog = await measurePhase(database, setup, "l2", 0, options);
    await deleteBacklog(db, setup);
    log(options, backlog);
    const t0 = performance.now();
    await insertHistory(db, setup, options.rows, options.log);
    const seedSeconds = (performance.now() - t0) / 1000;
    options.log(`postgres: ${options.rows} completed deliveries inserted (${seedSeconds.toFixed(1)} s)`);
    const full = await measurePhase(database, setup, "l1", options.rows, options);
    full.history.seedSeconds = round(seedSeconds, 1);
    const purged = await purge(db, setup);
    full.history.purge = purged;
    if (purged.rows !== options.rows)
      full.history.problems.push(`the purge removed ${purged.rows} deliveries, ${options.rows} expired`);
    if (purged.completedLeft > 0) full.history.problems.push(`${purged.completedLeft} completed rows left`);
    if (purged.pendingKept !== PENDING)
      full.history.problems.push(`${purged.pendingKept} of ${PENDING} pending deliveries kept by the purge`);
    log(options, full);
    options.log(
      `postgres: history removed by ${purged.method}: ${purged.rows} rows in ${purged.seconds} s ` +
        `(${purged.rowsPerSecond} rows/s)`,
    );
    return [empty, backlog, full];
  } finally {
    await db.execute(sql`DELETE FROM webhook_deliveries WHERE tenant_id = ${setup.tenantId}::uuid`);
    await deleteStats(db, setup);
  }
}

function log(options: HistoryBenchOptions, m: HistoryMeasurement): void {
  const h = m.history;
  options.log(
    `${m.name.padEnd(40)} postgres ${h.claims} claims: mean ${m.latencyMs.average} ms, p50 ${m.latencyMs.p50} ms, ` +
      `p99 ${m.latencyMs.p99} ms (table ${h.tableRows} rows), other cpu ${m.otherCpuCores ?? "?"}`,
  );
  for (const problem of h.problems) options.log(`CHECK FAILED ${m.name}: ${problem}`);
}
