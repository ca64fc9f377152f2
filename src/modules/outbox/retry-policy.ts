/**
 * What one attempt's result means for its delivery: the facts the log keeps (outcome, status, a response excerpt,
 * the error) and the retry policy's decision. Pure: record.ts writes what these decide.
 *
 * The retry policy (CONTRACT "Automations and webhooks", issue "Deliveries"):
 * - 2xx: succeeded. Anything else is a failed attempt, 3xx included: redirects are never followed (SSRF, and a
 *   307/308 would replay the signed body elsewhere), and a receiver that answers one has not taken the event.
 * - 410 Gone: the receiver says the endpoint is gone for good; the delivery fails and the automation is
 *   disabled with a reason (re-enabling it clears the reason).
 * - `invalid` (the stored request cannot be sent as is: a header the client refuses): fails at once, since
 *   sending the same bytes again cannot help. (A signing secret the keyring cannot open is not the
 *   receiver's failure and makes no attempt: see `releaseClaim` in record.ts.)
 * - Everything else (network errors, timeouts, other non-2xx, `blocked`) is retried along
 *   WEBHOOK_RETRY_SCHEDULE: after attempt n the next one is due `schedule[n-1]` seconds later, so a delivery
 *   gets `schedule.length + 1` attempts in all, then fails ("exhausted"). A 429 or 503 with a usable
 *   `Retry-After` (seconds or an HTTP date) waits at least that long, at most 24 hours.
 * - `blocked` (every answer for the host, or the host itself, is not allowed) is a failed attempt that sent
 *   nothing, and it is retried like a network error rather than failing the delivery: the refusal happens at
 *   connect time on that attempt's DNS answer, which can change back (a DNS mistake fixed, a rebinding attempt
 *   that flips to and fro), and each retry is checked afresh, so retrying never reaches a forbidden address.
 *   The schedule bounds how often it is tried, and the blocked message names no address (no oracle).
 *
 */
import type { OutboundResult } from "../../platform/outbound/client.js";
import { RESPONSE_EXCERPT_BYTES } from "./send.js";

export type AttemptOutcome = "succeeded" | "http_error" | "timeout" | "network" | "blocked" | "invalid";

/** Longest `Retry-After` honoured; a longer one waits this long. */
export const MAX_RETRY_AFTER_SECONDS = 24 * 3600;
const MAX_ERROR_CHARS = 1024;

export interface AttemptFacts {
  outcome: AttemptOutcome;
  statusCode: number | null;
  /** At most RESPONSE_EXCERPT_BYTES of UTF-8; null when the receiver sent no body (or never answered). */
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
  /** From `Retry-After` on a 429 or 503, in seconds from now. */
  retryAfterSeconds: number | null;
}

export type Decision =
  | { status: "succeeded" }
  | { status: "pending"; delaySeconds: number }
  | { status: "failed"; why: "gone" | "invalid" | "redirect" | "exhausted" };

/** PostgreSQL text cannot hold NUL; a receiver's bytes must not be able to make the log write fail. */
function clean(text: string): string {
  return text.replaceAll("\u0000", "");
}

/** Cuts at a character boundary so that the excerpt stays valid UTF-8 within `maxBytes`. */
export function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Back off continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

/** `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text);
  // Date.parse reads all three HTTP date forms; requiring a letter keeps bare numbers of other shapes out.
  if (!/[A-Za-z]/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** Whether the receiver took the delivery: a 2xx answer. */
export function succeeded(result: OutboundResult): boolean {
  return result.ok && result.status >= 200 && result.status < 300;
}

export function describeAttempt(result: OutboundResult, nowMs = Date.now()): AttemptFacts {
  if (!result.ok) {
    return {
      outcome: result.kind,
      statusCode: null,
      responseExcerpt: null,
      error: clean(result.message).slice(0, MAX_ERROR_CHARS),
      durationMs: result.durationMs,
      retryAfterSeconds: null,
    };
  }
  const excerpt = truncateUtf8(clean(result.body), RESPONSE_EXCERPT_BYTES);
  const success = succeeded(result);
  return {
    outcome: success ? "succeeded" : "http_error",
    statusCode: result.status,
    responseExcerpt: excerpt === "" ? null : excerpt,
    error: null,
    durationMs: result.durationMs,
    retryAfterSeconds:
      result.status === 429 || result.status === 503
        ? parseRetryAfter(result.headers["retry-after"], nowMs)
        : null,
  };
}

/** The retry policy above, for attempt number `attempt` (1-based). */
export function decide(facts: AttemptFacts, attempt: number, schedule: readonly number[]): Decision {
  if (facts.outcome === "succeeded") return { status: "succeeded" };
  if (facts.statusCode === 410) return { status: "failed", why: "gone" };
  if (facts.outcome === "invalid") return { status: "failed", why: "invalid" };
  // Redirects are never followed (a 307/308 would replay the signed body elsewhere), so asking again cannot
  // succeed: the delivery fails at once (SECURITY.md API7.4), and the log shows the status and Location.
  if (facts.statusCode !== null && facts.statusCode >= 300 && facts.statusCode < 400) {
    return { status: "failed", why: "redirect" };
  }
  const planned = schedule[attempt - 1];
  if (planned === undefined) return { status: "failed", why: "exhausted" };
  const asked = facts.retryAfterSeconds;
  const delaySeconds = asked === null ? planned : Math.max(planned, Math.min(asked, MAX_RETRY_AFTER_SECONDS));
  return { status: "pending", delaySeconds };
}
