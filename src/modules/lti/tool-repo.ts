import { and, desc, eq, type SQL } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { ltiTools } from "../../db/schema/index.js";
import { type CappedTotal, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";

export type ToolRow = typeof ltiTools.$inferSelect;

const where = (tenantId: string, status: string | undefined): SQL =>
  and(eq(ltiTools.tenantId, tenantId), status === undefined ? undefined : eq(ltiTools.status, status)) as SQL;

/** Newest first, in the order of lti_tools_tenant_(status_)created_idx. */
export function listTools(db: Executor, tenantId: string, status: string | undefined, window: PageWindow) {
  return db
    .select()
    .from(ltiTools)
    .where(where(tenantId, status))
    .orderBy(desc(ltiTools.createdAt), desc(ltiTools.id))
    .limit(window.limit)
    .offset(window.offset);
}

/** Trigger-kept counters `lti_tools` and `lti_tools:status:<s>` (migration 0058): exact. */
export async function countTools(
  db: Executor,
  tenantId: string,
  status: string | undefined,
): Promise<CappedTotal> {
  const name = status === undefined ? "lti_tools" : `lti_tools:status:${status}`;
  return exactTotal(await readCounter(db, tenantId, name));
}

export async function findTool(db: Executor, tenantId: string, id: string): Promise<ToolRow | undefined> {
  const [row] = await db
    .select()
    .from(ltiTools)
    .where(and(eq(ltiTools.tenantId, tenantId), eq(ltiTools.id, id)));
  return row;
}

/** By the client id we issued: unique across the platform, but always read inside the request's tenant. */
export async function findByClientId(db: Executor, tenantId: string, clientId: string) {
  const [row] = await db
    .select()
    .from(ltiTools)
    .where(and(eq(ltiTools.tenantId, tenantId), eq(ltiTools.clientId, clientId)));
  return row;
}

export async function insertTool(db: Executor, values: typeof ltiTools.$inferInsert): Promise<ToolRow> {
  const [row] = await db.insert(ltiTools).values(values).returning();
  if (row === undefined) throw new Error("insert returned no row");
  return row;
}

export async function updateTool(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<typeof ltiTools.$inferInsert>,
): Promise<ToolRow | undefined> {
  const [row] = await db
    .update(ltiTools)
    .set(changes)
    .where(and(eq(ltiTools.tenantId, tenantId), eq(ltiTools.id, id)))
    .returning();
  return row;
}

export async function deleteTool(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(ltiTools)
    .where(and(eq(ltiTools.tenantId, tenantId), eq(ltiTools.id, id)))
    .returning({ id: ltiTools.id });
  return rows.length > 0;
}
