/**
 * The job loop of a worker process: claims due jobs (run.ts, db/lease.ts) up to JOBS_CONCURRENCY at a time and runs
 * them. It wakes on a NOTIFY written with each new job (committed with it), and polls every JOBS_POLL_MS for
 * retries falling due, leases running out and notifications lost.
 */
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Executor } from "../../db/client.js";
import type { AppContext } from "../../platform/context.js";
import { claimJobs, type JobHandlers, type RunOutcome, runClaimed } from "./run.js";

export const JOBS_CHANNEL = "aula_jobs";

/** Wakes the job loops once the caller's transaction commits (PostgreSQL folds repeats into one). */
export async function notifyJobs(tx: Executor): Promise<void> {
  await tx.execute(sql`SELECT pg_notify(${JOBS_CHANNEL}, '')`);
}

export interface JobLoopOptions {
  /** Only these tenants' jobs: for tests sharing one database with other test files. */
  tenantIds?: readonly string[];
}

/** Claims and runs jobs one at a time until none is due; tests call it directly. Answers each run's outcome. */
export async function drainJobs(
  ctx: AppContext,
  handlers: JobHandlers,
  options: JobLoopOptions = {},
  log?: FastifyBaseLogger,
): Promise<RunOutcome[]> {
  const outcomes: RunOutcome[] = [];
  for (;;) {
    const [job] = await claimJobs(ctx.database.db, {
      limit: 1,
      leaseSeconds: ctx.config.jobs.leaseSeconds,
      perTenant: ctx.config.jobs.perTenant,
      tenantIds: options.tenantIds,
    });
    if (job === undefined) return outcomes;
    outcomes.push(await runClaimed(ctx, handlers, job, log));
  }
}

export interface JobLoop {
  stop(): Promise<void>;
}

export function startJobLoop(
  ctx: AppContext,
  log: FastifyBaseLogger,
  handlers: JobHandlers,
  options: JobLoopOptions = {},
): JobLoop {
  const { concurrency, pollMs, leaseSeconds, perTenant } = ctx.config.jobs;
  const runs = new Set<Promise<unknown>>();
  let stopped = false;
  let claiming = false;
  let again = false;
  const stopping = new AbortController();

  // One claim at a time per free slot, each seeing the jobs the previous one started: one worker never starts
  // more than `perTenant` jobs of an institution.
  const fill = async () => {
    while (!stopped && runs.size < concurrency) {
      const [job] = await claimJobs(ctx.database.db, {
        limit: 1,
        leaseSeconds,
        perTenant,
        tenantIds: options.tenantIds,
      });
      if (job === undefined) return;
      const run: Promise<unknown> = runClaimed(ctx, handlers, job, log, stopping.signal)
        .then((outcome) => log.info({ jobId: job.id, type: job.type, outcome }, "job ran"))
        .catch((err: unknown) => log.error({ err, jobId: job.id }, "job run failed"))
        .finally(() => {
          runs.delete(run);
          wake();
        });
      runs.add(run);
    }
  };
  const wake = () => {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    fill()
      .catch((err: unknown) => log.error({ err }, "job claim failed"))
      .finally(() => {
        claiming = false;
        if (again) {
          again = false;
          wake();
        }
      });
  };
  const poll = setInterval(wake, pollMs);
  poll.unref();
  const listen = ctx.database.listen?.bind(ctx.database);
  let unlisten: Promise<(() => Promise<void>) | undefined> = listen
    ? listen(JOBS_CHANNEL, wake).catch((err: unknown) => {
        log.error({ err }, "cannot listen for new jobs; polling only");
        return undefined;
      })
    : Promise.resolve(undefined);
  wake();
  log.info({ concurrency, pollMs, perTenant, leaseSeconds }, "job loop started");
  return {
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(poll);
      const stopListening = await unlisten;
      unlisten = Promise.resolve(undefined);
      await stopListening?.();
      // Runs in flight give their jobs back at their next heartbeat (within a batch), queued for another worker.
      await Promise.all([...runs]);
    },
  };
}
