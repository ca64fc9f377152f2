/**
 * The delivery worker: claim due deliveries (claim.ts), send each (send.ts), record what happened
 * (record.ts). It runs in `npm run worker`, and inside `npm start` unless WORKER=off (worker/runner.ts); any
 * number of them may run against one database.
 *
 * The loop keeps at most `concurrency` sends in flight and only claims as many deliveries as it has free
 * slots, so every claimed delivery starts sending at once and a lease of one attempt's timeout plus a margin
 * is enough. A claim or a record that fails (the database is away) is logged and tried again later: an
 * unrecorded attempt's lease expires and the delivery is taken over, which may send it twice, never zero
 * times (receivers deduplicate by `webhook-id`).
 */
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../../platform/context.js";
import { createKeyring, type Keyring } from "../../../platform/crypto/secret-box.js";
import {
  createOutboundClient,
  type OutboundClient,
  type OutboundResult,
} from "../../../platform/outbound/client.js";
import { type ClaimedDelivery, claimDue } from "./claim.js";
import { type RecordResult, recordAttempt, releaseClaim } from "./record.js";
import { openSigningSecret, sendDelivery } from "./send.js";

/** Time a claim holds beyond the sends it covers: the record transaction, a slow database, a GC pause. */
export const LEASE_MARGIN_SECONDS = 30;

/** What the delivery shows while it waits for an operator to restore the key (no attempt is logged). */
export const SECRET_ERROR = "not sent yet: the signing secret cannot be read (server configuration)";

export interface DrainOptions {
  /** Deliveries claimed at once (default 20). */
  batchSize?: number;
  /** Sends in flight at once (default 10). */
  concurrency?: number;
  /** Default: enough for the whole batch at `concurrency` with each send taking its full timeout. */
  leaseSeconds?: number;
  /** Tests only (fake clock): the queue's time; the database's clock otherwise. */
  now?: () => Date;
  /** Only these tenants' deliveries (tests sharing one database). */
  tenantIds?: readonly string[];
}

export interface DeliveryLoopOptions {
  /** Pause between claims when the queue is idle (default 500 ms). */
  pollMs?: number;
  batchSize?: number;
  concurrency?: number;
  /** Default: one attempt's timeout plus LEASE_MARGIN_SECONDS. */
  leaseSeconds?: number;
  /** Default: `createOutboundClient(config.outbound, {resolve: ctx.resolve})`, closed by `stop()`. */
  client?: OutboundClient;
  /** Only these tenants' deliveries (tests sharing one database). */
  tenantIds?: readonly string[];
}

export interface DeliveryLoop {
  /** Stops claiming, waits for the sends in flight to be sent and recorded. */
  stop(): Promise<void>;
}

export interface AttemptReport {
  tenantId: string;
  deliveryId: string;
  attempt: number;
  /**
   * Undefined when no attempt was recorded: the record failed (logged; the lease expires and it is retried),
   * or nothing was sent (the signing secret could not be opened; the delivery was put back).
   */
  record?: RecordResult;
}

export interface DrainSummary {
  claimed: number;
  /** Due deliveries of disabled automations, closed as failed without sending. */
  abandoned: number;
  attempts: AttemptReport[];
}

export function keyringFrom(ctx: AppContext): Keyring {
  const { current, previous } = ctx.config.secrets.encryptionKeys;
  return createKeyring(current, previous);
}

function timeoutSeconds(ctx: AppContext): number {
  return Math.ceil(ctx.config.outbound.timeoutMs / 1000);
}

interface Deps {
  ctx: AppContext;
  client: OutboundClient;
  keyring: Keyring;
  log?: FastifyBaseLogger | undefined;
  now?: (() => Date) | undefined;
}

/** One attempt of one claimed delivery, from send to record. Never throws. */
async function deliver(deps: Deps, delivery: ClaimedDelivery): Promise<AttemptReport> {
  const { ctx, client, keyring, log } = deps;
  const report: AttemptReport = {
    tenantId: delivery.tenantId,
    deliveryId: delivery.id,
    attempt: delivery.attempt,
  };
  const startedAt = deps.now?.() ?? new Date();
  const now = deps.now === undefined ? {} : { now: deps.now() };
  try {
    const opened = openSigningSecret(delivery, keyring);
    if (!opened.ok) {
      const released = await releaseClaim(ctx.database.db, delivery, { reason: SECRET_ERROR, ...now });
      log?.error(
        { ...report, automationId: delivery.automationId, code: opened.code, released },
        "webhook not sent: the signing secret cannot be opened with the configured keyring",
      );
      return report;
    }
    // `webhook-timestamp` is always the real time: receivers check it against their own clocks.
    const result = await sendDelivery(client, delivery, opened.secret, {
      timeoutMs: ctx.config.outbound.timeoutMs,
    });
    report.record = await recordAttempt(ctx.database.db, delivery, result, {
      schedule: ctx.config.outbound.retryScheduleSeconds,
      startedAt,
      ...now,
    });
    logAttempt(log, delivery, report, result);
  } catch (err) {
    log?.error({ err, ...report }, "webhook attempt could not be recorded; it will be retried");
  }
  return report;
}

