/**
 * One request to the API on `fetch`: credentials, JSON in and out, and retries. A 429 or a 5xx (but 501), a
 * connection failure or a timed-out attempt is tried again up to `maxRetries` times, after `Retry-After` when
 * the answer says it, else until `X-RateLimit-Reset` when the key's window is spent, else after an exponential
 * backoff with jitter. A wait longer than `maxRetryDelayMs` is not waited: the error is thrown with its
 * `retryAfter`. Every POST carries an `Idempotency-Key` (the caller's, or a generated one), the same in each of
 * its retries, so a retried POST is applied once.
 */
import { AulaConnectionError, AulaError, rateLimitOf, retryAfterSeconds } from "./errors.js";

export interface AulaOptions {
  /** The institution's origin: `https://acme.aula.example`, or its verified custom domain. */
  baseUrl: string;
  /** An API key (`mia_…`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /**
   * A session instead of a key. In a browser, leave it out: the browser sends the session cookies itself.
   * Elsewhere, `true` keeps the cookies `auth.login` sets (and `auth.refresh` rotates), or give a `Cookie`
   * header of a session signed in elsewhere.
   */
  session?: true | string;
  /** `Accept-Language` of every request (`pt-BR`, `en-US`, `es-ES`, `fr-FR`): the language of error messages. */
  language?: string;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** The longest wait before a retry (default 60 000 ms); a longer `Retry-After` is thrown instead. */
  maxRetryDelayMs?: number;
  /**
   * One attempt's deadline until the answer's headers arrive, in ms. Default: none of the SDK's own, only the
   * `fetch`'s (Node's: 300 s without headers); a timed-out attempt is retried like a lost connection.
   */
  timeoutMs?: number;
  /** Headers added to every request. */
  headers?: Record<string, string>;
  /** The `fetch` to use (default: the global one). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

export interface Call {
  method: string;
  path: string;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  headers?: Record<string, string> | undefined;
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
}

const RETRY_BASE_MS = 500;

function queryString(query: Record<string, unknown> | undefined): string {
  if (query === undefined) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

function retryable(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export class Transport {
  readonly #options: AulaOptions;
  readonly #fetch: NonNullable<AulaOptions["fetch"]>;
  readonly #origin: string;
  /** The session's cookies by name, when the client keeps them (`session: true` or a Cookie header). */
  readonly #cookies: Map<string, string> | undefined;

  constructor(options: AulaOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#origin = options.baseUrl.replace(/\/+$/, "");
    if (options.session !== undefined) {
      this.#cookies = new Map();
      if (typeof options.session === "string") {
        for (const pair of options.session.split(";")) {
          const at = pair.indexOf("=");
          if (at > 0) this.#cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
        }
      }
    }
  }

  #headers(call: Call, idempotencyKey: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json", ...this.#options.headers };
    if (this.#options.apiKey !== undefined) headers.authorization = `Bearer ${this.#options.apiKey}`;
    if (this.#cookies !== undefined && this.#cookies.size > 0) {
      headers.cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    }
    if (this.#options.language !== undefined) headers["accept-language"] = this.#options.language;
    if (call.body !== undefined) headers["content-type"] = "application/json";
    if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
    return { ...headers, ...call.headers };
  }

  /** Keeps the cookies a response sets (sign-in, refresh) and forgets the ones it clears (sign-out). */
  #keepCookies(response: Response): void {
    if (this.#cookies === undefined) return;
    const setCookies =
      typeof response.headers.getSetCookie === "function" ? response.headers.getSetCookie() : [];
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a)) || value === "";
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  /** A signal that aborts after `ms` or with the caller's; `clear` once the answer's headers are in. */
  #deadline(ms: number, outer: AbortSignal | undefined): { signal: AbortSignal; clear: () => void } {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`timed out after ${ms} ms`)), ms);
    const forward = () => controller.abort(outer?.reason);
    outer?.addEventListener("abort", forward, { once: true });
    return {
      signal: controller.signal,
      clear: () => {
        clearTimeout(timer);
        outer?.removeEventListener("abort", forward);
      },
    };
  }

  /** How long to wait before retrying this answer, in ms; undefined when it must not be retried. */
  #delay(response: Response | undefined, attempt: number): number {
    const backoff = RETRY_BASE_MS * 2 ** attempt * (0.5 + Math.random() / 2);
    if (response === undefined) return backoff;
    const after = retryAfterSeconds(response.headers.get("retry-after"));
    if (after !== undefined) return after * 1000;
    const window = rateLimitOf(response.headers);
    if (response.status === 429 && window !== undefined && window.remaining === 0) {
      return Math.max(0, window.reset * 1000 - Date.now());
    }
    return backoff;
  }

  /** Sends the call, retrying as the module says; resolves to the 2xx (or 3xx) response, throws otherwise. */
  async send(call: Call): Promise<Response> {
    const method = call.method.toUpperCase();
    const idempotencyKey =
      method === "POST" ? (call.idempotencyKey ?? globalThis.crypto.randomUUID()) : call.idempotencyKey;
    const url = `${this.#origin}${call.path}${queryString(call.query)}`;
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const maxRetries = this.#options.maxRetries ?? 2;
    const maxDelay = this.#options.maxRetryDelayMs ?? 60_000;
    const timeoutMs = this.#options.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const deadline = timeoutMs === undefined ? undefined : this.#deadline(timeoutMs, call.signal);
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await this.#fetch(url, {
          method,
          headers: this.#headers(call, idempotencyKey),
          ...(body === undefined ? {} : { body }),
          // No signal unless one is needed: undici's fetch spends ~20 µs a request watching one.
          ...(deadline !== undefined
            ? { signal: deadline.signal }
            : call.signal
              ? { signal: call.signal }
              : {}),
        });
      } catch (err) {
        if (call.signal?.aborted) throw call.signal.reason;
        failure = err;
      } finally {
        deadline?.clear();
      }
      if (response !== undefined) {
        this.#keepCookies(response);
        if (response.ok || (response.status >= 300 && response.status < 400)) return response;
        if (!retryable(response.status) || attempt >= maxRetries) throw await errorOf(response);
      } else if (attempt >= maxRetries) {
        throw new AulaConnectionError(`${method} ${call.path}: ${(failure as Error)?.message ?? failure}`, {
          cause: failure,
        });
      }
      const delay = this.#delay(response, attempt);
      if (delay > maxDelay && response !== undefined) throw await errorOf(response);
      await response?.body?.cancel();
      await sleep(Math.min(delay, maxDelay), call.signal);
    }
  }
}

export async function errorOf(response: Response): Promise<AulaError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): the text is kept as it is.
  }
  return new AulaError(response.status, response.headers, body);
}
