/**
 * Taking work off the outbox (`webhook_deliveries`). One statement claims a batch: `FOR UPDATE SKIP LOCKED`
 * lets any number of workers (processes or loops) drain the same queue without waiting on, or taking, each
 * other's rows, and the claim is a lease (`status = 'delivering'`, `lease_until`): a worker that dies mid-send
 * leaves rows whose lease expires, and the next claim takes them over. Delivery is therefore at least once; the
 * `webhook-id` (the delivery id) is the same on every attempt, and receivers deduplicate by it (Standard
 * Webhooks).
 *
 * `attempts` is incremented by the claim, so the attempt number a worker holds is also its fencing token:
 * recording is conditional on `status = 'delivering' AND attempts = <ours>` (see record.ts), so a worker whose
 * lease was taken over cannot overwrite the new owner's outcome.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { rowsOf } from "../../db/rows.js";
import { INACTIVE_STATUSES } from "../../platform/auth/pipeline.js";

export interface ClaimedDelivery {
  tenantId: string;
  id: string;
  automationId: string;
  eventId: string;
  eventType: string;
  url: string;
  /** As the fan-out stored them: rendered header values by name (validated again before sending). */
  headers: unknown;
  body: string;
  /** This attempt's number (1-based), and the claim's fencing token. */
  attempt: number;
  /** The automation's secret, sealed with context `automation:<automationId>`. */
  signingSecret: string;
}

export interface ClaimOptions {
  limit: number;
  /** How long the claim holds; it must outlast the send (see worker.ts for the defaults). */
  leaseSeconds: number;
  /**
   * At most this many deliveries of one endpoint (automation) in this claim (default: `limit`), and fewer for the
   * endpoints in `endpointFree`: the worker's per-endpoint concurrency cap, so that an endpoint with a backlog, or
   * one that hangs, takes no more of the worker's slots than the cap allows.
   */
  endpointLimit?: number;
  /** Slots left per automation id, for those with sends in flight; 0 leaves the automation out of the claim. */
  endpointFree?: ReadonlyMap<string, number>;
  /** Tests only; the database's clock otherwise. */
  now?: Date;
  /** Only these tenants' deliveries: for tests sharing one database with other test files. */
  tenantIds?: readonly string[];
}

export interface ClaimResult {
  /** Leased to the caller, to be sent and then recorded. */
  claimed: ClaimedDelivery[];
  /** Due deliveries of disabled automations, marked failed (not sent) by the same statement. */
  abandoned: { tenantId: string; id: string }[];
  /**
   * The claim looked at as many due deliveries as it may (CANDIDATES_PER_SLOT × limit): more may be due than it
   * took, even when the per-endpoint cap left it short of `limit`.
   */
  more: boolean;
}

/** Due deliveries looked at per delivery the claim may take: room for the per-endpoint cap to pass some over. */
export const CANDIDATES_PER_SLOT = 4;

/** What a delivery of a disabled automation says instead of being sent (re-enable, then redeliver). */
export const DISABLED_AUTOMATION_ERROR = "not sent: the automation is disabled";

interface ClaimRow {
  tenant_id: string;
  id: string;
  automation_id: string;
  event_id: string;
  event_type: string;
  url: string;
  headers: unknown;
  body: string;
  attempts: number;
  enabled: boolean;
  signing_secret: string;
}

/** Rounds of one claim at most, when other workers' claims take rows from under it (see claimDue). */
const CLAIM_ROUNDS = 4;

/**
 * `claimRound` until it has `limit` deliveries, nothing more is due, or CLAIM_ROUNDS have run. Another worker's claim
 * running at the same moment sees the same oldest rows and locks some of them first; this claim then skips them
 * (SKIP LOCKED) and comes back short although more is due. Claiming again at once, with what is left of `limit` and
 * of each endpoint's allowance, takes the rows past them: the other claim's rows are no longer due by then.
 */
export async function claimDue(db: Executor, options: ClaimOptions): Promise<ClaimResult> {
  const total: ClaimResult = { claimed: [], abandoned: [], more: false };
  const endpointFree = new Map(options.endpointFree ?? []);
  const endpointLimit = options.endpointLimit ?? options.limit;
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    const limit = options.limit - total.claimed.length - total.abandoned.length;
    if (limit <= 0) break;
    const result = await claimRound(db, { ...options, limit, endpointLimit, endpointFree });
    total.claimed.push(...result.claimed);
    total.abandoned.push(...result.abandoned);
    total.more = result.more;
    if (result.missed <= 0) break;
    for (const delivery of result.claimed) {
      const free = endpointFree.get(delivery.automationId) ?? endpointLimit;
      endpointFree.set(delivery.automationId, free - 1);
    }
  }
  return total;
}

