/**
 * Credits are reserved before a provider call and settled after it. A reservation is one conditional UPDATE per
 * counter (`used + amount <= limit`) in one transaction: PostgreSQL's row lock serialises concurrent callers in any
 * process, and one that fails rolls back the other's increment, so what is spent never passes a limit. Any failure
 * of the store refuses the call (503 `ai_limit_unverifiable`): limits fail closed.
 */
import { sql } from "drizzle-orm";
import type { Db, Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { AppError } from "../../platform/errors/app-error.js";
import { emitEvent } from "../events/emit.js";
import * as repo from "./repo.js";
import type { Unit } from "./schemas.js";
import { secondsUntil, windowOf } from "./window.js";

export interface Caller {
  userId: string | null;
  role: string | null;
}

interface Counter {
  type: "user" | "institution";
  id: string;
  limit: number | null;
}

export interface Reservation {
  tenantId: string;
  unit: Unit;
  amount: number;
  windowStart: Date;
  counters: Counter[];
}

/** What a call of `tokens` tokens costs in the policy's unit. */
export function chargeOf(unit: Unit, tokens: number): number {
  if (unit === "requests") return 1;
  if (unit === "tokens") return tokens;
  return Math.ceil(tokens / 1000);
}

/** The limit on a user, most specific first: user > class group > course > role > institution's per-user limit. */
export async function userLimit(
  db: Executor,
  tenantId: string,
  user: { id: string; role: string },
  courseId: string | null,
  perUserLimit: number | null,
) {
  const override = await repo.overrideFor(db, tenantId, user, courseId);
  if (override !== undefined) return { limit: override.limit, source: override.source };
  return { limit: perUserLimit, source: perUserLimit === null ? null : ("institution" as const) };
}

class Refused extends Error {
  constructor(readonly counter: Counter) {
    super("limit reached");
  }
}

async function take(
  tx: Executor,
  tenantId: string,
  start: string,
  c: Counter,
  amount: number,
  check: boolean,
) {
  await tx.execute(sql`INSERT INTO ai_limit_counters (tenant_id, subject_type, subject_id, window_start)
    VALUES (${tenantId}, ${c.type}, ${c.id}, ${start}) ON CONFLICT DO NOTHING`);
  const rows = await queryRows<{ used: string }>(
    tx,
    sql`UPDATE ai_limit_counters SET used = used + ${amount} WHERE tenant_id = ${tenantId}
      AND subject_type = ${c.type} AND subject_id = ${c.id} AND window_start = ${start}
      ${check && c.limit !== null ? sql`AND used + ${amount} <= ${c.limit}` : sql``} RETURNING used`,
  );
  if (rows[0] === undefined) throw new Refused(c);
  return Number(rows[0].used);
}

/**
 * Reserves `tokens` (an upper bound of the call's usage) for the caller, or throws 429 `rate_limit_exceeded`
 * with `retryAfter` at the window's reset. Undefined when the institution's limits are off.
 */
export async function reserve(
  db: Db,
  tenantId: string,
  caller: Caller,
  courseId: string | null,
  tokens: number,
): Promise<Reservation | undefined> {
  let refused: Counter | undefined;
  let reservation: Reservation | undefined;
  let over = false;
  let end: Date;
  try {
    const policy = await repo.findPolicy(db, tenantId);
    if (!policy.enabled) return undefined;
    const window = windowOf(policy.period, policy.resetTimezone);
    end = window.end;
    const counters: Counter[] = [];
    if (caller.userId !== null) {
      const { limit } = await userLimit(
        db,
        tenantId,
        { id: caller.userId, role: caller.role ?? "" },
        courseId,
        policy.perUserLimit,
      );
      counters.push({ type: "user", id: caller.userId, limit });
    }
    if (policy.institutionLimit !== null)
      counters.push({ type: "institution", id: tenantId, limit: policy.institutionLimit });
    const amount = chargeOf(policy.unit, tokens);
    const check = policy.onExhausted === "block";
    const start = window.start.toISOString();
    try {
      await db.transaction(async (tx) => {
        for (const c of counters) {
          const used = await take(tx, tenantId, start, c, amount, check);
          if (c.limit !== null && used > c.limit) over = true;
        }
      });
      reservation = { tenantId, unit: policy.unit, amount, windowStart: window.start, counters };
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      refused = err.counter;
    }
    if (refused !== undefined || over) {
      await notifyOnce(db, tenantId, caller, refused ?? (counters[0] as Counter), policy.unit, window);
    }
  } catch (err) {
    throw new AppError("ai_limit_unverifiable", { cause: err });
  }
  if (refused !== undefined) throw new AppError("rate_limit_exceeded", { retryAfter: secondsUntil(end) });
  return reservation;
}

/** `ai_limit_reached`, once per user and window: the flag on the user's counter is set by the first refusal. */
async function notifyOnce(
  db: Db,
  tenantId: string,
  caller: Caller,
  counter: Counter,
  unit: Unit,
  window: { start: Date; end: Date },
) {
  const userId = caller.userId;
  if (userId === null) return;
  await db.transaction(async (tx) => {
    const flagged = await queryRows<{ used: string }>(
      tx,
      sql`UPDATE ai_limit_counters SET notified = true WHERE tenant_id = ${tenantId} AND subject_type = 'user'
        AND subject_id = ${userId} AND window_start = ${window.start.toISOString()} AND NOT notified RETURNING used`,
    );
    if (flagged.length === 0) return;
    const used =
      counter.type === "user"
        ? Number(flagged[0]?.used)
        : await repo.counterUsed(tx, tenantId, "institution", tenantId, window.start);
    await emitEvent(tx, {
      tenantId,
      type: "ai_limit_reached",
      data: {
        userId,
        limitSubject: counter.type,
        limit: counter.limit ?? 0,
        used,
        unit,
        periodStart: window.start.toISOString(),
        resetsAt: window.end.toISOString(),
      },
      actor: { type: "user", id: userId },
    });
  });
}

/**
 * Gives back what the call did not use (all of it when the call failed), inside the caller's transaction, which
 * also writes the ledger. The charge never passes the reservation, which was an upper bound of the usage.
 */
export async function settle(tx: Executor, r: Reservation, actual: number): Promise<number> {
  const charged = Math.min(Math.max(0, actual), r.amount);
  const refund = r.amount - charged;
  if (refund > 0) {
    for (const c of r.counters) {
      await tx.execute(sql`UPDATE ai_limit_counters SET used = greatest(0, used - ${refund})
        WHERE tenant_id = ${r.tenantId} AND subject_type = ${c.type} AND subject_id = ${c.id}
        AND window_start = ${r.windowStart.toISOString()}`);
    }
  }
  return charged;
}
