import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { invites } from "../../db/schema/index.js";
import { emitEvents } from "../events/emit.js";
import { lifecycleOf } from "./lifecycle.js";
import { findInvite } from "./repo.js";
import type { InviteRecord } from "./schemas.js";

const BATCH = 1000;

/**
 * The scheduler's pass (hourly in the worker): a pending invitation past its expiry already reads as `expired`;
 * this stores that status, so `invite_expired` is written once, in the same transaction. A resend makes it pending
 * again. Answers how many expired.
 */
export async function expireInvites(db: Executor): Promise<number> {
  return db.transaction(async (tx) => {
    const expired = (await tx.execute(sql`
      UPDATE ${invites} SET status = 'expired', updated_at = now()
      WHERE (tenant_id, id) IN (
        SELECT tenant_id, id FROM ${invites}
        WHERE status = 'pending' AND expires_at <= now()
        ORDER BY expires_at LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED)
      RETURNING tenant_id AS "tenantId", id`)) as unknown as { rows: { tenantId: string; id: string }[] };
    const byTenant = new Map<string, InviteRecord[]>();
    for (const row of expired.rows) {
      const invite = (await findInvite(tx, row.tenantId, row.id)) as InviteRecord;
      byTenant.set(row.tenantId, [...(byTenant.get(row.tenantId) ?? []), invite]);
    }
    for (const [tenantId, list] of byTenant) {
      await emitEvents(
        tx,
        tenantId,
        list.map((invite) => ({
          type: "invite_expired" as const,
          data: lifecycleOf(invite),
          actor: { type: "system" as const },
        })),
      );
    }
    return expired.rows.length;
  });
}
