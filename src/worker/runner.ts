import type { FastifyBaseLogger } from "fastify";
import { markMissingSubmissions } from "../modules/assignments/service.js";
import { emitInactivity } from "../modules/automations/inactivity.js";
import { expireGracePeriods } from "../modules/billing/grace.js";
import { expireCertificates } from "../modules/certificates/expiry.js";
import { type MailLoopOptions, startMailLoop } from "../modules/email/worker.js";
import { expireEnrollments } from "../modules/enrollments/expiry.js";
import { emitEnrollmentInactivity } from "../modules/enrollments/inactivity.js";
import { purgeExpired } from "../modules/events/retention.js";
import { expireInvites } from "../modules/invites/expiry.js";
import { type JobLoopOptions, startJobLoop } from "../modules/jobs/service.js";
import { purgeSpentLti } from "../modules/lti/retention.js";
import { expireUploads } from "../modules/media/expiry.js";
import { purgeCompletedDeliveries } from "../modules/outbox/retention.js";
import { type DeliveryLoopOptions, startDeliveryLoop } from "../modules/outbox/worker.js";
import { closeOverdueAttempts } from "../modules/quizzes/service.js";
import { kbIndexJobHandler } from "../modules/rag/indexing.js";
import { reportJobHandler } from "../modules/reports/service.js";
import type { AppContext } from "../platform/context.js";
import { purgeIdempotencyKeys } from "../platform/idempotency/idempotency.js";

export interface Worker {
  stop(): Promise<void>;
}

interface ScheduledJob {
  name: string;
  everyMs: number;
  run(ctx: AppContext): Promise<unknown>;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * Scheduled jobs. Each is safe to run twice and in two workers at once: one idempotent statement, or (the expiry
 * passes) one transaction that takes its rows with SKIP LOCKED.
 */
export const JOBS: readonly ScheduledJob[] = [
  {
    name: "billing-grace-expire",
    everyMs: HOUR_MS,
    run: async (ctx) => ({ expired: await expireGracePeriods(ctx.database.db, ctx.tenants) }),
  },
  {
    name: "user-inactivity",
    everyMs: DAY_MS,
    run: async (ctx) => ({ emitted: await emitInactivity(ctx.database.db) }),
  },
  {
    name: "enrollment-inactivity",
    everyMs: DAY_MS,
    run: async (ctx) => ({ emitted: await emitEnrollmentInactivity(ctx.database.db) }),
  },
  {
    name: "events-retention",
    everyMs: DAY_MS,
    run: (ctx) => purgeExpired(ctx.database.db),
  },
  {
    name: "enrollments-expire",
    everyMs: HOUR_MS,
    run: async (ctx) => ({ expired: await expireEnrollments(ctx.database.db) }),
  },
  {
    // Marks expired certificates and warns 30 days ahead (certificate_expired, certificate_expiring).
    name: "certificates-expire",
    everyMs: HOUR_MS,
    run: (ctx) => expireCertificates(ctx.database.db),
  },
  {
    // Timed quiz attempts left open past their end and grace are submitted with no answers (quiz_submitted), so a
    // learner who walked away is graded within about a minute and a half of the end.
    name: "quiz-attempts-time-up",
    everyMs: MINUTE_MS,
    run: (ctx) => closeOverdueAttempts(ctx.database.db),
  },
  {
    // Every 5 minutes, so a student without a submission is marked missing soon after their due date.
    name: "assignments-missing",
    everyMs: 5 * MINUTE_MS,
    run: (ctx) => markMissingSubmissions(ctx.database.db),
  },
  {
    name: "invites-expire",
    everyMs: HOUR_MS,
    run: async (ctx) => ({ expired: await expireInvites(ctx.database.db) }),
  },
  {
    // Hourly, so each run deletes about an hour's worth of completed deliveries, in batches.
    name: "webhook-deliveries-retention",
    everyMs: HOUR_MS,
    run: (ctx) =>
      purgeCompletedDeliveries(ctx.database.db, {
        retentionDays: ctx.config.outbound.delivery.retentionDays,
      }),
  },
  {
    name: "media-uploads-expire",
    everyMs: HOUR_MS,
    run: async (ctx) => ({ expired: await expireUploads({ db: ctx.database.db, config: ctx.config }) }),
  },
  {
    // Spent LTI launches, client-assertion ids and registration tokens (modules/lti/retention.ts).
    name: "lti-retention",
    everyMs: HOUR_MS,
    run: (ctx) => purgeSpentLti(ctx.database.db),
  },
  {
    name: "idempotency-keys-retention",
    everyMs: HOUR_MS,
    run: async (ctx) => ({ purged: await purgeIdempotencyKeys(ctx.database.db) }),
  },
];

export interface WorkerOptions {
  /**
   * The outbound webhook delivery loop (modules/outbox), with its options; on unless `false`,
   * whatever NODE_ENV says. A test that starts a worker on a database other test files share passes `false` (or
   * options scoped to its tenants), so the loop does not send the deliveries another file drives by hand.
   */
  deliveries?: boolean | DeliveryLoopOptions;
  /** The mail outbox loop (modules/email/worker.ts); on unless `false`, like `deliveries`. */
  mail?: boolean | MailLoopOptions;
  /** The background job loop (modules/jobs: report runs); on unless `false`, like `deliveries`. */
  jobs?: boolean | JobLoopOptions;
}

/** What runs each job type: the one place job types meet their modules (jobs knows no module). */
export const JOB_HANDLERS = { report: reportJobHandler, kb_index: kbIndexJobHandler } as const;

/**
 * Background work: the webhook delivery loop, and the scheduled jobs. Each job runs once at start (a worker
 * that restarts often must not starve it) and then on its interval. A failed run is logged and retried at the
 * next tick; `stop` waits for runs and sends in flight.
 */
export function startWorker(
  ctx: AppContext,
  log: FastifyBaseLogger,
  jobs = JOBS,
  options: WorkerOptions = {},
): Worker {
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
  const deliveries = options.deliveries ?? true;
  const loop =
    deliveries === false ? undefined : startDeliveryLoop(ctx, log, deliveries === true ? {} : deliveries);
  const mailOption = options.mail ?? true;
  const mail =
    mailOption === false ? undefined : startMailLoop(ctx, log, mailOption === true ? {} : mailOption);
  const jobsOption = options.jobs ?? true;
  const jobLoop =
    jobsOption === false
      ? undefined
      : startJobLoop(ctx, log, JOB_HANDLERS, jobsOption === true ? {} : jobsOption);
  log.info({ jobs: jobs.map((j) => j.name), deliveries: loop !== undefined }, "worker started");
  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all([...inFlight, loop?.stop(), mail?.stop(), jobLoop?.stop()]);
    },
  };
}
