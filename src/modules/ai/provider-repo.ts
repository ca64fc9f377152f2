import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";

export interface ProviderRow {
  baseUrl: string;
  apiKey: string;
  apiKeyFingerprint: string;
  defaultModel: string;
  models: string[];
  embeddingModel: string | null;
  updatedAt: string;
}

export async function findSettings(db: Executor, tenantId: string): Promise<ProviderRow | undefined> {
  const [row] = await queryRows<ProviderRow>(
    db,
    sql`SELECT base_url AS "baseUrl", api_key AS "apiKey", api_key_fingerprint AS "apiKeyFingerprint",
          default_model AS "defaultModel", models, embedding_model AS "embeddingModel", to_char(updated_at AT TIME ZONE 'UTC',
          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"
        FROM ai_provider_settings WHERE tenant_id = ${tenantId}`,
  );
  return row;
}

export async function upsertSettings(db: Executor, tenantId: string, row: Omit<ProviderRow, "updatedAt">) {
  await db.execute(sql`
    INSERT INTO ai_provider_settings (tenant_id, base_url, api_key, api_key_fingerprint, default_model, models,
      embedding_model)
    VALUES (${tenantId}, ${row.baseUrl}, ${row.apiKey}, ${row.apiKeyFingerprint}, ${row.defaultModel},
      ${JSON.stringify(row.models)}::jsonb, ${row.embeddingModel})
    ON CONFLICT (tenant_id) DO UPDATE SET base_url = excluded.base_url, api_key = excluded.api_key,
      api_key_fingerprint = excluded.api_key_fingerprint, default_model = excluded.default_model,
      models = excluded.models, embedding_model = excluded.embedding_model, updated_at = now()`);
}

export async function deleteSettings(db: Executor, tenantId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`DELETE FROM ai_provider_settings WHERE tenant_id = ${tenantId} RETURNING 1 AS one`,
  );
  return rows.length > 0;
}
