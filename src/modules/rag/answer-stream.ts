/**
 * `answer` mode streamed (`stream: true`) as Server-Sent Events: `results` `{rank, data}` (what the answer's [n]
 * refer to), `delta` `{text}` as the provider writes, then `done` (the answer less its text: model, citations,
 * usage; null when nothing was found and no model was called) or `error` `{error}`. Everything that can refuse the
 * call — no provider, a used-up limit, a provider failing before its first byte — is refused before the stream
 * starts, as the plain answer is. The reservation and the settlement are the plain answer's (answer.ts): a call
 * that ends settles its reported usage exactly as it would unstreamed. A call that breaks off — the provider
 * failing part-way, or the client going away, which aborts the provider's request — settles what it used:
 * nothing when no text came, otherwise the input's bound and the text's bytes (a token covers at least one byte)
 * unless the provider had reported its usage, written to the ledger as `failed`.
 */
import { type ChatUsage, openStream } from "../ai/client.js";
import {
  type AnswerDeps,
  type AnswerUsage,
  citationsOf,
  MAX_OUTPUT_TOKENS,
  type PreparedAnswer,
  prepareAnswer,
  type Question,
  settleAnswer,
  usageOf,
} from "./answer.js";

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** What a call that broke off used. */
function partialUsage(p: PreparedAnswer, usage: ChatUsage, text: string): AnswerUsage | undefined {
  if (usage.reported) return usageOf(p, usage);
  if (text === "") return undefined;
  return {
    model: usage.model,
    inputTokens: p.inputBound,
    outputTokens: Math.min(MAX_OUTPUT_TOKENS, Buffer.byteLength(text, "utf8")),
  };
}

export async function streamAnswer(
  deps: AnswerDeps,
  q: Question,
  signal: AbortSignal,
): Promise<AsyncGenerator<string>> {
  const { found } = q;
  const head = sse("results", { rank: found.rank, data: found.data });
  if (found.data.length === 0) {
    return (async function* () {
      yield head;
      yield sse("done", null);
    })();
  }
  const p = await prepareAnswer(deps, q);
  let opened: Awaited<ReturnType<typeof openStream>>;
  try {
    opened = await openStream(deps, p.provider, p.request, signal);
  } catch (err) {
    await settleAnswer(deps, p, undefined, "failed");
    throw err;
  }
  async function* events(): AsyncGenerator<string> {
    let text = "";
    let settled = false;
    try {
      yield head;
      let failed = false;
      try {
        for await (const delta of opened.deltas) {
          text += delta;
          yield sse("delta", { text: delta });
        }
      } catch {
        failed = true;
      }
      // An aborted request ends the SDK's stream quietly: the client went away.
      failed ||= signal.aborted;
      const usage = failed ? partialUsage(p, opened.usage(), text) : usageOf(p, opened.usage());
      const spent = await settleAnswer(deps, p, usage, failed ? "failed" : "completed");
      settled = true;
      if (failed) yield sse("error", { error: "ai_provider_error" });
      else yield sse("done", { model: opened.usage().model, citations: citationsOf(p, text), usage: spent });
    } finally {
      // The client went away while an event waited to be read: the stream is closed from outside.
      if (!settled) await settleAnswer(deps, p, partialUsage(p, opened.usage(), text), "failed");
    }
  }
  return events();
}
