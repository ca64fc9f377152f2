/**
 * A local stand-in for an OpenAI-compatible provider (`POST /v1/chat/completions`, `POST /v1/embeddings`), on the
 * test receiver: answers with a fixed text and reported usage, streams it as Server-Sent Events when asked (slowly,
 * or failing part-way, when told), embeds texts deterministically (fakeEmbedding), and can be told to fail the next
 * requests (429 with Retry-After, 500) to exercise the client's retries. Test support only.
 */
import { afterEach } from "vitest";
import { fakeEmbedding } from "./fake-embedding.js";
import { useStarted } from "./late.js";
import { type ReceivedRequest, type ReceiverAnswer, startReceiver } from "./receiver.js";

export const FAKE_MODEL = "fake-model";
export const FAKE_KEY = "sk-fake-provider-key";
export const FAKE_ANSWER = ["Olá", ", turma!"];

export interface FakeOpenAi {
  /** The API root to configure (`…/v1`). */
  baseUrl: string;
  received: ReceivedRequest[];
  /** The next `n` calls answer `status` (with `Retry-After: retryAfter` seconds when given). */
  failNext(n: number, status: number, retryAfter?: number): void;
  /** Completion tokens the next answers report (default 5). */
  outputTokens: number;
  /** The text the next answers give (streamed a word at a time); FAKE_ANSWER when unset. */
  answer?: string;
  /** Streams send this many deltas, then an error event instead of the rest. */
  streamFailAfter?: number;
  /** Milliseconds between a stream's events. */
  streamDelayMs?: number;
  /** Streams whose client closed the connection before their end. */
  aborted: number;
  close(): Promise<void>;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ReceiverAnswer => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/**
 * The fake provider around a file's tests (started before them, closed after), its stream's pace and scripted
 * failure reset after each test, so one test's script never reaches the next.
 */
export function useFakeOpenAi(): FakeOpenAi {
  const fake = useStarted("the fake provider", startFakeOpenAi, (started) => started.close());
  afterEach(() => {
    fake.streamFailAfter = undefined;
    fake.streamDelayMs = undefined;
  });
  return fake;
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const failures: { status: number; retryAfter?: number }[] = [];
  const fake = { outputTokens: 5, aborted: 0 } as FakeOpenAi;
  const respond = (request: ReceivedRequest): ReceiverAnswer => {
    const chat = request.url.endsWith("/v1/chat/completions");
    if (request.method !== "POST" || !(chat || request.url.endsWith("/v1/embeddings"))) {
      return json(404, { error: { message: "not found" } });
    }
    if (request.headers.authorization !== `Bearer ${FAKE_KEY}`) {
      return json(401, { error: { message: "bad key", type: "invalid_request_error" } });
    }
    const failure = failures.shift();
    if (failure !== undefined) {
      const headers: Record<string, string> =
        failure.retryAfter === undefined ? {} : { "retry-after": String(failure.retryAfter) };
      return json(failure.status, { error: { message: "scripted failure" } }, headers);
    }
    if (!chat) return embeddings(request.body);
    const body = JSON.parse(request.body) as {
      model: string;
      messages: { content: string }[];
      stream?: boolean;
    };
    const promptTokens = Math.ceil(body.messages.reduce((n, m) => n + m.content.length, 0) / 4);
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: fake.outputTokens,
      total_tokens: promptTokens + fake.outputTokens,
    };
    const base = { id: "chatcmpl-fake", created: 1_790_000_000, model: body.model };
    if (body.stream === true) {
      const chunk = (delta: object, extra: object = {}) =>
        `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
      const pieces = fake.answer === undefined ? FAKE_ANSWER : fake.answer.split(/(?<= )/);
      const failAfter = fake.streamFailAfter;
      const events =
        failAfter === undefined
          ? [
              ...pieces.map((text) => chunk({ content: text })),
              `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage })}\n\n`,
              "data: [DONE]\n\n",
            ]
          : [
              ...pieces.slice(0, failAfter).map((text) => chunk({ content: text })),
              `data: ${JSON.stringify({ error: { message: "scripted mid-stream failure", type: "server_error" } })}\n\n`,
            ];
      const delay = fake.streamDelayMs ?? 0;
      async function* paced() {
        for (const e of events) {
          if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
          yield e;
        }
      }
      return {
        status: 200,
        headers: { "content-type": "text/event-stream" },
        pieces: paced(),
        onAbort: () => {
          fake.aborted += 1;
        },
      };
    }
    return json(200, {
      ...base,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: fake.answer ?? FAKE_ANSWER.join("") },
          finish_reason: "stop",
        },
      ],
      usage,
    });
  };
  const embeddings = (raw: string): ReceiverAnswer => {
    const body = JSON.parse(raw) as { model: string; input: string | string[] };
    const inputs = typeof body.input === "string" ? [body.input] : body.input;
    const tokens = Math.ceil(inputs.reduce((n, t) => n + t.length, 0) / 4);
    return json(200, {
      object: "list",
      model: body.model,
      data: inputs.map((t, index) => ({ object: "embedding", index, embedding: fakeEmbedding(t) })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  };
  const receiver = await startReceiver({ respond });
  return Object.assign(fake, {
    baseUrl: receiver.url("/v1"),
    received: receiver.received,
    failNext(n: number, status: number, retryAfter?: number) {
      for (let i = 0; i < n; i += 1)
        failures.push({ status, ...(retryAfter === undefined ? {} : { retryAfter }) });
    },
    close: () => receiver.close(),
  });
}
