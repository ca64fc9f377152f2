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
import { requireProvider } from "../ai/provider.js";
import { recordCall } from "../ai-analytics/ledger.js";
import { type Caller, chargeOf, reserve, settle } from "../ai-limits/reserve.js";
import type { SearchResultRecord } from "./search-schemas.js";

export interface AnswerDeps extends AiDeps {
  ctx: AppContext;
}

const MAX_OUTPUT_TOKENS = 1024;
/** The sources' text sent to the model, at most: the prompt (and the reservation) stays bounded whatever topK. */
const MAX_CONTEXT_CHARS = 32_000;
const MESSAGE_OVERHEAD = 16;

const INSTRUCTIONS =
  "Answer the question using only the numbered sources below, in the language of the question. Cite every " +
  "source you use with its number in square brackets, like [1]. If the sources do not hold the answer, say so.";

const callerOf = (p: Principal): Caller =>
  p.kind === "session" ? { userId: p.userId, role: p.role } : { userId: null, role: null };

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

export async function answerFrom(
  deps: AnswerDeps,
  tenantId: string,
  principal: Principal,
  courseId: string | null,
  question: string,
  results: SearchResultRecord[],
) {
  const db = deps.ctx.database.db;
  const provider = await requireProvider(deps.ctx, tenantId);
  const sources = sourcesOf(results);
  const request: ChatRequest = {
    model: provider.defaultModel,
    messages: [
      { role: "system", content: INSTRUCTIONS },
      { role: "user", content: `Sources:\n\n${sources.text}\n\nQuestion: ${question}` },
    ],
    maxOutputTokens: MAX_OUTPUT_TOKENS,
  };
  // A token covers at least one byte of UTF-8: the bytes bound the input's tokens.
  const bound =
    request.messages.reduce((n, m) => n + Buffer.byteLength(m.content, "utf8") + MESSAGE_OVERHEAD, 0) +
    MAX_OUTPUT_TOKENS;
  const caller = callerOf(principal);
  const reservation = await reserve(db, tenantId, caller, courseId, bound);
  let answer: ChatResult | undefined;
  try {
    answer = await complete(deps, provider, request);
  } finally {
    const reported = answer?.reported === true;
    const inputTokens = answer === undefined ? 0 : reported ? answer.inputTokens : bound - MAX_OUTPUT_TOKENS;
    const outputTokens = answer === undefined ? 0 : reported ? answer.outputTokens : MAX_OUTPUT_TOKENS;
    await db.transaction(async (tx) => {
      if (reservation !== undefined) {
        await settle(tx, reservation, chargeOf(reservation.unit, inputTokens + outputTokens));
      }
      await recordCall(tx, {
        tenantId,
        userId: caller.userId,
        courseId,
        promptId: null,
        feature: "rag_search",
        model: answer?.model ?? request.model,
        outcome: answer === undefined ? "failed" : "completed",
        inputTokens,
        outputTokens,
      });
    });
  }
  const cited = citedIndexes(answer.text, sources.count);
  const usage = {
    inputTokens: answer.reported ? answer.inputTokens : bound - MAX_OUTPUT_TOKENS,
    outputTokens: answer.reported ? answer.outputTokens : MAX_OUTPUT_TOKENS,
  };
  return {
    text: answer.text,
    model: answer.model,
    citations: cited.map((n) => {
      const r = results[n - 1] as SearchResultRecord;
      return { source: n, chunkId: r.chunkId, documentId: r.documentId, ...r.citation };
    }),
    usage: { ...usage, credits: Math.ceil((usage.inputTokens + usage.outputTokens) / 1000) },
  };
}
