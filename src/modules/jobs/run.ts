/**
 * Running one claimed job: its type's handler does the work and reports progress through `heartbeat`, which also
 * renews the lease and is where a cancellation or a lost lease stops it; the end (status, counts, `job_completed`
 * and the type's own events) is recorded in one transaction, fenced by the claim's attempt number, so a worker
 * whose job was taken over records nothing.
 */
import { type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Executor } from "../../db/client.js";
import { claimLeased, fencedUpdate } from "../../db/lease.js";
import type { AppContext } from "../../platform/context.js";
import { emitEvent } from "../events/emit.js";
import type { JobStatus, JobType } from "./schemas.js";

const JOBS = sql`jobs`;
const HELD = sql`status = 'running'`;
/** Seconds before a failed attempt runs again, times the attempt number. */
const RETRY_BACKOFF_SECONDS = 30;

export interface ClaimedJob {
  tenantId: string;
  id: string;
  type: JobType;
  subtype: string | null;
  payload: unknown;
  createdBy: { type: "user" | "api_key"; id: string } | null;
  /** This claim's number (1-based): its fencing token. */
  attempt: number;
  maxAttempts: number;
}

export interface JobProgress {
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
}

export interface RunningJob extends ClaimedJob {
  /**
   * Records progress and renews the lease. Throws JobStopped when the job was canceled (finish nothing more) or
   * taken over by another worker (stop at once). Call it every batch: it is where a run notices either.
   */
  heartbeat(progress: JobProgress): Promise<void>;
}

export type EndStatus = Exclude<JobStatus, "queued" | "running">;

export interface JobEnd {
  status: EndStatus;
  progress: JobProgress;
  result: unknown;
  error: string | null;
}

export interface JobHandler {
  run(
    ctx: AppContext,
    job: RunningJob,
  ): Promise<{ status: "succeeded" | "partially_succeeded"; progress: JobProgress; result?: unknown }>;
  /** In the transaction that records the end: the type's own events (report_completed, …). */
  ended?(tx: Executor, job: ClaimedJob, end: JobEnd): Promise<void>;
  /**
   * A run that finished after its job was taken over or deleted: drop what it made (its file), which no job
   * record points at. Errors are logged only.
   */
  discard?(ctx: AppContext, job: ClaimedJob, result: unknown): Promise<void>;
}

export type JobHandlers = Readonly<Partial<Record<JobType, JobHandler>>>;

/** The run stopped from outside: canceled through the API, or its lease taken over by another worker. */
export class JobStopped extends Error {
  /** `released`: this worker is shutting down, and puts the job back for another. */
  constructor(readonly reason: "canceled" | "lost" | "released") {
    super(`job ${reason}`);
  }
}

/** A failure whose message is the client's to read (an invalid parameter found at run time); it is not retried. */
export class JobFailure extends Error {}

const NO_PROGRESS: JobProgress = { total: 0, processed: 0, succeeded: 0, failed: 0 };

export interface ClaimJobOptions {
  limit: number;
  leaseSeconds: number;
  /** At most this many running jobs per institution (the claim skips the others' jobs until one ends). */
  perTenant: number;
  /** Only these tenants' jobs (tests sharing one database). */
  tenantIds?: readonly string[];
}

interface ClaimRow {
  tenant_id: string;
  id: string;
  type: JobType;
  subtype: string | null;
  payload: unknown;
  created_by: ClaimedJob["createdBy"];
  attempts: number;
  max_attempts: number;
}

/**
 * Claims due jobs: queued ones whose time has come, and running ones whose lease ran out (their worker died),
 * oldest first, skipping institutions already running `perTenant` jobs under a live lease. Two workers claiming
 * at the same instant can each start one job of the same institution, so the cap can be passed by the number of
 * workers minus one, for as long as those jobs run; it cannot be passed by one worker.
 */
export async function claimJobs(db: Executor, options: ClaimJobOptions): Promise<ClaimedJob[]> {
  const only =
    options.tenantIds === undefined
      ? sql``
      : sql`AND tenant_id IN (${sql.join(
          options.tenantIds.map((t) => sql`${t}::uuid`),
          sql`, `,
        )})`;
  const rows = await claimLeased<ClaimRow>(db, {
    table: JOBS,
    // One ordered walk of jobs_due_idx: a running job's `run_at` is its lease's end (set with the lease below).
    due: sql`status IN ('queued', 'running') AND run_at <= now() ${only}
      AND (SELECT count(*) FROM jobs r WHERE r.tenant_id = jobs.tenant_id AND r.status = 'running'
             AND r.lease_until >= now()) < ${options.perTenant}`,
    order: sql`run_at`,
    limit: options.limit,
    lease: sql`lease_until = now() + make_interval(secs => ${options.leaseSeconds}),
               run_at = now() + make_interval(secs => ${options.leaseSeconds})`,
    set: sql`status = 'running', cancel_requested = false, started_at = coalesce(q.started_at, now()),
             updated_at = now()`,
    returning: sql`q.tenant_id, q.id, q.type, q.subtype, q.payload, q.created_by, q.attempts, q.max_attempts`,
  });
  return rows.map((r) => ({
    tenantId: r.tenant_id,
    id: r.id,
    type: r.type,
    subtype: r.subtype,
    payload: r.payload,
    createdBy: r.created_by,
    attempt: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
  }));
}

const percent = (p: JobProgress) =>
  p.total <= 0 ? 0 : Math.min(99, Math.floor((p.processed / p.total) * 100));

const counts = (p: JobProgress): SQL =>
  sql`total_items = ${p.total}, processed_items = ${p.processed}, succeeded_items = ${p.succeeded},
      failed_items = ${p.failed}`;

