/**
 * The worker's record queue. A successful attempt waits here and is written together with every other one that
 * arrives while the previous write runs (`recordSuccesses`: one transaction, two statements, whatever their number),
 * so the database sees a few large writes instead of a transaction per delivery. A failed attempt is written at
 * once, alone (`recordAttempt`): it schedules a retry, and may disable its automation.
 *
 * A write that fails (the database is away) is logged and its attempts are left unrecorded: their leases expire and
 * the deliveries are sent again, with the same `webhook-id`.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import type { OutboundResult } from "../../platform/outbound/client.js";
import type { ClaimedDelivery } from "./claim.js";
import { type RecordResult, recordAttempt, recordSuccesses, type SucceededAttempt } from "./record.js";
import { succeeded } from "./retry-policy.js";

/** Successful attempts written by one transaction at most. */
export const RECORD_BATCH = 1000;

export interface RecorderOptions {
  schedule: readonly number[];
  log?: FastifyBaseLogger | undefined;
  /** Tests only (fake clock). */
  now?: (() => Date) | undefined;
}

interface Waiting extends SucceededAttempt {
  done(record: RecordResult | undefined): void;
}

export class AttemptRecorder {
  private waiting: Waiting[] = [];
  private writing: Promise<void> | undefined;
  /** Writes in flight: the batch, and single failures. */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly options: RecorderOptions,
    /** Called whenever a batch has been written (the loop claims again if it held back for the queue). */
    private readonly onWritten: () => void = () => {},
  ) {}

  /** Attempts waiting for the next batch. */
  get backlog(): number {
    return this.waiting.length;
  }

  /** Resolves once the attempt is written; undefined when the write failed (logged). Never rejects. */
  record(
    delivery: ClaimedDelivery,
    result: OutboundResult,
    startedAt: Date,
  ): Promise<RecordResult | undefined> {
    if (!succeeded(result)) return this.track(this.recordFailure(delivery, result, startedAt));
    const written = new Promise<RecordResult | undefined>((done) => {
      this.waiting.push({ delivery, result, startedAt, done });
    });
    this.kick();
    return written;
  }

  /** Until everything handed over so far has been written (or has failed to be). */
  async idle(): Promise<void> {
    while (this.writing !== undefined || this.pending.size > 0) {
      await Promise.all([this.writing, ...this.pending]);
    }
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
    return promise;
  }

  private kick(): void {
    if (this.writing !== undefined) return;
    this.writing = this.writeAll().finally(() => {
      this.writing = undefined;
      this.onWritten();
      if (this.waiting.length > 0) this.kick();
    });
  }

  private async writeAll(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, RECORD_BATCH);
      const started = performance.now();
      try {
        const now = this.options.now?.();
        const records = await recordSuccesses(this.db, batch, now === undefined ? {} : { now });
        for (const [i, attempt] of batch.entries()) attempt.done(records[i]);
        this.options.log?.debug(
          {
            recorded: batch.length,
            superseded: records.filter((r) => !r.applied).length,
            ms: Math.round(performance.now() - started),
          },
          "webhook deliveries recorded",
        );
      } catch (err) {
        this.options.log?.error(
          { err, attempts: batch.length },
          "webhook attempts could not be recorded; their deliveries will be retried",
        );
        for (const attempt of batch) attempt.done(undefined);
      }
    }
  }

  private async recordFailure(
    delivery: ClaimedDelivery,
    result: OutboundResult,
    startedAt: Date,
  ): Promise<RecordResult | undefined> {
    const log = this.options.log;
    try {
      const now = this.options.now?.();
      const record = await recordAttempt(this.db, delivery, result, {
        schedule: this.options.schedule,
        startedAt,
        ...(now === undefined ? {} : { now }),
      });
      log?.debug(
        {
          tenantId: delivery.tenantId,
          deliveryId: delivery.id,
          automationId: delivery.automationId,
          attempt: delivery.attempt,
          outcome: record.facts.outcome,
          statusCode: record.facts.statusCode,
          next: record.decision.status,
          ...(record.applied ? {} : { superseded: true }),
          // Server logs only: `blocked` names the refused range or address here, never to the tenant.
          ...(!result.ok && result.detail !== undefined ? { detail: result.detail } : {}),
        },
        "webhook attempt failed",
      );
      if (record.disabledReason !== null) {
        log?.warn(
          { tenantId: delivery.tenantId, automationId: delivery.automationId, reason: record.disabledReason },
          "automation disabled",
        );
      }
      return record;
    } catch (err) {
      log?.error(
        { err, tenantId: delivery.tenantId, deliveryId: delivery.id, attempt: delivery.attempt },
        "webhook attempt could not be recorded; it will be retried",
      );
      return undefined;
    }
  }
}
