import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { enrollments } from "../../db/schema/index.js";
import { subjectOf } from "../events/actor.js";
import { emitEvents } from "../events/emit.js";
import { enrollmentAbout } from "./events.js";
import { findUsers } from "./lookups.js";
import { findEnrollments } from "./repo.js";

/** Enrollments expired per run; the next run takes the rest. */
const BATCH = 1000;

/**
 * The scheduler's pass (hourly in the worker): every `active` enrollment whose `expiresAt` has passed becomes
 * `expired`, with `enrollment_expired` (and its progress then) in the same transaction. Completed enrollments
 * keep their status: finishing in time is what expiry cannot take away. Answers how many expired.
 */
export async function expireEnrollments(db: Executor): Promise<number> {
  return db.transaction(async (tx) => {
    const expired = (await tx.execute(sql`
      UPDATE ${enrollments} SET status = 'expired', updated_at = now()
      WHERE (tenant_id, id) IN (
        SELECT tenant_id, id FROM ${enrollments}
        WHERE status = 'active' AND expires_at <= now()
        ORDER BY expires_at LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED)
      RETURNING tenant_id AS "tenantId", id`)) as unknown as { rows: { tenantId: string; id: string }[] };
    const byTenant = new Map<string, string[]>();
    for (const row of expired.rows)
      byTenant.set(row.tenantId, [...(byTenant.get(row.tenantId) ?? []), row.id]);
    for (const [tenantId, ids] of byTenant) await announce(tx, tenantId, ids);
    return expired.rows.length;
  });
}

async function announce(tx: Executor, tenantId: string, ids: string[]): Promise<void> {
  const records = await findEnrollments(tx, tenantId, ids);
  const people = await findUsers(
    tx,
    tenantId,
    records.map((r) => r.userId),
    [],
  );
  const byId = new Map(people.map((u) => [u.id, u]));
  await emitEvents(
    tx,
    tenantId,
    records.map((e) => {
      const user = byId.get(e.userId);
      return {
        type: "enrollment_expired" as const,
        data: {
          ...enrollmentAbout(e),
          expiresAt: e.expiresAt as string,
          progressPercent: e.progressPercent,
        },
        actor: { type: "system" as const },
        subject: user === undefined ? null : subjectOf(user),
      };
    }),
  );
}
