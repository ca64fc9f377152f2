/**
 * The queue mechanism of the project: a PostgreSQL table is the queue, and a worker takes rows off it with a lease.
 * It is the webhook outbox's claim (modules/outbox/claim.ts, whose statement adds per-endpoint caps on top of it),
 * made generic: the mail outbox (modules/email/worker.ts) and background jobs (modules/jobs) claim through this
 * file, so the project has one mechanism, not a hand-written queue per feature.
 *
 * - Claim: one statement locks the oldest due rows `FOR UPDATE SKIP LOCKED` (any number of workers share the
 *   table without waiting on, or taking, each other's rows), counts the attempt and sets a lease. A worker that
 *   dies leaves rows whose lease runs out; the next claim's `due` condition takes them over.
 * - Fencing: the attempt number a claim hands out is its token. Every later write of the claimant is conditional
 *   on `attempts = <its number>` (and on the row still being held), so a worker whose lease was taken over
 *   cannot overwrite its successor's progress or outcome: its write matches nothing, and it stops.
 *
 * It needs no schema, process or extension of its own and runs on PGlite as on PostgreSQL (graphile-worker and
 * pg-boss run on PostgreSQL only; DESIGN.md records the outbox's claim measured faster than graphile-worker). Jobs
 * claimed per second through it: bench/reports.ts (t2), figures in the README's Performance section.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "./client.js";
import { rowsOf } from "./rows.js";

export interface ClaimSpec {
  /** The queue table; every queue is keyed `(tenant_id, id)` and counts claims in `attempts`. */
  table: SQL;
  /** Which rows may be taken now (queued and due, or held under a lease that has run out). */
  due: SQL;
  /** The order they are taken in, matching an index of the due rows. */
  order: SQL;
  limit: number;
  /** Assignments besides `attempts` and the lease (e.g. a status), over the table's columns. */
  set?: SQL;
  /** The lease column's new value, e.g. `now() + interval '60 seconds'`; every queue names its own column. */
  lease: SQL;
  /** What the claim answers, over the table aliased `q` (its new values). */
  returning: SQL;
}

/** Takes up to `limit` due rows under a lease; answers them with their new `attempts` (the fencing token). */
export async function claimLeased<T>(db: Executor, spec: ClaimSpec): Promise<T[]> {
  const extra = spec.set === undefined ? sql`` : sql`, ${spec.set}`;
  const result = await db.execute(sql`
    UPDATE ${spec.table} q
       SET attempts = q.attempts + 1, ${spec.lease}${extra}
      FROM (SELECT tenant_id, id FROM ${spec.table}
             WHERE ${spec.due}
             ORDER BY ${spec.order}
             LIMIT ${Math.max(1, spec.limit)}
             FOR UPDATE SKIP LOCKED) due
     WHERE q.tenant_id = due.tenant_id AND q.id = due.id
 RETURNING ${spec.returning}`);
  return rowsOf<T>(result);
}

export interface FencedWrite {
  table: SQL;
  tenantId: string;
  id: string;
  /** The claim's attempt number: the write applies only while it is still the latest claim. */
  attempt: number;
  /** The row is still held by a claim (e.g. `status = 'running'`). */
  held: SQL;
  set: SQL;
  /** What the write answers; `id` when omitted. */
  returning?: SQL;
}

/**
 * A claimant's write, fenced by its attempt number: undefined when the row has been taken over (or finished, or
 * withdrawn) since, in which case the caller stops and records nothing.
 */
export async function fencedUpdate<T = { id: string }>(
  db: Executor,
  write: FencedWrite,
): Promise<T | undefined> {
  const result = await db.execute(sql`
    UPDATE ${write.table} SET ${write.set}
     WHERE tenant_id = ${write.tenantId} AND id = ${write.id} AND attempts = ${write.attempt} AND ${write.held}
 RETURNING ${write.returning ?? sql`id`}`);
  return rowsOf<T>(result)[0];
}
