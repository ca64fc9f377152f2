/** One claim and its deliveries, run to the end: for tests, and anything that wants a synchronous drain. */
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../platform/context.js";
import type { OutboundClient } from "../../platform/outbound/client.js";
import { claimDue } from "./claim.js";
import { type AttemptReport, attemptTimeoutSeconds, deliver, deliveryDeps } from "./deliver.js";
import { AttemptRecorder } from "./recorder.js";

export interface DrainOptions {
  /** Deliveries claimed at once (default: the configured concurrency). */
  batchSize?: number;
  /** Sends in flight at once (default: WEBHOOK_CONCURRENCY). */
  concurrency?: number;
  /** Default: enough for the whole batch at `concurrency` with each send taking its full timeout. */
  leaseSeconds?: number;
  /** Tests only (fake clock): the queue's time; the database's clock otherwise. */
  now?: () => Date;
  /** Only these tenants' deliveries (tests sharing one database). */
  tenantIds?: readonly string[];
}

export interface DrainSummary {
  claimed: number;
  /** Due deliveries of disabled automations, closed as failed without sending. */
  abandoned: number;
  attempts: AttemptReport[];
}

/** Runs `fn` over `items` with at most `limit` at once. */
async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
  return results;
}

/**
 * Claims one batch and delivers it (tests, and anything that wants a synchronous drain). Throws only if the
 * claim itself fails.
 */
export async function drainOnce(
  ctx: AppContext,
  client: OutboundClient,
  options: DrainOptions = {},
  log?: FastifyBaseLogger,
): Promise<DrainSummary> {
  const concurrency = options.concurrency ?? ctx.config.outbound.delivery.concurrency;
  const batchSize = options.batchSize ?? concurrency;
  const leaseSeconds =
    options.leaseSeconds ??
    Math.ceil(batchSize / concurrency) * attemptTimeoutSeconds(ctx) +
      ctx.config.outbound.delivery.leaseMarginSeconds;
  const { claimed, abandoned } = await claimDue(ctx.database.db, {
    limit: batchSize,
    leaseSeconds,
    ...(options.now === undefined ? {} : { now: options.now() }),
    ...(options.tenantIds === undefined ? {} : { tenantIds: options.tenantIds }),
  });
  const recorder = new AttemptRecorder(ctx.database.db, {
    schedule: ctx.config.outbound.retryScheduleSeconds,
    log,
    now: options.now,
  });
  const deps = deliveryDeps(ctx, client, recorder, log, options.now);
  const attempts = await eachLimited(claimed, concurrency, (d) => deliver(deps, d));
  return { claimed: claimed.length, abandoned: abandoned.length, attempts };
}
