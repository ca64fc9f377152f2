/**
 * One claimed delivery, from claim to record: open its automation's signing secret (once per worker, SecretCache),
 * send it (send.ts), and hand the attempt to the recorder (recorder.ts). Both the delivery loop (worker.ts) and a
 * single drain (drain.ts) deliver through here.
 */
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../platform/context.js";
import type { Keyring } from "../../platform/crypto/secret-box.js";
import type { OutboundClient, OutboundResult } from "../../platform/outbound/client.js";
import type { ClaimedDelivery } from "./claim.js";
import { type RecordResult, releaseClaim } from "./record.js";
import type { AttemptRecorder } from "./recorder.js";
import { keyringOf, type OpenedSecret, openSigningSecret, sendDelivery } from "./send.js";

/** What the delivery shows while it waits for an operator to restore the key (no attempt is logged). */
export const SECRET_ERROR = "not sent yet: the signing secret cannot be read (server configuration)";

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

export function keyringFrom(ctx: AppContext): Keyring {
  return keyringOf(ctx.config);
}

/** One attempt's timeout in whole seconds: the unit a claim's lease is counted in. */
export function attemptTimeoutSeconds(ctx: AppContext): number {
  return Math.ceil(ctx.config.outbound.timeoutMs / 1000);
}

/**
 * Opened signing secrets by their sealed form, so that a worker opens each automation's secret once rather than
 * per delivery (AES-GCM). A rotated secret is a new sealed string, so it is never served stale; the cache is
 * emptied when it fills (it holds one entry per endpoint in use).
 */
export class SecretCache {
  private readonly opened = new Map<string, string>();
  constructor(private readonly max = 10_000) {}

  open(delivery: Pick<ClaimedDelivery, "automationId" | "signingSecret">, keyring: Keyring): OpenedSecret {
    const cached = this.opened.get(delivery.signingSecret);
    if (cached !== undefined) return { ok: true, secret: cached };
    const opened = openSigningSecret(delivery, keyring);
    if (opened.ok) {
      if (this.opened.size >= this.max) this.opened.clear();
      this.opened.set(delivery.signingSecret, opened.secret);
    }
    return opened;
  }
}

/** What delivering needs, shared by every delivery of one loop or drain. */
export interface DeliveryDeps {
  ctx: AppContext;
  client: OutboundClient;
  keyring: Keyring;
  secrets: SecretCache;
  recorder: AttemptRecorder;
  log?: FastifyBaseLogger | undefined;
  now?: (() => Date) | undefined;
}

/** A fresh secret cache and the configured keyring around one loop's or drain's client and recorder. */
export function deliveryDeps(
  ctx: AppContext,
  client: OutboundClient,
  recorder: AttemptRecorder,
  log: FastifyBaseLogger | undefined,
  now?: () => Date,
): DeliveryDeps {
  return { ctx, client, keyring: keyringFrom(ctx), secrets: new SecretCache(), recorder, log, now };
}

export type Sent = { result: OutboundResult; startedAt: Date } | undefined;

/**
 * Sends one claimed delivery. Undefined when nothing was sent: the signing secret could not be opened, and the
 * delivery was put back for an operator to fix the keyring (no attempt is logged). Never throws.
 */
export async function send(deps: DeliveryDeps, delivery: ClaimedDelivery): Promise<Sent> {
  const { ctx, client, keyring, log } = deps;
  const startedAt = deps.now?.() ?? new Date();
  try {
    const opened = deps.secrets.open(delivery, keyring);
    if (!opened.ok) {
      const now = deps.now?.();
      const released = await releaseClaim(ctx.database.db, delivery, {
        reason: SECRET_ERROR,
        ...(now === undefined ? {} : { now }),
      });
      log?.error(
        {
          tenantId: delivery.tenantId,
          deliveryId: delivery.id,
          automationId: delivery.automationId,
          code: opened.code,
          released,
        },
        "webhook not sent: the signing secret cannot be opened with the configured keyring",
      );
      return undefined;
    }
    // `webhook-timestamp` is always the real time: receivers check it against their own clocks.
    const result = await sendDelivery(client, delivery, opened.secret, {
      timeoutMs: ctx.config.outbound.timeoutMs,
    });
    return { result, startedAt };
  } catch (err) {
    log?.error(
      { err, tenantId: delivery.tenantId, deliveryId: delivery.id },
      "webhook not sent; it will be retried",
    );
    return undefined;
  }
}

/** Sends and records one delivery (drainOnce). */
export async function deliver(deps: DeliveryDeps, delivery: ClaimedDelivery): Promise<AttemptReport> {
  const report: AttemptReport = {
    tenantId: delivery.tenantId,
    deliveryId: delivery.id,
    attempt: delivery.attempt,
  };
  const sent = await send(deps, delivery);
  if (sent === undefined) return report;
  const record = await deps.recorder.record(delivery, sent.result, sent.startedAt);
  if (record !== undefined) report.record = record;
  return report;
}
