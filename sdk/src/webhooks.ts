/**
 * Receiving webhooks: the Standard Webhooks signature checked with the endpoint's (or automation's) `whsec_`
 * secret over the raw body, the timestamp within a tolerance, then the body parsed as the event its `type`
 * names. Web Crypto only (Node ≥ 20, Deno, Bun, browsers, edge runtimes); the HMAC comparison is the
 * platform's constant-time `verify`.
 */
import { EVENT_TYPES } from "./generated/operations.js";
import type { WebhookEvent } from "./operation-types.js";

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

/** The request headers, as a `Headers` or a plain object (Node's `IncomingHttpHeaders`, Express's `req.headers`). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from this clock (default 300 s): older copies are replays. */
  toleranceSeconds?: number;
  /** The clock, in ms (default `Date.now()`). */
  now?: number;
}

function header(headers: WebhookHeaders, name: string): string {
  const value =
    headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
  const one = Array.isArray(value) ? value[0] : value;
  if (typeof one !== "string" || one === "") throw new WebhookVerificationError(`missing ${name} header`);
  return one;
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function hmacKey(secret: string) {
  let raw: Uint8Array<ArrayBuffer>;
  try {
    raw = base64ToBytes(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
  } catch {
    throw new WebhookVerificationError("the secret is not whsec_ followed by base64");
  }
  return globalThis.crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
}

/**
 * Checks the delivery's signature and returns the raw body it signs. Use it for an automation whose `body`
 * template makes a payload of its own; `verifyWebhook` for the events themselves. `payload` must be the body
 * exactly as received (not re-serialised JSON). Several secrets may be given during a rotation.
 */
export async function verifyWebhookSignature(
  payload: string,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<string> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("webhook-timestamp is not Unix seconds");
  const now = (options.now ?? Date.now()) / 1000;
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - seconds) > tolerance) {
    throw new WebhookVerificationError(
      "webhook-timestamp is outside the tolerance (a replay, or a clock off)",
    );
  }
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${payload}`);
  const candidates = signatures
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => s.slice(3));
  for (const one of typeof secret === "string" ? [secret] : secret) {
    const key = await hmacKey(one);
    for (const candidate of candidates) {
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = base64ToBytes(candidate);
      } catch {
        continue;
      }
      if (await globalThis.crypto.subtle.verify("HMAC", key, bytes, signed)) return payload;
    }
  }
  throw new WebhookVerificationError("no signature matches");
}

/** Whether `type` is one this SDK has a schema for (events added to the API later are not). */
export function isKnownEventType(type: string): type is WebhookEvent["type"] {
  return (EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * Verifies a delivery and returns its event, typed by `type`: `switch (event.type) { case "course_created": … }`.
 * An event of a type newer than this SDK still verifies; check `isKnownEventType` before relying on its shape.
 */
export async function verifyWebhook(
  payload: string,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const body = await verifyWebhookSignature(payload, headers, secret, options);
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    throw new WebhookVerificationError("the body is not JSON");
  }
  const e = event as Partial<Record<"id" | "type" | "timestamp", unknown>> & { data?: unknown };
  if (typeof e !== "object" || e === null || typeof e.type !== "string" || typeof e.id !== "string") {
    throw new WebhookVerificationError("the body is not an event ({id, type, timestamp, data})");
  }
  return event as WebhookEvent;
}
