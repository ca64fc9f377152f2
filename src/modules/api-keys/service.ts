import type { Executor } from "../../db/client.js";
import { apiKeyPrefix, newApiKeySecret, sha256Hex } from "../../platform/auth/secrets.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { DEFAULT_CUSTOM_PER_MINUTE } from "../../platform/rate-limit/key-limits.js";
import { isScope } from "../../platform/scopes/scopes.js";
import * as repo from "./repo.js";
import type { ApiKeyRecord, CreateApiKeyInput, CreatedApiKeyRecord } from "./schemas.js";

function present(row: repo.ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    rateTier: row.rateTier as ApiKeyRecord["rateTier"],
    customLimits:
      row.rateTier === "custom" && row.customPerHour !== null
        ? { perHour: row.customPerHour, perMinute: row.customPerMinute ?? DEFAULT_CUSTOM_PER_MINUTE }
        : null,
    prefix: row.prefix,
    lastUsedAt: row.lastUsedAt,
    createdAt: row.createdAt,
  };
}

function validate(input: CreateApiKeyInput): void {
  const details: DetailKey[] = [];
  input.scopes.forEach((scope, i) => {
    if (!isScope(scope))
      details.push({ field: `scopes[${i}]`, key: "field.unknown_scope", params: { scope } });
  });
  if (input.rateTier === "custom" && input.customLimits === undefined) {
    details.push({ field: "customLimits", key: "field.custom_limits_required" });
  }
  if (input.rateTier !== "custom" && input.customLimits !== undefined) {
    details.push({ field: "customLimits", key: "field.custom_limits_forbidden" });
  }
  if (details.length > 0) throw new AppError("validation_failed", { details });
}

/** The secret exists only in this function's answer: the database keeps its SHA-256 and a display prefix. */
export async function createApiKey(
  db: Executor,
  tenantId: string,
  createdByUserId: string | null,
  input: CreateApiKeyInput,
): Promise<CreatedApiKeyRecord> {
  validate(input);
  const secret = newApiKeySecret();
  const row = await repo.insertApiKey(db, tenantId, {
    name: input.name,
    scopes: input.scopes,
    rateTier: input.rateTier,
    customPerHour: input.customLimits?.perHour ?? null,
    customPerMinute: input.customLimits ? (input.customLimits.perMinute ?? DEFAULT_CUSTOM_PER_MINUTE) : null,
    prefix: apiKeyPrefix(secret),
    keyHash: sha256Hex(secret),
    createdByUserId,
  });
  const { lastUsedAt: _unused, ...shown } = present(row);
  return { ...shown, secret };
}

export async function listApiKeys(
  db: Executor,
  tenantId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  const [rows, total] = await Promise.all([
    repo.listActiveApiKeys(db, tenantId, window),
    repo.countActiveApiKeys(db, tenantId),
  ]);
  return pageEnvelope(rows.map(present), total, window);
}

export async function revokeApiKey(db: Executor, tenantId: string, id: string): Promise<void> {
  if (!(await repo.revokeApiKey(db, tenantId, id))) throw notFound();
}
