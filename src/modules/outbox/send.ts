/**
 * One attempt of one delivery: open the automation's secret, sign the stored body per Standard Webhooks with
 * the `standardwebhooks` library (the reference implementation receivers verify with), and POST it through the
 * OutboundClient, which owns the SSRF checks, the deadline, the no-redirect rule and the response cap.
 *
 * Every attempt sends the same bytes under the same `webhook-id` (the delivery id), signed afresh with the
 * current time and the automation's current secret (a rotated secret applies to pending retries too).
 */
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { Config } from "../../config/index.js";
import { createKeyring, type Keyring, openSecret, SecretBoxError } from "../../platform/crypto/secret-box.js";
import type { OutboundClient, OutboundFailure, OutboundResult } from "../../platform/outbound/client.js";
import type { ClaimedDelivery } from "./claim.js";

export const USER_AGENT = "Aula-Webhooks/1";

/** Only this much of a receiver's answer is read: it is all the attempt log keeps (retry-policy.ts). */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * The context an automation's signing secret is sealed under (automations service) and opened under (here): a
 * sealed secret copied to another row does not open there.
 */
export const secretContext = (automationId: string) => `automation:${automationId}`;

/** The keyring signing secrets are sealed and opened with: the configured key and the previous ones. */
export function keyringOf(config: Config): Keyring {
  const { current, previous } = config.secrets.encryptionKeys;
  return createKeyring(current, previous);
}

/**
 * HMAC keys by secret. Each secret is checked once by the `standardwebhooks` library (which refuses one that is not
 * `whsec_` + base64), and the signature is then computed by Node's native HMAC: the library's is pure JavaScript,
 * about a sixth of a busy worker's CPU. The two produce the same bytes (send.test.ts checks it against the library,
 * and every test receiver verifies with the library).
 */
const keys = new Map<string, Buffer>();
const MAX_KEYS = 10_000;

function keyFor(secret: string): Buffer {
  let key = keys.get(secret);
  if (key === undefined) {
    new Webhook(secret); // throws for a secret the scheme does not accept
    key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
    if (keys.size >= MAX_KEYS) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/** `webhook-signature` per Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `<id>.<unix seconds>.<body>`. */
export function sign(secret: string, id: string, timestamp: Date, body: string): string {
  const seconds = Math.floor(timestamp.getTime() / 1000);
  return `v1,${createHmac("sha256", keyFor(secret)).update(`${id}.${seconds}.${body}`).digest("base64")}`;
}

export type SignedHeaders = { ok: true; headers: Record<string, string> } | { ok: false; message: string };

/**
 * The request headers of an attempt: the delivery's stored headers (already rendered by the fan-out), then the
 * ones the platform owns, which win whatever the stored ones say in whatever case: the three Standard Webhooks
 * headers, `content-type` (the body is JSON) and `user-agent`. The OutboundClient still refuses framing headers
 * and control characters (outcome `invalid`).
 */
export function signedHeaders(
  delivery: Pick<ClaimedDelivery, "id" | "headers" | "body">,
  secret: string,
  timestamp: Date,
): SignedHeaders {
  const stored = delivery.headers ?? {};
  if (typeof stored !== "object" || Array.isArray(stored)) {
    return { ok: false, message: "stored headers are not an object" };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(stored)) {
    if (typeof value !== "string") return { ok: false, message: `header "${name}" is not a string` };
    headers[name.toLowerCase()] = value;
  }
  let signature: string;
  try {
    signature = sign(secret, delivery.id, timestamp, delivery.body);
  } catch {
    // Only a secret that is not `whsec_` + base64 gets here; never echo it.
    return { ok: false, message: "the signing secret is not usable" };
  }
  return {
    ok: true,
    headers: {
      ...headers,
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      "webhook-id": delivery.id,
      "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
      "webhook-signature": signature,
    },
  };
}

export type OpenedSecret = { ok: true; secret: string } | { ok: false; code: string };

/**
 * The automation's `whsec_` secret. Failing here is the server's problem, not the receiver's (a keyring that
 * lost the key the secret was sealed with), so the worker puts the delivery back rather than failing it.
 */
export function openSigningSecret(
  delivery: Pick<ClaimedDelivery, "automationId" | "signingSecret">,
  keyring: Keyring,
): OpenedSecret {
  try {
    return {
      ok: true,
      secret: openSecret(delivery.signingSecret, keyring, secretContext(delivery.automationId)),
    };
  } catch (err) {
    // The code names no key material.
    return { ok: false, code: err instanceof SecretBoxError ? err.code : "unknown" };
  }
}

export interface SendOptions {
  timeoutMs: number;
  /** `webhook-timestamp`; now by default. */
  timestamp?: Date;
}

/** Makes the attempt. Never throws: every way it can go wrong is an OutboundResult for record.ts. */
export async function sendDelivery(
  client: OutboundClient,
  delivery: ClaimedDelivery,
  secret: string,
  options: SendOptions,
): Promise<OutboundResult> {
  const signed = signedHeaders(delivery, secret, options.timestamp ?? new Date());
  if (!signed.ok) {
    const failure: OutboundFailure = { ok: false, kind: "invalid", message: signed.message, durationMs: 0 };
    return failure;
  }
  return client.postJson(delivery.url, {
    headers: signed.headers,
    body: delivery.body,
    timeoutMs: options.timeoutMs,
    maxResponseBytes: RESPONSE_EXCERPT_BYTES,
  });
}