/**
 * Claims up to `limit` due deliveries: pending ones whose `next_attempt_at` has come, and delivering ones whose
 * lease has expired (their worker died or stalled). Oldest first, at most `endpointLimit` (or the endpoint's free
 * slots) per endpoint. A due delivery whose automation has been disabled since it was written is closed as failed
 * in the same statement rather than sent.
 *
 * Deliveries of a tenant whose subscription is suspended, unpaid or paused are not claimed: they wait, their
 * attempts and retries untouched, and go out (already due) at the first claim after the tenant is active again
 * (CONTRACT "Billing"). The check is one primary-key probe per candidate row.
 *
 * The statement reads the oldest due rows without locking them (the partial index `webhook_deliveries_due_idx`
 * holds only unfinished rows, pending and delivering, so the scan costs the same whatever the number of
 * completed deliveries), at most `CANDIDATES_PER_SLOT × limit` of them whoever they belong to, and keeps those
 * within each endpoint's allowance. When that head of the queue is full and still leaves the claim short (one
 * endpoint's backlog fills it: an endpoint at its cap, one past its allowance, or a suspended tenant's), it goes
 * endpoint by endpoint instead (a skip scan over the endpoints with unfinished deliveries, then each one's oldest
 * due rows up to its allowance, on `webhook_deliveries_endpoint_due_idx`): a probe per endpoint with work, never a
 * row per delivery of the backlog ahead (migration 0019). Only then does it lock the oldest `limit` of them, `FOR UPDATE SKIP
 * LOCKED`: a row another worker is claiming at that moment is skipped for the next one in the allowed set (so two
 * claims at once rarely come back short), and one it claimed since the scan no longer matches (its new version is
 * neither due nor at the scanned address), so no row is claimed twice. Only the rows taken are locked.
 */
async function claimRound(db: Executor, options: ClaimOptions): Promise<ClaimResult & { missed: number }> {
  const limit = Math.max(1, options.limit);
  const endpointLimit = Math.max(1, options.endpointLimit ?? limit);
  const busy = [...(options.endpointFree ?? new Map<string, number>())];
  const full = busy.filter(([, free]) => free <= 0).map(([id]) => id);
  const partial = busy.filter(([, free]) => free > 0);
  const scan = limit * CANDIDATES_PER_SLOT;
  // The statement is the function aula_outbox_claim (migrations 0018 and 0019; it runs on the generic plans it keeps
  // per session since 0028): in outline,
  //   head:       the oldest `scan` due rows (webhook_deliveries_due_idx: completed_at IS NULL, read up to
  //               next_attempt_at <= now, which every due row meets, so retries scheduled for later are not
  //               walked), without locks;
  //   allowed:    of those, the first `free` of each endpoint (row_number() per automation), leaving out endpoints
  //               at their cap and inactive tenants; when the head was full and this is short of `limit`, instead
  //               each endpoint's oldest `free` due rows (skip scan over endpoints with unfinished rows);
  //   locked:     the oldest `limit` allowed rows still due, FOR UPDATE SKIP LOCKED (MATERIALIZED: run once);
  //   claimed:    updated by physical address (a TID scan), `delivering` with a lease, or `failed` when the
  //               automation has been disabled since.
  const result = await db.execute(sql`
    SELECT * FROM aula_outbox_claim(
      ${limit}::int, ${scan}::int, ${options.leaseSeconds}::int, ${endpointLimit}::int,
      ${sql.param(full)}::uuid[], ${sql.param(partial.map(([id]) => id))}::uuid[],
      ${sql.param(partial.map(([, free]) => Math.min(free, endpointLimit)))}::int[],
      ${sql.param([...INACTIVE_STATUSES])}::text[],
      ${options.tenantIds === undefined ? null : sql.param([...options.tenantIds])}::uuid[],
      ${options.now === undefined ? null : options.now.toISOString()}::timestamptz,
      ${DISABLED_AUTOMATION_ERROR}::text)
  `);
  const claimed: ClaimedDelivery[] = [];
  const abandoned: ClaimResult["abandoned"] = [];
  let scanned = 0;
  let picked = 0;
  for (const row of rowsOf<ClaimRow & { scanned: number | string; picked: number | string }>(result)) {
    scanned = Number(row.scanned);
    picked = Number(row.picked);
    if (row.id === null) continue;
    if (!row.enabled) {
      abandoned.push({ tenantId: row.tenant_id, id: row.id });
      continue;
    }
    claimed.push({
      tenantId: row.tenant_id,
      id: row.id,
      automationId: row.automation_id,
      eventId: row.event_id,
      eventType: row.event_type,
      url: row.url,
      headers: row.headers,
      body: row.body,
      attempt: Number(row.attempts),
      signingSecret: row.signing_secret,
    });
  }
  return { claimed, abandoned, more: scanned >= scan, missed: picked - claimed.length - abandoned.length };
}
