import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { runPageQuery } from "../../db/page-query.js";
import { automations, billingSubscriptions } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";

export type AutomationRow = typeof automations.$inferSelect;
/** `automation` rows are served under /automations, `endpoint` rows under /webhooks; neither sees the other. */
export type Kind = "automation" | "endpoint";
export type NewAutomation = Omit<typeof automations.$inferInsert, "tenantId">;

const publicColumns = {
  id: automations.id,
  kind: automations.kind,
  name: automations.name,
  description: automations.description,
  eventTypes: automations.eventTypes,
  enabled: automations.enabled,
  triggerEvent: automations.triggerEvent,
  condition: automations.condition,
  action: automations.action,
  disabledReason: automations.disabledReason,
  createdAt: automations.createdAt,
  updatedAt: automations.updatedAt,
};
export type PublicAutomationRow = Pick<AutomationRow, keyof typeof publicColumns>;

/**
 * Inserts an automation or endpoint unless the institution already has `limit` of them, both kinds and disabled
 * ones included (undefined when it has). Creations of one institution queue on an advisory lock, so concurrent
 * ones cannot pass the limit together: each counts after the one before it committed.
 */
export async function insertAutomation(
  db: Executor,
  tenantId: string,
  limit: number,
  row: NewAutomation,
): Promise<PublicAutomationRow | undefined> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`automations:${tenantId}`}, 0))`);
    const counted = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(automations)
      .where(eq(automations.tenantId, tenantId));
    if ((counted[0]?.n ?? 0) >= limit) return undefined;
    const rows = await tx
      .insert(automations)
      .values({ ...row, tenantId })
      .returning(publicColumns);
    return rows[0] as PublicAutomationRow;
  });
}

export async function findAutomation(db: Executor, tenantId: string, id: string, kind: Kind = "automation") {
  const rows = await db
    .select()
    .from(automations)
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, id), eq(automations.kind, kind)));
  return rows[0];
}

export async function updateAutomation(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<NewAutomation>,
  kind: Kind = "automation",
): Promise<PublicAutomationRow | undefined> {
  const rows = await db
    .update(automations)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, id), eq(automations.kind, kind)))
    .returning(publicColumns);
  return rows[0];
}

export async function deleteAutomation(
  db: Executor,
  tenantId: string,
  id: string,
  kind: Kind = "automation",
): Promise<boolean> {
  const rows = await db
    .delete(automations)
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, id), eq(automations.kind, kind)))
    .returning({ id: automations.id });
  return rows.length > 0;
}

export async function listAutomations(
  db: Executor,
  tenantId: string,
  window: PageWindow,
  kind: Kind = "automation",
) {
  const rows = await runPageQuery(db, `automations_${kind}`, tenantId, {}, window, (p, name) =>
    db
      .select(publicColumns)
      .from(automations)
      .where(and(eq(automations.tenantId, p.tenantId), eq(automations.kind, kind)))
      .orderBy(desc(automations.createdAt), desc(automations.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as PublicAutomationRow[];
}

export function countAutomations(db: Executor, tenantId: string, kind: Kind = "automation"): Promise<number> {
  return readCounter(db, tenantId, `automations:kind:${kind}`);
}

/**
 * The automation an inbound token belongs to (any tenant: the token is the credential), with its tenant's
 * subscription status (null before the first subscription).
 */
export async function findByInboundToken(db: Executor, tokenHash: string) {
  const rows = await db
    .select({
      tenantId: automations.tenantId,
      id: automations.id,
      enabled: automations.enabled,
      triggerEvent: automations.triggerEvent,
      billingStatus: billingSubscriptions.status,
    })
    .from(automations)
    .leftJoin(billingSubscriptions, eq(billingSubscriptions.tenantId, automations.tenantId))
    .where(eq(automations.inboundTokenHash, tokenHash));
  return rows[0];
}
