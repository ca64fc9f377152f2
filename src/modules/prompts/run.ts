/**
 * Running a prompt: the one call that goes through the provider. Render (400 before anything is spent), find the
 * provider (503 `ai_not_configured`), reserve an upper bound of the call's tokens (429 when a limit is used up),
 * call, then settle with the real usage and write the ledger in one transaction — also when the call failed.
 */
import type { Principal } from "../../platform/auth/types.js";
import type { AppContext } from "../../platform/context.js";
import { AppError } from "../../platform/errors/app-error.js";
import { type AiDeps, type ChatRequest, type ChatUsage, complete, openStream } from "../ai/client.js";
import { requireProvider } from "../ai/provider.js";
import { conversationFor, recordExchange } from "../ai-analytics/conversations.js";
import { creditsOf, recordCall } from "../ai-analytics/ledger.js";
import { MAX_MESSAGE_CHARS } from "../ai-analytics/schemas.js";
import { type Caller, chargeOf, type Reservation, reserve, settle } from "../ai-limits/reserve.js";
import { keyringOf } from "../automations/service.js";
import type { RunInput } from "./schemas.js";
import { renderPrompt } from "./service.js";

export const DEFAULT_MAX_OUTPUT_TOKENS = 1024;
/** Tokens a chat message costs beyond its text (role, framing); generous, since the estimate must bound usage. */
const MESSAGE_OVERHEAD = 16;

export interface RunDeps extends AiDeps {
  ctx: AppContext;
}

const callerOf = (p: Principal): Caller =>
  p.kind === "session" ? { userId: p.userId, role: p.role } : { userId: null, role: null };

/** A token covers at least one byte of UTF-8, so the byte count bounds the input's tokens. */
const inputBound = (text: string) => Buffer.byteLength(text, "utf8") + MESSAGE_OVERHEAD;

async function prepare(deps: RunDeps, tenantId: string, principal: Principal, id: string, input: RunInput) {
  const db = deps.ctx.database.db;
  const { prompt, version, rendered } = await renderPrompt(db, tenantId, id, input.variables);
  if (prompt.status === "archived") throw new AppError("conflict");
  // Students run what the institution made active; drafts are for staff to try.
  if (principal.kind === "session" && principal.role === "student" && prompt.status !== "active") {
    throw new AppError("forbidden");
  }
  const provider = await requireProvider(deps.ctx, tenantId);
  const model = prompt.modelParams.model ?? provider.defaultModel;
  if (!provider.models.includes(model)) {
    throw new AppError("validation_failed", {
      details: [
        {
          field: "modelParams.model",
          key: "field.model_not_offered",
          params: { models: provider.models.join(", ") },
        },
      ],
    });
  }
  const maxOutputTokens = prompt.modelParams.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const request: ChatRequest = {
    model,
    messages: [{ role: "user", content: rendered }],
    maxOutputTokens,
    ...(prompt.modelParams.temperature === undefined ? {} : { temperature: prompt.modelParams.temperature }),
  };
  const bound = inputBound(rendered) + maxOutputTokens;
  const caller = callerOf(principal);
  const conversationId = await conversationFor(db, tenantId, caller.userId, input.conversationId);
  const reservation = await reserve(db, tenantId, caller, prompt.courseId, bound);
  return { prompt, version, provider, request, rendered, bound, caller, reservation, conversationId, input };
}

type Prepared = Awaited<ReturnType<typeof prepare>>;

/**
 * Settles the reservation and writes the ledger (and, for a completed call, the conversation's two messages); a
 * usage the provider did not report is charged at the bound.
 */
async function finish(
  deps: RunDeps,
  tenantId: string,
  p: Prepared,
  usage: ChatUsage | undefined,
  answer = "",
  outcome: "completed" | "failed" = usage === undefined ? "failed" : "completed",
) {
  const tokens = usage === undefined ? 0 : usage.reported ? usage.inputTokens + usage.outputTokens : p.bound;
  const inputTokens = usage?.reported
    ? usage.inputTokens
    : usage === undefined
      ? 0
      : p.bound - p.request.maxOutputTokens;
  const outputTokens = usage?.reported
    ? usage.outputTokens
    : usage === undefined
      ? 0
      : p.request.maxOutputTokens;
  await deps.ctx.database.db.transaction(async (tx) => {
    const r: Reservation | undefined = p.reservation;
    if (r !== undefined) await settle(tx, r, chargeOf(r.unit, tokens));
    await recordCall(tx, {
      tenantId,
      userId: p.caller.userId,
      courseId: p.prompt.courseId,
      promptId: p.prompt.id,
      feature: p.prompt.feature,
      model: usage?.model ?? p.request.model,
      outcome,
      inputTokens,
      outputTokens,
    });
    if (outcome === "failed") return;
    await recordExchange(tx, keyringOf(deps.ctx.config), {
      tenantId,
      conversationId: p.conversationId,
      userId: p.caller.userId,
      courseId: p.prompt.courseId,
      lessonId: p.input.lessonId ?? null,
      feature: p.prompt.feature,
      credits: creditsOf({ inputTokens, outputTokens }),
      prompt: p.rendered,
      answer,
      question: Object.values(p.input.variables ?? {}).join("\n"),
    });
  });
  return { inputTokens, outputTokens };
}

