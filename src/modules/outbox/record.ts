/**
 * What an attempt left behind, written in one transaction: the attempt in the tenant's delivery log, and the
 * delivery's next state. A failed attempt is a `delivery_attempts` row; a successful one is kept on the delivery
 * row it completes (migration 0029; the view `delivery_attempt_log` reads both), unless its claim was no longer
 * the worker's, when it too is a row.
 *
 * What the attempt means for the delivery (its facts, and the retry policy's decision) is retry-policy.ts's.
 *
 * Endpoints that keep failing: the first failure after a success stamps `automations.failing_since`; any
 * success clears it. A failure at least 5 days after that stamp disables the automation with the reason
 * "deliveries failed for 5 days" (FAILING_REASON); pending deliveries of a disabled automation are then closed
 * as failed by the next claim instead of being sent.
 *
 * Fencing: the delivery is only updated while the claim is still ours (`status = 'delivering'` and
 * `attempts` = our attempt number). A worker whose lease expired and was taken over still logs the attempt it
 * really made, but leaves the delivery and the automation to the new owner.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { rowsOf } from "../../db/rows.js";
import type { OutboundResult } from "../../platform/outbound/client.js";
import type { ClaimedDelivery } from "./claim.js";
import { type AttemptFacts, type Decision, decide, describeAttempt } from "./retry-policy.js";
import { clock } from "./sql.js";

export const FAILING_DAYS = 5;
export const FAILING_REASON = `deliveries failed for ${FAILING_DAYS} days`;
export const GONE_REASON = "the endpoint answered 410 Gone";

/** What the delivery row shows as its last error (the attempt rows keep the details). */
function lastError(facts: AttemptFacts): string | null {
  if (facts.outcome === "succeeded") return null;
  if (facts.statusCode !== null) return `HTTP ${facts.statusCode}`;
  return facts.error;
}

export interface RecordOptions {
  schedule: readonly number[];
  /** When the attempt started (the attempt row's `started_at`). */
  startedAt: Date;
  /** Tests only; the database's clock otherwise (as in claim.ts). */
  now?: Date;
}

export interface RecordResult {
  facts: AttemptFacts;
  decision: Decision;
  /** False when the claim was no longer ours (or the automation was deleted): only the attempt was logged. */
  applied: boolean;
  /** Set when this attempt disabled the automation. */
  disabledReason: string | null;
}

export async function recordAttempt(
  db: Db,
  delivery: ClaimedDelivery,
  result: OutboundResult,
  options: RecordOptions,
): Promise<RecordResult> {
  const facts = describeAttempt(result, options.now?.getTime());
  const decision = decide(facts, delivery.attempt, options.schedule);
  // A success is written as the batch writes it (kept on the delivery row): one path for both.
  if (decision.status === "succeeded") {
    const now = options.now === undefined ? {} : { now: options.now };
    const [record] = await recordSuccesses(db, [{ delivery, result, startedAt: options.startedAt }], now);
    return record!;
  }
  const now = clock(options.now);
  const { tenantId, id, automationId, attempt } = delivery;
  return db.transaction(async (tx) => {
    // The automation first, then the delivery: the order in which deleting an automation cascades, so the
    // two cannot deadlock. NO KEY UPDATE does not block the fan-out's inserts (their FK check takes KEY SHARE).
    const automation = rowsOf<{ enabled: boolean; failing_long: boolean }>(
      await tx.execute(sql`
        SELECT enabled,
          coalesce(failing_since <= ${now} - make_interval(days => ${FAILING_DAYS}), false) AS failing_long
        FROM automations WHERE tenant_id = ${tenantId} AND id = ${automationId}
        FOR NO KEY UPDATE`),
    )[0];
    const unapplied: RecordResult = { facts, decision, applied: false, disabledReason: null };
    // Deleted meanwhile: its deliveries and their log went with it.
    if (automation === undefined) return unapplied;

    await tx.execute(sql`
      INSERT INTO delivery_attempts (tenant_id, delivery_id, automation_id, attempt, started_at, duration_ms, outcome,
        status_code, response_excerpt, error)
      SELECT tenant_id, id, automation_id, ${attempt}::int, ${options.startedAt.toISOString()}::timestamptz,
        ${Math.max(0, Math.round(facts.durationMs))}::int, ${facts.outcome}::text, ${facts.statusCode}::int,
        ${facts.responseExcerpt}::text, ${facts.error}::text
      FROM webhook_deliveries WHERE tenant_id = ${tenantId} AND id = ${id}
      ON CONFLICT DO NOTHING`);

    // Only failures get here (a success went to recordSuccesses above).
    const next =
      decision.status === "pending"
        ? sql`next_attempt_at = ${now} + make_interval(secs => ${decision.delaySeconds}), completed_at = NULL`
        : sql`completed_at = ${now}`;
    const updated = rowsOf<{ id: string }>(
      await tx.execute(sql`
        UPDATE webhook_deliveries SET
          status = ${decision.status}, lease_until = NULL,
          last_status_code = ${facts.statusCode}::int, last_error = ${lastError(facts)}::text, ${next}
        WHERE tenant_id = ${tenantId} AND id = ${id} AND status = 'delivering' AND attempts = ${attempt}
        RETURNING id`),
    );
    if (updated.length === 0) return unapplied;

    const reason =
      decision.status === "failed" && decision.why === "gone"
        ? GONE_REASON
        : automation.failing_long
          ? FAILING_REASON
          : null;
    if (reason !== null && automation.enabled) {
      await tx.execute(sql`
        UPDATE automations SET enabled = false, disabled_reason = ${reason},
          failing_since = coalesce(failing_since, ${now}), updated_at = ${now}
        WHERE tenant_id = ${tenantId} AND id = ${automationId}`);
      return { facts, decision, applied: true, disabledReason: reason };
    }
    await tx.execute(sql`
      UPDATE automations SET failing_since = ${now}
      WHERE tenant_id = ${tenantId} AND id = ${automationId} AND failing_since IS NULL`);
    return { facts, decision, applied: true, disabledReason: null };
  });
}

