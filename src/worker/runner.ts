import type { FastifyBaseLogger } from "fastify";
import { expireGracePeriods } from "../modules/billing/grace.js";
import type { AppContext } from "../platform/context.js";

export interface Worker {
  stop(): Promise<void>;
}

interface ScheduledJob {
  name: string;
  everyMs: number;
  run(ctx: AppContext): Promise<unknown>;
}

const HOUR_MS = 3_600_000;

/** Scheduled jobs. Each is safe to run twice and in two workers at once (each is one idempotent statement). */
export const JOBS: readonly ScheduledJob[] = [
  {
    name: "billing-grace-expire",
    everyMs: HOUR_MS,
    run: async (ctx) => ({ expired: await expireGracePeriods(ctx.database.db, ctx.tenants) }),
  },
];

/**
 * Background work: each scheduled job runs once at start (a worker that restarts often must not starve it) and
 * then on its interval. A failed run is logged and retried at the next tick; `stop` waits for runs in flight.
 */
export function startWorker(ctx: AppContext, log: FastifyBaseLogger, jobs = JOBS): Worker {
  const timers: NodeJS.Timeout[] = [];
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  const tick = (job: ScheduledJob) => {
    if (stopped) return;
    const run = job
      .run(ctx)
      .then((result) => log.info({ job: job.name, result }, "scheduled job ran"))
      .catch((err: unknown) => log.error({ err, job: job.name }, "scheduled job failed"))
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  };
  for (const job of jobs) {
    tick(job);
    const timer = setInterval(() => tick(job), job.everyMs);
    timer.unref();
    timers.push(timer);
  }
  log.info({ jobs: jobs.map((j) => j.name) }, "worker started");
  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}