const resultOf = (
  p: Prepared,
  model: string,
  text: string,
  u: { inputTokens: number; outputTokens: number },
) => ({
  promptId: p.prompt.id,
  conversationId: p.conversationId,
  version: p.version,
  model,
  text,
  usage: { ...u, credits: Math.ceil((u.inputTokens + u.outputTokens) / 1000) },
});

export async function runPrompt(
  deps: RunDeps,
  tenantId: string,
  principal: Principal,
  id: string,
  input: RunInput,
) {
  const p = await prepare(deps, tenantId, principal, id, input);
  let answer: Awaited<ReturnType<typeof complete>>;
  try {
    answer = await complete(deps, p.provider, p.request);
  } catch (err) {
    await finish(deps, tenantId, p, undefined);
    throw err;
  }
  const usage = await finish(deps, tenantId, p, answer, answer.text);
  return resultOf(p, answer.model, answer.text, usage);
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * What a streamed call that broke off used: as reported, nothing when no text came, otherwise the input's bound and
 * the text's bytes (a token covers at least one byte), never more than the output's bound.
 */
function partialUsage(p: Prepared, usage: ChatUsage, outputBytes: number): ChatUsage | undefined {
  if (usage.reported) return usage;
  if (outputBytes === 0) return undefined;
  return {
    model: usage.model,
    inputTokens: p.bound - p.request.maxOutputTokens,
    outputTokens: Math.min(p.request.maxOutputTokens, outputBytes),
    reported: true,
  };
}

/**
 * The same run, streamed as Server-Sent Events: `delta` events `{text}`, then `done` with the result less its
 * text, or `error` with the error envelope's code. The call is settled however the stream ends: a call that
 * breaks off — the provider failing part-way, or the client going away, which aborts the provider's request
 * (`signal`) — is charged what it used and written to the ledger as `failed`, as a streamed answer is
 * (rag/answer-stream.ts); before, it was charged nothing, and a client gone left the call running and unsettled.
 */
export async function streamPrompt(
  deps: RunDeps,
  tenantId: string,
  principal: Principal,
  id: string,
  input: RunInput,
  signal?: AbortSignal,
) {
  const p = await prepare(deps, tenantId, principal, id, input);
  let opened: Awaited<ReturnType<typeof openStream>>;
  try {
    opened = await openStream(deps, p.provider, p.request, signal);
  } catch (err) {
    await finish(deps, tenantId, p, undefined);
    throw err;
  }
  async function* events(): AsyncGenerator<string> {
    // What the conversation keeps of the answer: no more than a stored message holds.
    let answer = "";
    let bytes = 0;
    let settled = false;
    try {
      let failed = false;
      try {
        for await (const text of opened.deltas) {
          bytes += Buffer.byteLength(text, "utf8");
          if (answer.length < MAX_MESSAGE_CHARS) answer += text;
          yield sse("delta", { text });
        }
      } catch {
        failed = true;
      }
      // An aborted request ends the SDK's stream quietly: the client went away.
      failed ||= signal?.aborted === true;
      const usage = failed ? partialUsage(p, opened.usage(), bytes) : opened.usage();
      const spent = await finish(deps, tenantId, p, usage, answer, failed ? "failed" : "completed");
      settled = true;
      if (failed) yield sse("error", { error: "ai_provider_error" });
      else yield sse("done", resultOf(p, opened.usage().model, "", spent));
    } finally {
      // The client went away while an event waited to be read: the stream is closed from outside.
      if (!settled) await finish(deps, tenantId, p, partialUsage(p, opened.usage(), bytes), answer, "failed");
    }
  }
  return events();
}