/** How long a delivery waits when it could not be sent for a reason of ours (see `releaseClaim`). */
export const RELEASE_DELAY_SECONDS = 60;

/**
 * Puts a claimed delivery back unsent, as if it had not been claimed (`attempts` restored), due again after
 * `delaySeconds`: for failures on our side, such as a signing secret the keyring cannot open, which an operator
 * fixes (restore the key) without the tenant losing the event or seeing a failed attempt that never happened.
 * Fenced like `recordAttempt`. Returns whether the claim was still ours.
 */
export async function releaseClaim(
  db: Db,
  delivery: ClaimedDelivery,
  /** `reason` replaces the delivery's last error (omitted: the last error stays). */
  options: { reason?: string; delaySeconds?: number; now?: Date },
): Promise<boolean> {
  const now = clock(options.now);
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      UPDATE webhook_deliveries SET status = 'pending', attempts = attempts - 1, lease_until = NULL,
        next_attempt_at = ${now} + make_interval(secs => ${options.delaySeconds ?? RELEASE_DELAY_SECONDS}),
        last_error = coalesce(${options.reason ?? null}::text, last_error)
      WHERE tenant_id = ${delivery.tenantId} AND id = ${delivery.id}
        AND status = 'delivering' AND attempts = ${delivery.attempt}
      RETURNING id`),
  );
  return rows.length > 0;
}

/** One successful attempt, for `recordSuccesses`. */
export interface SucceededAttempt {
  delivery: ClaimedDelivery;
  result: OutboundResult;
  startedAt: Date;
}

/**
 * Records many successful attempts in one statement (so one transaction), whatever their number: each delivery
 * succeeded, with its attempt kept on its row and counted in `delivery_stats`, where the claim is still ours
 * (otherwise the attempt is logged as a `delivery_attempts` row); the endpoints' `failing_since` cleared. This is
 * how the worker keeps up with a fast receiver. Failures go through `recordAttempt`, one by one: they are
 * rarer, and each may disable its automation.
 *
 * The automations are locked first, FOR KEY SHARE in id order, for the reason `recordAttempt` locks its
 * automation first (deleting an automation cascades to its deliveries; this keeps the same order), and KEY SHARE
 * because it does not conflict with another worker recording for the same endpoint, nor with the fan-out.
 * Returns the results in the order given.
 */
export async function recordSuccesses(
  db: Db,
  attempts: readonly SucceededAttempt[],
  options: { now?: Date } = {},
): Promise<RecordResult[]> {
  if (attempts.length === 0) return [];
  const facts = attempts.map((a) => describeAttempt(a.result, options.now?.getTime()));
  const rows = attempts.map((a, i) => ({
    tenant_id: a.delivery.tenantId,
    id: a.delivery.id,
    automation_id: a.delivery.automationId,
    attempt: a.delivery.attempt,
    started_at: a.startedAt.toISOString(),
    duration_ms: Math.max(0, Math.round(facts[i]!.durationMs)),
    status_code: facts[i]!.statusCode,
    excerpt: facts[i]!.responseExcerpt,
  }));
  // The function aula_outbox_record_successes (migration 0029) does it with its plans kept: the automations
  // locked FOR KEY SHARE in id order; the deliveries succeeded where the claim is still the caller's, the others'
  // attempts logged as rows; failing streaks ended, those automations locked in id order.
  const done = rowsOf<{ id: string }>(
    await db.execute(
      sql`SELECT id FROM aula_outbox_record_successes(${JSON.stringify(rows)}::jsonb, ${options.now === undefined ? null : options.now.toISOString()}::timestamptz)`,
    ),
  );
  const applied = new Set(done.map((d) => d.id));
  return attempts.map((a, i) => ({
    facts: facts[i]!,
    decision: { status: "succeeded" },
    applied: applied.has(a.delivery.id),
    disabledReason: null,
  }));
}
