/**
 * The delivery worker: claim due deliveries (claim.ts), send each (send.ts), record what happened (record.ts). It
 * runs in `npm run worker`, and inside `npm start` unless WORKER=off (worker/runner.ts); any number of them may run
 * against one database. One delivery's way from claim to record is deliver.ts; drain.ts runs one claim to the end.
 *
 * How it keeps up with the network:
 * - Woken on commit: the fan-out NOTIFYs when it writes deliveries (wake.ts), and the loop claims at once; it polls
 *   only as a fallback (WEBHOOK_POLL_MS), which is also what finds retries falling due.
 * - Batched claims: one claim at a time takes as many deliveries as there is room for: the free send slots plus a
 *   ready queue of as many again, so a slot that frees is refilled at once, and claims come in batches.
 * - Concurrent sends: up to WEBHOOK_CONCURRENCY at once, and at most WEBHOOK_ENDPOINT_CONCURRENCY per endpoint
 *   (automation), with at most as many more claimed for it; the claim itself leaves out endpoints at that bound
 *   (claim.ts), so an endpoint that hangs until the timeout holds a few slots, never the worker.
 * - Batched records: successful attempts wait for the recorder (recorder.ts), which writes every one that is
 *   waiting in one statement as soon as the previous write is done; a failed attempt is recorded alone
 *   (`recordAttempt`), since it may schedule a retry or disable its automation.
 *
 * A claim is a lease of two attempt timeouts (a ready delivery may wait for one send of its endpoint) plus
 * WEBHOOK_LEASE_MARGIN_SECONDS. A claim or a record that fails (the database is away) is logged and tried again
 * later: an unrecorded attempt's lease expires and the delivery is taken over, which may send it twice, never zero
 * times (receivers deduplicate by `webhook-id`). The worker logs one line per claim and per recorded batch at
 * debug level, never one per attempt above it.
 */
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../platform/context.js";
import { createOutboundClient, type OutboundClient } from "../../platform/outbound/client.js";
import { type ClaimedDelivery, claimDue } from "./claim.js";
import { attemptTimeoutSeconds, deliveryDeps, send } from "./deliver.js";
import { releaseClaim } from "./record.js";
import { AttemptRecorder } from "./recorder.js";
import { OUTBOX_CHANNEL } from "./wake.js";

/** Every option defaults to the configuration (`config.outbound.delivery`), as `npm run worker` runs it. */
export interface DeliveryLoopOptions {
  /** Fallback poll when nothing wakes the loop (WEBHOOK_POLL_MS). */
  pollMs?: number;
  /** Most deliveries one claim takes (default: `concurrency`). */
  batchSize?: number;
  /** WEBHOOK_CONCURRENCY. */
  concurrency?: number;
  /** WEBHOOK_ENDPOINT_CONCURRENCY. */
  endpointConcurrency?: number;
  /** Default: one attempt's timeout plus WEBHOOK_LEASE_MARGIN_SECONDS. */
  leaseSeconds?: number;
  /** Default: `createOutboundClient(config.outbound, {resolve: ctx.resolve})`, closed by `stop()`. */
  client?: OutboundClient;
  /** Only these tenants' deliveries (tests sharing one database). */
  tenantIds?: readonly string[];
}

export interface DeliveryLoop {
  /**
   * Resolves once the loop listens (or polls only) and the claims it made on starting are done. Until then a wake-up
   * of its own may claim between two writes of a caller, so tests that stage what a claim finds wait for it.
   */
  started: Promise<void>;
  /** Stops claiming, waits for the sends in flight to be sent and recorded. */
  stop(): Promise<void>;
}