function logAttempt(
  log: FastifyBaseLogger | undefined,
  delivery: ClaimedDelivery,
  report: AttemptReport,
  result: OutboundResult,
): void {
  if (log === undefined || report.record === undefined) return;
  const { facts, decision, applied, disabledReason } = report.record;
  log.info(
    {
      tenantId: report.tenantId,
      deliveryId: report.deliveryId,
      attempt: report.attempt,
      automationId: delivery.automationId,
      outcome: facts.outcome,
      statusCode: facts.statusCode,
      durationMs: facts.durationMs,
      next: decision.status,
      ...(applied ? {} : { superseded: true }),
      // Server logs only: `blocked` names the refused range or address here, never to the tenant.
      ...(!result.ok && result.detail !== undefined ? { detail: result.detail } : {}),
    },
    "webhook attempt",
  );
  if (disabledReason !== null) {
    log.warn(
      { tenantId: delivery.tenantId, automationId: delivery.automationId, reason: disabledReason },
      "automation disabled",
    );
  }
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
  const batchSize = options.batchSize ?? 20;
  const concurrency = options.concurrency ?? 10;
  const leaseSeconds =
    options.leaseSeconds ?? Math.ceil(batchSize / concurrency) * timeoutSeconds(ctx) + LEASE_MARGIN_SECONDS;
  const { claimed, abandoned } = await claimDue(ctx.database.db, {
    limit: batchSize,
    leaseSeconds,
    ...(options.now === undefined ? {} : { now: options.now() }),
    ...(options.tenantIds === undefined ? {} : { tenantIds: options.tenantIds }),
  });
  const deps: Deps = { ctx, client, keyring: keyringFrom(ctx), log, now: options.now };
  const attempts = await eachLimited(claimed, concurrency, (d) => deliver(deps, d));
  return { claimed: claimed.length, abandoned: abandoned.length, attempts };
}

/** Starts the polling loop; see the module comment. */
export function startDeliveryLoop(
  ctx: AppContext,
  log: FastifyBaseLogger,
  options: DeliveryLoopOptions = {},
): DeliveryLoop {
  const pollMs = options.pollMs ?? 500;
  const batchSize = Math.max(1, options.batchSize ?? 20);
  const concurrency = Math.max(1, options.concurrency ?? 10);
  const leaseSeconds = options.leaseSeconds ?? timeoutSeconds(ctx) + LEASE_MARGIN_SECONDS;
  const ownsClient = options.client === undefined;
  const client = options.client ?? createOutboundClient(ctx.config.outbound, { resolve: ctx.resolve });
  const deps: Deps = { ctx, client, keyring: keyringFrom(ctx), log };

  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  /** The last claim filled its batch: more is probably due, so claim again as soon as a slot frees. */
  let backlog = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (ticking === undefined) ticking = tick().finally(() => (ticking = undefined));
    }, ms);
  };

  /** Consecutive failed claims: the database is away, so back off (up to 30 s) instead of logging twice a second. */
  let failures = 0;

  const tick = async () => {
    if (stopped) return;
    const free = concurrency - inFlight.size;
    if (free <= 0) {
      schedule(pollMs);
      return;
    }
    const limit = Math.min(batchSize, free);
    let claimed: ClaimedDelivery[] = [];
    try {
      const result = await claimDue(ctx.database.db, {
        limit,
        leaseSeconds,
        ...(options.tenantIds === undefined ? {} : { tenantIds: options.tenantIds }),
      });
      claimed = result.claimed;
      if (result.abandoned.length > 0) {
        log.info({ deliveries: result.abandoned }, "webhook deliveries of disabled automations closed");
      }
      backlog = claimed.length + result.abandoned.length >= limit;
      failures = 0;
    } catch (err) {
      failures++;
      log.error({ err, failures }, "claiming webhook deliveries failed");
      backlog = false;
      schedule(Math.min(30_000, pollMs * 2 ** failures));
      return;
    }
    for (const delivery of claimed) {
      const run: Promise<unknown> = deliver(deps, delivery).finally(() => {
        inFlight.delete(run);
        if (backlog) schedule(0);
      });
      inFlight.add(run);
    }
    schedule(backlog && inFlight.size < concurrency ? 0 : pollMs);
  };

  schedule(0);
  log.info({ pollMs, batchSize, concurrency, leaseSeconds }, "webhook delivery loop started");
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      // Sends are bounded by the attempt timeout; each is recorded before its promise settles.
      await Promise.all(inFlight);
      if (ownsClient) await client.close();
    },
  };
}
