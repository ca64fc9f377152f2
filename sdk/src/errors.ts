import type { ErrorCode } from "./operation-types.js";

export interface ErrorDetail {
  field: string;
  message: string;
}

/** The window the `X-RateLimit-*` headers describe (the one of the key's two with fewer requests left). */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** Unix seconds when that window frees requests again. */
  reset: number;
}

/** `X-RateLimit-*` of a response, when all three are there. */
export function rateLimitOf(headers: Headers): RateLimit | undefined {
  const limit = Number(headers.get("x-ratelimit-limit") ?? Number.NaN);
  const remaining = Number(headers.get("x-ratelimit-remaining") ?? Number.NaN);
  const reset = Number(headers.get("x-ratelimit-reset") ?? Number.NaN);
  return [limit, remaining, reset].every(Number.isFinite) ? { limit, remaining, reset } : undefined;
}

/**
 * An answer of the API outside 2xx, in its error envelope: `code` (the documented `error` code, or another
 * string from a newer server), the localised `message`, `details` per field, the `X-Request-Id` to quote to
 * support, and `retryAfter` (seconds) when the API says when to come back.
 */
export class AulaError extends Error {
  override readonly name = "AulaError";
  readonly status: number;
  readonly code: ErrorCode | (string & {});
  readonly details: ErrorDetail[];
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;
  readonly rateLimit: RateLimit | undefined;
  readonly headers: Headers;
  /** The parsed body (or its text, when it was not JSON). */
  readonly body: unknown;

  constructor(status: number, headers: Headers, body: unknown) {
    const envelope = (typeof body === "object" && body !== null ? body : {}) as {
      error?: unknown;
      message?: unknown;
      details?: unknown;
      retryAfter?: unknown;
    };
    const code = typeof envelope.error === "string" ? envelope.error : `http_${status}`;
    const message = typeof envelope.message === "string" ? envelope.message : `HTTP ${status}`;
    super(`${code}: ${message}`);
    this.status = status;
    this.code = code;
    this.details = Array.isArray(envelope.details) ? (envelope.details as ErrorDetail[]) : [];
    this.requestId = headers.get("x-request-id") ?? undefined;
    this.retryAfter =
      typeof envelope.retryAfter === "number"
        ? envelope.retryAfter
        : retryAfterSeconds(headers.get("retry-after"));
    this.rateLimit = rateLimitOf(headers);
    this.headers = headers;
    this.body = body;
  }
}

/** The request never got an answer: the connection failed or the attempt timed out (after any retries). */
export class AulaConnectionError extends Error {
  override readonly name = "AulaConnectionError";
}

export function isAulaError(value: unknown): value is AulaError {
  return value instanceof AulaError;
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
