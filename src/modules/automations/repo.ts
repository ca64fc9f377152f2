import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { runPageQuery } from "../../db/page-query.js";
import { automations } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";

export type AutomationRow = typeof automations.$inferSelect;
export type NewAutomation = Omit<typeof automations.$inferInsert, "tenantId">;

const publicColumns = {
  id: automations.id,
  name: automations.name,
  enabled: automations.enabled,
  triggerEvent: automations.triggerEvent,
  condition: automations.condition,
  action: automations.action,
  disabledReason: automations.disabledReason,
  createdAt: automations.createdAt,
  updatedAt: automations.updatedAt,
};
export type PublicAutomationRow = Pick<AutomationRow, keyof typeof publicColumns>;

export async function insertAutomation(db: Executor, tenantId: string, row: NewAutomation) {
  const rows = await db
    .insert(automations)
    .values({ ...row, tenantId })
    .returning(publicColumns);
  return rows[0] as PublicAutomationRow;
}

export async function findAutomation(db: Executor, tenantId: string, id: string) {
  const rows = await db
    .select()
    .from(automations)
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, id)));
  return rows[0];
}

export async function updateAutomation(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<NewAutomation>,
): Promise<PublicAutomationRow | undefined> {
  const rows = await db
    .update(automations)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, id)))
    .returning(publicColumns);
  return rows[0];
}

export async function deleteAutomation(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(automations)
    .where(and(eq(automations.tenantId, tenantId), eq(automations.id, id)))
    .returning({ id: automations.id });
  return rows.length > 0;
}

export async function listAutomations(db: Executor, tenantId: string, window: PageWindow) {
  const rows = await runPageQuery(db, "automations", tenantId, {}, window, (p, name) =>
    db
      .select(publicColumns)
      .from(automations)
      .where(eq(automations.tenantId, p.tenantId))
      .orderBy(desc(automations.createdAt), desc(automations.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as PublicAutomationRow[];
}

export function countAutomations(db: Executor, tenantId: string): Promise<number> {
  return readCounter(db, tenantId, "automations");
}

/** The automation an inbound token belongs to (any tenant: the token is the credential). */
export async function findByInboundToken(db: Executor, tokenHash: string) {
  const rows = await db
    .select({
      tenantId: automations.tenantId,
      id: automations.id,
      enabled: automations.enabled,
      triggerEvent: automations.triggerEvent,
    })
    .from(automations)
    .where(eq(automations.inboundTokenHash, tokenHash));
  return rows[0];
}
