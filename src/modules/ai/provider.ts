/**
 * The AI provider an institution uses: its own (an OpenAI-compatible endpoint an administrator's session set,
 * the key sealed at rest and bound to the tenant) or else the environment's (AI_BASE_URL…), or none.
 */
import { createHash } from "node:crypto";
import type { AppContext } from "../../platform/context.js";
import { openSecret, sealSecret } from "../../platform/crypto/secret-box.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { automationDeps, keyringOf, refuseTargetUrl } from "../automations/service.js";
import * as repo from "./provider-repo.js";

/** Sealed keys open only for the tenant they were written for. */
const keyContext = (tenantId: string) => `ai_provider:${tenantId}`;

export interface ResolvedProvider {
  source: "institution" | "environment";
  baseUrl: string;
  apiKey: string;
  defaultModel: string;
  /** The models a prompt may name; the default model is always one. */
  models: string[];
  /** The model whose embeddings give knowledge bases a hybrid rank (modules/rag/embeddings.ts); null: none. */
  embeddingModel: string | null;
}

export interface ProviderSettingsInput {
  baseUrl: string;
  apiKey: string;
  defaultModel: string;
  models?: string[];
  embeddingModel?: string | null;
}

export interface ProviderView {
  configured: boolean;
  source: "institution" | "environment" | null;
  baseUrl: string | null;
  defaultModel: string | null;
  models: string[];
  embeddingModel: string | null;
  apiKeyFingerprint: string | null;
  updatedAt: string | null;
}

const fingerprint = (key: string) => createHash("sha256").update(key).digest("hex").slice(0, 16);

export async function resolveProvider(
  ctx: AppContext,
  tenantId: string,
): Promise<ResolvedProvider | undefined> {
  return providerFrom(ctx, tenantId, await repo.findSettings(ctx.database.db, tenantId));
}

/** The provider a settings row names, its key opened; without a row, the environment's, or none. */
export function providerFrom(
  ctx: AppContext,
  tenantId: string,
  row: repo.ProviderRow | undefined,
): ResolvedProvider | undefined {
  if (row !== undefined) {
    return {
      source: "institution",
      baseUrl: row.baseUrl,
      apiKey: openSecret(row.apiKey, keyringOf(ctx.config), keyContext(tenantId)),
      defaultModel: row.defaultModel,
      models: row.models,
      embeddingModel: row.embeddingModel,
    };
  }
  const env = ctx.config.ai.environment;
  if (env === undefined) return undefined;
  return {
    source: "environment",
    baseUrl: env.baseUrl,
    apiKey: env.apiKey,
    defaultModel: env.model,
    models: [env.model],
    embeddingModel: env.embeddingModel ?? null,
  };
}

/** 503 `ai_not_configured` when the institution has no provider: callers check before reserving credits. */
export async function requireProvider(ctx: AppContext, tenantId: string): Promise<ResolvedProvider> {
  const provider = await resolveProvider(ctx, tenantId);
  if (provider === undefined) throw new AppError("ai_not_configured");
  return provider;
}

export async function viewProvider(ctx: AppContext, tenantId: string): Promise<ProviderView> {
  const row = await repo.findSettings(ctx.database.db, tenantId);
  if (row !== undefined) {
    return {
      configured: true,
      source: "institution",
      baseUrl: row.baseUrl,
      defaultModel: row.defaultModel,
      models: row.models,
      embeddingModel: row.embeddingModel,
      apiKeyFingerprint: row.apiKeyFingerprint,
      updatedAt: row.updatedAt,
    };
  }
  const env = ctx.config.ai.environment;
  return {
    configured: env !== undefined,
    source: env === undefined ? null : "environment",
    // The environment's endpoint and key are the operator's, not the institution's: neither is shown.
    baseUrl: null,
    defaultModel: env?.model ?? null,
    models: env === undefined ? [] : [env.model],
    embeddingModel: env?.embeddingModel ?? null,
    apiKeyFingerprint: null,
    updatedAt: null,
  };
}

/** The URL passes the outbound policy (public http(s) host) here, and again at every connection. */
export async function putProvider(ctx: AppContext, tenantId: string, input: ProviderSettingsInput) {
  const details: DetailKey[] = [];
  const refused = await refuseTargetUrl(automationDeps(ctx), input.baseUrl, "baseUrl");
  if (refused !== undefined) details.push(refused);
  if (details.length > 0) throw new AppError("validation_failed", { details });
  const models = [...new Set([input.defaultModel, ...(input.models ?? [])])];
  await repo.upsertSettings(ctx.database.db, tenantId, {
    baseUrl: input.baseUrl.replace(/\/$/, ""),
    apiKey: sealSecret(input.apiKey, keyringOf(ctx.config), keyContext(tenantId)),
    apiKeyFingerprint: fingerprint(input.apiKey),
    defaultModel: input.defaultModel,
    models,
    embeddingModel: input.embeddingModel ?? null,
  });
  return viewProvider(ctx, tenantId);
}

export async function deleteProvider(ctx: AppContext, tenantId: string): Promise<void> {
  if (!(await repo.deleteSettings(ctx.database.db, tenantId))) throw notFound();
}
