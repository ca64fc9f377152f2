/**
 * Chat completions through the official `openai` SDK pointed at the provider's base URL. The SDK brings the
 * deadlines, and the retries on 429 and 5xx that wait as the provider's Retry-After says; its requests go through
 * the outbound client's `fetch`, so the socket only reaches an address the SSRF policy passed.
 */
import OpenAI from "openai";
import type { AiConfig } from "../../config/ai.js";
import { AppError } from "../../platform/errors/app-error.js";
import type { OutboundClient } from "../../platform/outbound/client.js";
import type { ResolvedProvider } from "./provider.js";

export interface ChatRequest {
  model: string;
  messages: { role: "system" | "user"; content: string }[];
  maxOutputTokens: number;
  temperature?: number;
}

export interface ChatUsage {
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** False when the provider reported no usage: the caller charges its whole reservation. */
  reported: boolean;
}

export interface ChatResult extends ChatUsage {
  text: string;
}

export interface AiDeps {
  client: OutboundClient;
  config: AiConfig;
}

function sdk(deps: AiDeps, provider: ResolvedProvider): OpenAI {
  return new OpenAI({
    apiKey: provider.apiKey,
    baseURL: provider.baseUrl,
    timeout: deps.config.timeoutMs,
    maxRetries: deps.config.maxRetries,
    fetch: deps.client.fetch,
  });
}

/** Every provider failure is one 502: its message (which may echo the key or a prompt) stays in the logs. */
function providerError(cause: unknown): AppError {
  return new AppError("ai_provider_error", { cause });
}

function body(request: ChatRequest) {
  return {
    model: request.model,
    messages: request.messages,
    max_tokens: request.maxOutputTokens,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
  };
}

export async function complete(
  deps: AiDeps,
  provider: ResolvedProvider,
  request: ChatRequest,
): Promise<ChatResult> {
  try {
    const answer = await sdk(deps, provider).chat.completions.create(body(request));
    return {
      text: answer.choices[0]?.message.content ?? "",
      model: answer.model || request.model,
      inputTokens: answer.usage?.prompt_tokens ?? 0,
      outputTokens: answer.usage?.completion_tokens ?? 0,
      reported: answer.usage !== undefined,
    };
  } catch (err) {
    throw providerError(err);
  }
}

/**
 * Opens a streamed completion (the retries happen before the first byte); `deltas` then yields the text as it
 * comes and `usage()` says what the provider reported at the end. Aborting `signal` closes the provider's
 * connection: `deltas` then ends (the SDK ends an aborted stream without an error; the caller knows it aborted).
 */
export async function openStream(
  deps: AiDeps,
  provider: ResolvedProvider,
  request: ChatRequest,
  signal?: AbortSignal,
) {
  let stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
  try {
    stream = await sdk(deps, provider).chat.completions.create(
      { ...body(request), stream: true, stream_options: { include_usage: true } },
      signal === undefined ? {} : { signal },
    );
  } catch (err) {
    throw providerError(err);
  }
  const usage: ChatUsage = { model: request.model, inputTokens: 0, outputTokens: 0, reported: false };
  async function* deltas(): AsyncGenerator<string> {
    try {
      for await (const chunk of stream) {
        if (chunk.model) usage.model = chunk.model;
        if (chunk.usage) {
          usage.inputTokens = chunk.usage.prompt_tokens;
          usage.outputTokens = chunk.usage.completion_tokens;
          usage.reported = true;
        }
        const text = chunk.choices[0]?.delta?.content;
        if (text) yield text;
      }
    } catch (err) {
      throw providerError(err);
    }
  }
  return { deltas: deltas(), usage: () => usage };
}

export interface EmbeddingResult {
  /** One vector per input, in the inputs' order. */
  vectors: number[][];
  model: string;
  /** Tokens of the inputs, as the provider reported them. */
  inputTokens: number;
  reported: boolean;
}

/** One call of the provider's embeddings endpoint for a batch of inputs (floats, not the SDK's base64 default). */
export async function embed(
  deps: AiDeps,
  provider: ResolvedProvider,
  model: string,
  inputs: string[],
): Promise<EmbeddingResult> {
  try {
    const answer = await sdk(deps, provider).embeddings.create({
      model,
      input: inputs,
      encoding_format: "float",
    });
    const byIndex = new Map(answer.data.map((item) => [item.index, item.embedding]));
    const vectors = inputs.map((_, i) => byIndex.get(i) ?? []);
    if (vectors.some((v) => v.length === 0))
      throw new Error("the provider answered no embedding for an input");
    return {
      vectors,
      model: answer.model || model,
      inputTokens: answer.usage?.prompt_tokens ?? 0,
      reported: answer.usage !== undefined,
    };
  } catch (err) {
    throw providerError(err);
  }
}