function running(ctx: AppContext, job: ClaimedJob, leaseSeconds: number, signal?: AbortSignal): RunningJob {
  return {
    ...job,
    async heartbeat(progress) {
      if (signal?.aborted === true) throw new JobStopped("released");
      const row = await fencedUpdate<{ cancel_requested: boolean }>(ctx.database.db, {
        table: JOBS,
        tenantId: job.tenantId,
        id: job.id,
        attempt: job.attempt,
        held: HELD,
        set: sql`${counts(progress)}, progress = ${percent(progress)}, updated_at = now(),
                 lease_until = now() + make_interval(secs => ${leaseSeconds}),
                 run_at = now() + make_interval(secs => ${leaseSeconds})`,
        returning: sql`cancel_requested`,
      });
      if (row === undefined) throw new JobStopped("lost");
      if (row.cancel_requested) throw new JobStopped("canceled");
    },
  };
}

/** Records the end, with `job_completed` and the type's events, unless the claim was taken over (false). */
async function end(
  ctx: AppContext,
  handler: JobHandler | undefined,
  job: ClaimedJob,
  e: JobEnd,
): Promise<boolean> {
  return ctx.database.db.transaction(async (tx) => {
    const row = await fencedUpdate(tx, {
      table: JOBS,
      tenantId: job.tenantId,
      id: job.id,
      attempt: job.attempt,
      held: HELD,
      set: sql`status = ${e.status}, ${counts(e.progress)},
               progress = ${e.status === "succeeded" || e.status === "partially_succeeded" ? 100 : percent(e.progress)},
               result = ${e.result === undefined ? null : JSON.stringify(e.result)}::jsonb, error = ${e.error},
               finished_at = now(), lease_until = NULL, updated_at = now()`,
    });
    if (row === undefined) return false;
    await emitEvent(tx, {
      tenantId: job.tenantId,
      type: "job_completed",
      actor: { type: "system" },
      data: {
        jobId: job.id,
        type: job.type,
        subtype: job.subtype,
        status: e.status,
        totalItems: e.progress.total,
        processedItems: e.progress.processed,
        succeededItems: e.progress.succeeded,
        failedItems: e.progress.failed,
        attempts: job.attempt,
        error: e.error,
      },
    });
    await handler?.ended?.(tx, job, e);
    return true;
  });
}

/**
 * Puts the claimant's job back in the queue (fenced like every write of the claimant): a failed attempt due after a
 * backoff, or, given back on shutdown, due at once with the attempt not counted against it.
 */
async function requeue(
  ctx: AppContext,
  job: ClaimedJob,
  why: { error: string } | "released",
): Promise<boolean> {
  const set =
    why === "released"
      ? sql`attempts = attempts - 1, run_at = now()`
      : sql`error = ${why.error}, run_at = now() + make_interval(secs => ${RETRY_BACKOFF_SECONDS * job.attempt})`;
  const row = await fencedUpdate(ctx.database.db, {
    table: JOBS,
    tenantId: job.tenantId,
    id: job.id,
    attempt: job.attempt,
    held: HELD,
    set: sql`status = 'queued', lease_until = NULL, updated_at = now(), ${set}`,
  });
  return row !== undefined;
}

export type RunOutcome = EndStatus | "retried" | "released" | "stale";

/** Runs one claimed job to its end (or until it is taken over), and answers how it ended. */
export async function runClaimed(
  ctx: AppContext,
  handlers: JobHandlers,
  job: ClaimedJob,
  log: FastifyBaseLogger | undefined,
  /** Aborted when the worker stops: the run gives the job back at its next heartbeat. */
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const handler = handlers[job.type];
  const fail = async (error: string, progress = NO_PROGRESS) =>
    (await end(ctx, handler, job, { status: "failed", progress, result: undefined, error }))
      ? "failed"
      : "stale";
  if (handler === undefined) return fail(`no worker runs jobs of type ${job.type}`);
  if (job.attempt > job.maxAttempts) {
    return fail(`gave up after ${job.maxAttempts} attempts: the worker running it stopped each time`);
  }
  let last = NO_PROGRESS;
  const live = running(ctx, job, ctx.config.jobs.leaseSeconds, signal);
  const tracked: RunningJob = {
    ...live,
    heartbeat: async (progress) => {
      last = progress;
      await live.heartbeat(progress);
    },
  };
  try {
    const outcome = await handler.run(ctx, tracked);
    const done = await end(ctx, handler, job, { ...outcome, result: outcome.result, error: null });
    if (done) return outcome.status;
    await handler
      .discard?.(ctx, job, outcome.result)
      .catch((e: unknown) =>
        log?.error({ err: e, jobId: job.id }, "could not discard what a superseded run made"),
      );
    return "stale";
  } catch (err) {
    if (err instanceof JobStopped) {
      if (err.reason === "lost") return "stale";
      if (err.reason === "released") return (await requeue(ctx, job, "released")) ? "released" : "stale";
      const done = await end(ctx, handler, job, {
        status: "canceled",
        progress: last,
        result: undefined,
        error: null,
      });
      return done ? "canceled" : "stale";
    }
    if (err instanceof JobFailure) return fail(err.message, last);
    log?.error({ err, jobId: job.id, type: job.type, attempt: job.attempt }, "job attempt failed");
    const message = "the job stopped on an internal error (logged with its id)";
    if (job.attempt < job.maxAttempts)
      return (await requeue(ctx, job, { error: message })) ? "retried" : "stale";
    return fail(message, last);
  }
}
