/**
 * `answer` mode of a search: the chunks found are numbered sources of one chat completion through the
 * institution's provider, which is asked to cite them as [n]; the answer names the chunks it cited. The call goes
 * the way a prompt's run goes (prompts/run.ts): 503 `ai_not_configured` without a provider, a reservation of an
 * upper bound of its tokens against the AI limits (429 when used up), then the settlement with the real usage and
 * the ledger (feature `rag_search`) in one transaction, also when the call failed. Search without `answer` calls
 * no model and spends nothing.
 */
import type { Principal } from "../../platform/auth/types.js";
import type { AppContext } from "../../platform/context.js";
import { type AiDeps, type ChatRequest, type ChatResult, complete } from "../ai/client.js";
import { type ResolvedProvider, requireProvider } from "../ai/provider.js";
import { recordCall } from "../ai-analytics/ledger.js";
import { chargeOf, reserve, settle } from "../ai-limits/reserve.js";
import { callerOf } from "./embeddings.js";
import type { SearchResultRecord } from "./search-schemas.js";

export interface AnswerDeps extends AiDeps {
  ctx: AppContext;
}

/** What a search found (search.ts): what an answer is made from. */
export interface Found {
  data: SearchResultRecord[];
  courseId: string | null;
  rank: "text" | "hybrid";
  /** The provider the search opened for its embeddings: the answer goes through it rather than opening it again. */
  provider?: ResolvedProvider;
}

/** A question asked of what a search found, and who asks it. */
export interface Question {
  tenantId: string;
  principal: Principal;
  text: string;
  found: Found;
}

export const MAX_OUTPUT_TOKENS = 1024;
/** The sources' text sent to the model, at most: the prompt (and the reservation) stays bounded whatever topK. */
const MAX_CONTEXT_CHARS = 32_000;
const MESSAGE_OVERHEAD = 16;

const INSTRUCTIONS =
  "Answer the question using only the numbered sources below, in the language of the question. Cite every " +
  "source you use with its number in square brackets, like [1]. If the sources do not hold the answer, say so.";

/** The numbered sources, cut to MAX_CONTEXT_CHARS; answers the text and how many sources it holds. */
function sourcesOf(results: SearchResultRecord[]): { text: string; count: number } {
  const parts: string[] = [];
  let used = 0;
  for (const [i, r] of results.entries()) {
    const room = MAX_CONTEXT_CHARS - used;
    if (room <= 0) break;
    const part = `[${i + 1}] ${r.citation.title}\n${r.text.slice(0, room)}`;
    parts.push(part);
    used += part.length;
  }
  return { text: parts.join("\n\n"), count: parts.length };
}

/** The sources the answer cites, by their [n] markers, in the order first cited. */
export function citedIndexes(text: string, count: number): number[] {
  const cited: number[] = [];
  for (const m of text.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(m[1]);
    if (n >= 1 && n <= count && !cited.includes(n)) cited.push(n);
  }
  return cited;
}

/** The request, its bound and the reservation: what both the plain and the streamed answer start with. */
export async function prepareAnswer(deps: AnswerDeps, q: Question) {
  const { tenantId, found } = q;
  const { courseId, data: results } = found;
  const provider = found.provider ?? (await requireProvider(deps.ctx, tenantId));
  const sources = sourcesOf(results);
  const request: ChatRequest = {
    model: provider.defaultModel,
    messages: [
      { role: "system", content: INSTRUCTIONS },
      { role: "user", content: `Sources:\n\n${sources.text}\n\nQuestion: ${q.text}` },
    ],
    maxOutputTokens: MAX_OUTPUT_TOKENS,
  };
  // A token covers at least one byte of UTF-8: the bytes bound the input's tokens.
  const inputBound = request.messages.reduce(
    (n, m) => n + Buffer.byteLength(m.content, "utf8") + MESSAGE_OVERHEAD,
    0,
  );
  const caller = callerOf(q.principal);
  const reservation = await reserve(
    deps.ctx.database.db,
    tenantId,
    caller,
    courseId,
    inputBound + MAX_OUTPUT_TOKENS,
  );
  return { tenantId, courseId, provider, sources, request, inputBound, caller, reservation, results };
}

export type PreparedAnswer = Awaited<ReturnType<typeof prepareAnswer>>;

export interface AnswerUsage {
  model: string;
  inputTokens: number;
  outputTokens: number;
}

/** Settles the reservation with `usage` (nothing for a failed call) and writes the ledger, in one transaction. */
export async function settleAnswer(
  deps: AnswerDeps,
  p: PreparedAnswer,
  usage: AnswerUsage | undefined,
  outcome: "completed" | "failed",
) {
  const inputTokens = usage?.inputTokens ?? 0;
  const outputTokens = usage?.outputTokens ?? 0;
  await deps.ctx.database.db.transaction(async (tx) => {
    const r = p.reservation;
    if (r !== undefined) await settle(tx, r, chargeOf(r.unit, inputTokens + outputTokens));
    await recordCall(tx, {
      tenantId: p.tenantId,
      userId: p.caller.userId,
      courseId: p.courseId,
      promptId: null,
      feature: "rag_search",
      model: usage?.model ?? p.request.model,
      outcome,
      inputTokens,
      outputTokens,
    });
  });
  return { inputTokens, outputTokens, credits: Math.ceil((inputTokens + outputTokens) / 1000) };
}

/** What a completed call used: as reported, or at the bound when the provider reported nothing. */
export const usageOf = (p: PreparedAnswer, u: Omit<ChatResult, "text">): AnswerUsage => ({
  model: u.model,
  inputTokens: u.reported ? u.inputTokens : p.inputBound,
  outputTokens: u.reported ? u.outputTokens : MAX_OUTPUT_TOKENS,
});

/** The results the answer's [n] markers cite. */
export function citationsOf(p: PreparedAnswer, text: string) {
  return citedIndexes(text, p.sources.count).map((n) => {
    const r = p.results[n - 1] as SearchResultRecord;
    return { source: n, chunkId: r.chunkId, documentId: r.documentId, ...r.citation };
  });
}

export async function answerFrom(deps: AnswerDeps, q: Question) {
  const p = await prepareAnswer(deps, q);
  let answer: ChatResult;
  try {
    answer = await complete(deps, p.provider, p.request);
  } catch (err) {
    await settleAnswer(deps, p, undefined, "failed");
    throw err;
  }
  const usage = await settleAnswer(deps, p, usageOf(p, answer), "completed");
  return { text: answer.text, model: answer.model, citations: citationsOf(p, answer.text), usage };
}
