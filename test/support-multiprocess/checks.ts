/**
 * The row-by-row comparison of the multi-process test: every delivery row of the tenant against what the
 * receiver took. Returns the problems found (as sentences, for one readable failure) and the counts to report.
 */
import type pg from "pg";
import { Webhook } from "standardwebhooks";
import type { Receipt } from "./receiver.js";

export interface DeliveryRow {
  id: string;
  status: string;
  attempts: number;
  body: string;
  /** Attempt numbers in the delivery log (delivery_attempt_log: the attempt rows and the success on the delivery). */
  recorded: number[];
  /** Log entries with outcome `succeeded`. */
  succeeded: number;
}

export interface Table {
  deliveries: DeliveryRow[];
  /** Delivery rows per `user_created` event of the run's users (teachers), by event id. */
  perEvent: Map<string, number>;
}

/**
 * The tenant's deliveries, attempts and events, read as three plain scans and joined here: on tables nobody has
 * analysed yet, PostgreSQL may join them by nested loops (minutes for 10,000 rows instead of milliseconds).
 */
export async function readTable(db: pg.Pool, tenantId: string): Promise<Table> {
  const [deliveries, attempts, events] = await Promise.all([
    db.query<{ id: string; event_id: string; status: string; attempts: number; body: string }>(
      "SELECT id, event_id, status, attempts, body FROM webhook_deliveries WHERE tenant_id = $1",
      [tenantId],
    ),
    db.query<{ delivery_id: string; attempt: number; outcome: string }>(
      "SELECT delivery_id, attempt, outcome FROM delivery_attempt_log WHERE tenant_id = $1",
      [tenantId],
    ),
    db.query<{ id: string }>(
      `SELECT id FROM platform_events
       WHERE tenant_id = $1 AND type = 'user_created' AND data->>'role' = 'teacher'`,
      [tenantId],
    ),
  ]);
  const byId = new Map<string, DeliveryRow>();
  const perEvent = new Map(events.rows.map((e) => [e.id, 0]));
  for (const d of deliveries.rows) {
    byId.set(d.id, {
      id: d.id,
      status: d.status,
      attempts: d.attempts,
      body: d.body,
      recorded: [],
      succeeded: 0,
    });
    perEvent.set(d.event_id, (perEvent.get(d.event_id) ?? 0) + 1);
  }
  for (const a of attempts.rows) {
    const row = byId.get(a.delivery_id);
    if (row === undefined) continue; // the foreign key makes this impossible
    row.recorded.push(a.attempt);
    if (a.outcome === "succeeded") row.succeeded++;
  }
  return { deliveries: [...byId.values()], perEvent };
}

export interface Verdict {
  problems: string[];
  /** Ids received more than once. */
  repeats: string[];
  /** Ids with an attempt counted by a claim but never recorded: the killed worker's claims. */
  unrecorded: string[];
}

/**
 * `heldAtKill`: the deliveries leased (`delivering`) while the victim was frozen just before its SIGKILL, with
 * their attempt numbers then. An attempt may only go unrecorded if it is one of those; a delivery may only be
 * received twice if one of its attempts went unrecorded; every receipt must carry a valid signature, the stored
 * body and an id of this table.
 */
export function compare(
  rows: readonly DeliveryRow[],
  receipts: ReadonlyMap<string, readonly Receipt[]>,
  secret: string,
  heldAtKill: ReadonlyMap<string, number>,
): Verdict {
  const problems: string[] = [];
  const repeats: string[] = [];
  const unrecorded: string[] = [];
  const webhook = new Webhook(secret);
  const known = new Set<string>();
  for (const row of rows) {
    known.add(row.id);
    const got = receipts.get(row.id) ?? [];
    const problem = (what: string) => problems.push(`${row.id}: ${what}`);
    if (row.status !== "succeeded") problem(`status ${row.status}`);
    if (got.length === 0) problem("never received");
    if (got.length > row.attempts) problem(`received ${got.length} times in ${row.attempts} attempts`);
    if (row.succeeded !== 1) problem(`${row.succeeded} succeeded attempts logged`);
    for (const receipt of got) {
      if (receipt.body !== row.body) problem("a receipt's body differs from the stored body");
      try {
        webhook.verify(receipt.body, receipt.headers);
      } catch (err) {
        problem(`signature does not verify: ${(err as Error).message}`);
      }
    }
    const lost = [];
    for (let n = 1; n <= row.attempts; n++) if (!row.recorded.includes(n)) lost.push(n);
    if (lost.length > 0) {
      unrecorded.push(row.id);
      const held = heldAtKill.get(row.id);
      if (lost.length > 1 || lost[0] !== held) {
        problem(
          `attempts ${lost.join(", ")} unrecorded, but the killed worker held attempt ${held ?? "none"}`,
        );
      }
    }
    if (got.length > 1) {
      repeats.push(row.id);
      if (lost.length === 0) problem(`received ${got.length} times, every attempt recorded`);
    }
  }
  for (const id of receipts.keys()) if (!known.has(id)) problems.push(`${id}: received, not in the table`);
  return { problems, repeats, unrecorded };
}