/** Starts the loop; see the module comment. */
export function startDeliveryLoop(
  ctx: AppContext,
  log: FastifyBaseLogger,
  options: DeliveryLoopOptions = {},
): DeliveryLoop {
  const settings = ctx.config.outbound.delivery;
  const pollMs = options.pollMs ?? settings.pollMs;
  const concurrency = Math.max(1, options.concurrency ?? settings.concurrency);
  const batchSize = Math.max(1, options.batchSize ?? concurrency);
  const endpointConcurrency = Math.max(1, options.endpointConcurrency ?? settings.endpointConcurrency);
  // A claimed delivery may wait in the ready queue for its endpoint's slot (at most one send of that endpoint,
  // so one timeout) before its own send: the lease covers both.
  const leaseSeconds = options.leaseSeconds ?? 2 * attemptTimeoutSeconds(ctx) + settings.leaseMarginSeconds;
  const ownsClient = options.client === undefined;
  const client = options.client ?? createOutboundClient(ctx.config.outbound, { resolve: ctx.resolve });
  // Attempts sent but not yet written: past this many, claiming waits for the recorder (each holds a body).
  const maxUnrecorded = 4 * concurrency;
  /**
   * Claimed ahead: up to this many deliveries wait, claimed, in the ready queue, so that a slot that frees is
   * refilled at once instead of after the next claim's round trip (a claim takes milliseconds; a local send, one).
   * Per endpoint, as many as its cap: an endpoint never holds more than twice its cap claimed.
   */
  const readyMax = concurrency;

  let stopped = false;
  let claiming: Promise<void> | undefined;
  /** Something asked for a claim while one ran: claim again when it ends. */
  let wanted = false;
  /** More may be due than the last claim took: claim again as slots free. */
  let backlog = false;
  /** Consecutive failed claims: the database is away, so back off (up to 30 s) instead of hammering it. */
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let inFlight = 0;
  /** Sends in flight per automation. */
  const sending = new Map<string, number>();
  /** Claimed, not yet sent, oldest first; and how many of them per automation. */
  let ready: ClaimedDelivery[] = [];
  const waiting = new Map<string, number>();
  const work = new Set<Promise<unknown>>();

  const bump = (counts: Map<string, number>, automationId: string, by: number) => {
    const next = (counts.get(automationId) ?? 0) + by;
    if (next === 0) counts.delete(automationId);
    else counts.set(automationId, next);
  };

  const wake = (): void => {
    if (stopped || retryTimer !== undefined) return;
    if (claiming !== undefined) {
      wanted = true;
      return;
    }
    wanted = false;
    claiming = claim().finally(() => {
      claiming = undefined;
      if (wanted) wake();
    });
  };

  const recorder = new AttemptRecorder(
    ctx.database.db,
    { schedule: ctx.config.outbound.retryScheduleSeconds, log },
    () => {
      if (backlog) wake();
    },
  );
  const deps = deliveryDeps(ctx, client, recorder, log);

  const start = (delivery: ClaimedDelivery): void => {
    inFlight++;
    bump(sending, delivery.automationId, 1);
    const run = send(deps, delivery).then((sent) => {
      inFlight--;
      bump(sending, delivery.automationId, -1);
      pump();
      if (backlog) wake();
      return sent === undefined ? undefined : recorder.record(delivery, sent.result, sent.startedAt);
    });
    work.add(run);
    void run.finally(() => work.delete(run));
  };

  /** Starts ready deliveries, oldest first, while slots are free and their endpoints are under the cap. */
  const pump = (): void => {
    let i = 0;
    while (i < ready.length && inFlight < concurrency) {
      const delivery = ready[i]!;
      if ((sending.get(delivery.automationId) ?? 0) < endpointConcurrency) {
        ready.splice(i, 1);
        bump(waiting, delivery.automationId, -1);
        start(delivery);
      } else {
        i++;
      }
    }
  };

  const claim = async (): Promise<void> => {
    const room = concurrency + readyMax - inFlight - ready.length;
    // Every slot busy and half the ready queue waiting: a claim now would take only the few places just freed, so
    // wait until it can take a larger batch (a statement per delivery would cost the database more than the sends).
    // With a slot free, the ready ones are all waiting for their endpoints' caps, and the claim goes ahead.
    const enoughReady = inFlight >= concurrency && ready.length >= readyMax / 2 && room < readyMax / 2;
    if (room <= 0 || enoughReady || recorder.backlog >= maxUnrecorded) {
      backlog = true; // a finished send or a written batch wakes the loop again
      return;
    }
    const limit = Math.min(batchSize, room);
    // Each endpoint may have its cap sending and its cap waiting.
    const endpointLimit = 2 * endpointConcurrency;
    const endpointFree = new Map<string, number>();
    for (const automationId of new Set([...sending.keys(), ...waiting.keys()])) {
      endpointFree.set(
        automationId,
        endpointLimit - (sending.get(automationId) ?? 0) - (waiting.get(automationId) ?? 0),
      );
    }
    let result: Awaited<ReturnType<typeof claimDue>>;
    try {
      result = await claimDue(ctx.database.db, {
        limit,
        leaseSeconds,
        endpointLimit,
        endpointFree,
        ...(options.tenantIds === undefined ? {} : { tenantIds: options.tenantIds }),
      });
      failures = 0;
    } catch (err) {
      failures++;
      log.error({ err, failures }, "claiming webhook deliveries failed");
      retryTimer = setTimeout(
        () => {
          retryTimer = undefined;
          wake();
        },
        Math.min(30_000, pollMs * 2 ** failures),
      );
      return;
    }
    const { claimed, abandoned } = result;
    if (abandoned.length > 0) {
      log.info({ deliveries: abandoned }, "webhook deliveries of disabled automations closed");
    }
    for (const delivery of claimed) bump(waiting, delivery.automationId, 1);
    ready.push(...claimed);
    pump();
    const taken = claimed.length + abandoned.length;
    // Endpoints at their cap were left out of the claim: their due deliveries wait for a slot, which wakes us.
    const capped = [...endpointFree.values()].some((left) => left <= 0);
    const moreDue = result.more || taken >= limit || capped;
    // A claim that found work is followed by another as its sends finish, so the loop goes quiet only after a claim
    // that found nothing. Then what the claim left out, because it filled an endpoint's allowance, and what fell due
    // meanwhile without a notification (a retry's time, a row written without one) are found within a send rather
    // than at the poll. Counting only the endpoints at their cap before the claim left the rest of an endpoint that
    // the claim filled to the poll; and in bench (g), one pass in about fifteen left its last delivery to it (a pause
    // of 200–350 ms) with no endpoint at its cap, for a reason not found.
    backlog = moreDue || taken > 0;
    if (taken > 0) {
      log.debug(
        { claimed: claimed.length, abandoned: abandoned.length, inFlight, ready: ready.length },
        "webhook deliveries claimed",
      );
      // Room left and more due (the per-endpoint cap passed some over): claim again at once.
      if (moreDue && inFlight + ready.length < concurrency + readyMax) wanted = true;
    }
  };

  const poll = setInterval(wake, pollMs);
  poll.unref();
  // A process joined to the embedded database over its socket gets no notifications: it has only the poll.
  const listen = ctx.database.listen?.bind(ctx.database);
  const notified = listen !== undefined;
  let unlisten: Promise<(() => Promise<void>) | undefined> = listen
    ? listen(OUTBOX_CHANNEL, wake).catch((err: unknown) => {
        log.error({ err }, "cannot listen for new webhook deliveries; polling only");
        return undefined;
      })
    : Promise.resolve(undefined);
  wake();
  log.info(
    { pollMs, batchSize, concurrency, endpointConcurrency, leaseSeconds, notified },
    "webhook delivery loop started",
  );
  const started = unlisten.then(async () => {
    while (claiming !== undefined) await claiming;
  });
  return {
    started,
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearTimeout(retryTimer);
      const stopListening = await unlisten;
      unlisten = Promise.resolve(undefined);
      await stopListening?.();
      await claiming;
      // Claimed but never started: put back, due at once, rather than left for their leases to expire.
      const unsent = ready;
      ready = [];
      await Promise.all(
        unsent.map((delivery) =>
          releaseClaim(ctx.database.db, delivery, { delaySeconds: 0 }).catch((err: unknown) =>
            log.error({ err, deliveryId: delivery.id }, "could not put a claimed delivery back"),
          ),
        ),
      );
      // Sends are bounded by the attempt timeout; each is handed to the recorder before its promise settles.
      while (work.size > 0) await Promise.all(work);
      await recorder.idle();
      if (ownsClient) await client.close();
    },
  };
}
