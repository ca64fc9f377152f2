import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { runPageQuery } from "../../db/page-query.js";
import { apiKeys } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";

const columns = {
  id: apiKeys.id,
  name: apiKeys.name,
  scopes: apiKeys.scopes,
  rateTier: apiKeys.rateTier,
  customPerHour: apiKeys.customPerHour,
  customPerMinute: apiKeys.customPerMinute,
  prefix: apiKeys.prefix,
  lastUsedAt: apiKeys.lastUsedAt,
  createdAt: apiKeys.createdAt,
};

export interface ApiKeyRow {
  id: string;
  name: string;
  scopes: string[];
  rateTier: string;
  customPerHour: number | null;
  customPerMinute: number | null;
  prefix: string;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface NewApiKey {
  name: string;
  scopes: string[];
  rateTier: string;
  customPerHour: number | null;
  customPerMinute: number | null;
  prefix: string;
  keyHash: string;
  createdByUserId: string | null;
}

export async function insertApiKey(db: Executor, tenantId: string, key: NewApiKey): Promise<ApiKeyRow> {
  const rows = await db
    .insert(apiKeys)
    .values({ tenantId, ...key })
    .returning(columns);
  return rows[0] as ApiKeyRow;
}

export async function listActiveApiKeys(
  db: Executor,
  tenantId: string,
  window: PageWindow,
): Promise<ApiKeyRow[]> {
  const rows = await runPageQuery(db, "api_keys", tenantId, {}, window, (p, name) =>
    db
      .select(columns)
      .from(apiKeys)
      .where(and(eq(apiKeys.tenantId, p.tenantId), eq(apiKeys.status, "active")))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as ApiKeyRow[];
}

export function countActiveApiKeys(db: Executor, tenantId: string): Promise<number> {
  return readCounter(db, tenantId, "api_keys:status:active");
}

export async function revokeApiKey(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ status: "revoked", revokedAt: sql`now()` })
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, id), eq(apiKeys.status, "active")))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}
