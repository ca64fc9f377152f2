/**
 * Optional embeddings, when the institution's provider names an embeddings model (ai/provider.ts). Indexing embeds
 * a document's chunks in batches; search embeds its query once. Each call to the provider goes the way every AI
 * call goes: a reservation of an upper bound of its tokens against the AI limits, then the settlement with the
 * tokens the provider reported and the ledger row, in one transaction, also when it failed. Indexing charges the
 * institution (feature `rag_indexing`, no user); a search charges its caller (feature `rag_search`, as answers do).
 * When a call cannot be made (the limits are used up or cannot be checked, the provider fails after its retries),
 * embeddings are skipped: the document is indexed for full text alone, the search ranks by full text alone.
 */
import type { Principal } from "../../platform/auth/types.js";
import type { AppContext } from "../../platform/context.js";
import { AppError } from "../../platform/errors/app-error.js";
import { createOutboundClient } from "../../platform/outbound/client.js";
import { type AiDeps, type EmbeddingResult, embed } from "../ai/client.js";
import { providerFrom, type ResolvedProvider } from "../ai/provider.js";
import { findSettings } from "../ai/provider-repo.js";
import { recordCall } from "../ai-analytics/ledger.js";
import { type Caller, chargeOf, reserve, settle } from "../ai-limits/reserve.js";

export interface EmbedDeps extends AiDeps {
  ctx: AppContext;
}

/** Inputs per call of the embeddings endpoint. */
export const EMBED_BATCH = 64;
/** A chunk's text sent to be embedded, at most (an embeddings model reads a bounded input). */
export const MAX_EMBED_CHARS = 16_000;
const INPUT_OVERHEAD = 8;

/** The worker's client for providers, one per application context (a client keeps its connection pool). */
const clients = new WeakMap<AppContext, EmbedDeps>();
export function workerEmbedDeps(ctx: AppContext): EmbedDeps {
  let deps = clients.get(ctx);
  if (deps === undefined) {
    const client = createOutboundClient(ctx.config.outbound, { resolve: (name) => ctx.resolve(name) });
    deps = { ctx, client, config: ctx.config.ai };
    clients.set(ctx, deps);
  }
  return deps;
}

export const callerOf = (p: Principal): Caller =>
  p.kind === "session" ? { userId: p.userId, role: p.role } : { userId: null, role: null };

/** Unit length, so a cosine is a dot product; a zero vector stays zero (similar to nothing). */
export function unit(v: number[]): number[] {
  const norm = Math.sqrt(v.reduce((n, x) => n + x * x, 0));
  return norm === 0 ? v.map(() => 0) : v.map((x) => Math.fround(x / norm));
}

/** A real[] literal: passed as text and cast, the same on both drivers. */
export const vectorLiteral = (v: number[]) => `{${v.map((x) => (Number.isFinite(x) ? x : 0)).join(",")}}`;

interface Charge {
  tenantId: string;
  caller: Caller;
  courseId: string | null;
  feature: "rag_search" | "rag_indexing";
}

/** One embeddings call within the AI limits, settled and written to the ledger however it ends. */
async function chargedEmbed(
  deps: EmbedDeps,
  provider: ResolvedProvider,
  model: string,
  inputs: string[],
  charge: Charge,
): Promise<EmbeddingResult> {
  const db = deps.ctx.database.db;
  // A token covers at least one byte of UTF-8: the bytes bound the tokens.
  const bound = inputs.reduce((n, t) => n + Buffer.byteLength(t, "utf8") + INPUT_OVERHEAD, 0);
  const reservation = await reserve(db, charge.tenantId, charge.caller, charge.courseId, bound);
  let result: EmbeddingResult | undefined;
  try {
    result = await embed(deps, provider, model, inputs);
  } finally {
    const inputTokens = result === undefined ? 0 : result.reported ? result.inputTokens : bound;
    await db.transaction(async (tx) => {
      if (reservation !== undefined) await settle(tx, reservation, chargeOf(reservation.unit, inputTokens));
      await recordCall(tx, {
        tenantId: charge.tenantId,
        userId: charge.caller.userId,
        courseId: charge.courseId,
        promptId: null,
        feature: charge.feature,
        model: result?.model ?? model,
        outcome: result === undefined ? "failed" : "completed",
        inputTokens,
        outputTokens: 0,
      });
    });
  }
  return result;
}

/** Errors that mean "no embeddings this time"; anything else (a bug, the database) is thrown. */
const skippable = (err: unknown) =>
  err instanceof AppError &&
  ["rate_limit_exceeded", "ai_limit_unverifiable", "ai_provider_error"].includes(err.code);

/**
 * The provider and its embeddings model, when the institution has both. Without a model nothing is opened, so a
 * plain search never reads the provider's key.
 */
export async function embeddingProvider(ctx: AppContext, tenantId: string) {
  const settings = await findSettings(ctx.database.db, tenantId);
  const model = settings === undefined ? ctx.config.ai.environment?.embeddingModel : settings.embeddingModel;
  if (model == null) return undefined;
  // The row already read: the provider is opened from it, not read again.
  const provider = providerFrom(ctx, tenantId, settings);
  return provider === undefined ? undefined : { provider, model };
}

/** The chunks' unit vectors and the model, or undefined when there are to be none. */
export async function embedChunks(
  deps: EmbedDeps,
  tenantId: string,
  courseId: string | null,
  texts: string[],
): Promise<{ model: string; vectors: number[][] } | undefined> {
  if (texts.length === 0) return undefined;
  const found = await embeddingProvider(deps.ctx, tenantId);
  if (found === undefined) return undefined;
  const charge: Charge = {
    tenantId,
    caller: { userId: null, role: null },
    courseId,
    feature: "rag_indexing",
  };
  const vectors: number[][] = [];
  try {
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      const inputs = texts.slice(i, i + EMBED_BATCH).map((t) => t.slice(0, MAX_EMBED_CHARS));
      const result = await chargedEmbed(deps, found.provider, found.model, inputs, charge);
      vectors.push(...result.vectors.map(unit));
    }
  } catch (err) {
    if (skippable(err)) return undefined;
    throw err;
  }
  return { model: found.model, vectors };
}

/** The query's unit vector (one call), or undefined when it cannot be had. */
export async function embedQuery(
  deps: EmbedDeps,
  found: { provider: ResolvedProvider; model: string },
  tenantId: string,
  principal: Principal,
  courseId: string | null,
  query: string,
): Promise<number[] | undefined> {
  const charge: Charge = { tenantId, caller: callerOf(principal), courseId, feature: "rag_search" };
  try {
    const result = await chargedEmbed(deps, found.provider, found.model, [query], charge);
    return unit(result.vectors[0] as number[]);
  } catch (err) {
    if (skippable(err)) return undefined;
    throw err;
  }
}
