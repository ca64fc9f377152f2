/**
 * Encryption at rest for secrets that must be shown or used again (webhook signing secrets `whsec_…`):
 * DESIGN "signing secrets that must be shown again are encrypted at rest with a key from configuration".
 *
 * Sealed form: `v1:<keyId>:<iv>:<ciphertext+tag>`, both binary parts unpadded base64url.
 * - v1 is AES-256-GCM with a random 96-bit IV (NIST SP 800-38D's recommended size; random IVs are safe for
 *   far more than the 2^32 seals per key a platform of signing secrets will ever make) and a 128-bit tag.
 * - The key id travels with the ciphertext so that a keyring can rotate: new seals use `current`, and
 *   anything sealed under a key still listed in `previous` keeps opening. `needsReseal` tells a caller
 *   (or a migration job) which stored values to re-seal before an old key is dropped.
 * - The version and key id are authenticated (GCM additional data), and so is the optional `context`:
 *   passing e.g. `automation:<id>` binds a sealed value to its row, so a value copied into another row
 *   does not open there.
 * - Decoding is strict (canonical base64url, exact lengths), so every change to the sealed text, even in
 *   the spare bits of the last base64 character, is refused rather than silently decoding to the same bytes.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

export interface SecretKey {
  /** Short label stored with every value it seals; `[A-Za-z0-9_-]{1,32}`. */
  id: string;
  /** 32 bytes. */
  key: Uint8Array;
}

export interface Keyring {
  current: SecretKey;
  /** Keys retired from `current` whose sealed values may still be in storage. */
  previous: readonly SecretKey[];
}

export type SecretBoxFailure =
  | "malformed"
  | "unsupported_version"
  | "unknown_key"
  | "authentication_failed"
  | "invalid_key"
  | "invalid_plaintext";

/** Never carries key or plaintext material: the message names only the failure and, at most, a key id. */
export class SecretBoxError extends Error {
  readonly code: SecretBoxFailure;

  constructor(code: SecretBoxFailure, message: string) {
    super(message);
    this.name = "SecretBoxError";
    this.code = code;
  }
}

const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const LONE_SURROGATE = /\p{Surrogate}/u;

function checkKey(key: SecretKey): void {
  if (!KEY_ID_PATTERN.test(key.id))
    throw new SecretBoxError("invalid_key", "key id must match [A-Za-z0-9_-]{1,32}");
  if (key.key.length !== KEY_BYTES) {
    throw new SecretBoxError("invalid_key", `key "${key.id}" must be ${KEY_BYTES} bytes`);
  }
}

/** Validates a keyring once (configuration does this at start) and returns it. */
export function createKeyring(current: SecretKey, previous: readonly SecretKey[] = []): Keyring {
  const ids = new Set<string>();
  for (const key of [current, ...previous]) {
    checkKey(key);
    if (ids.has(key.id)) throw new SecretBoxError("invalid_key", `key id "${key.id}" is listed twice`);
    ids.add(key.id);
  }
  return { current, previous: [...previous] };
}

function additionalData(keyId: string, context: string): Buffer {
  // Length-prefixed so that no (keyId, context) pair can be read as another.
  return Buffer.from(`${VERSION}:${keyId.length}:${keyId}:${context}`, "utf8");
}

/** Encrypts `plaintext` under the keyring's current key. */
export function sealSecret(plaintext: string, keyring: Keyring, context = ""): string {
  const { id, key } = keyring.current;
  checkKey(keyring.current);
  // UTF-8 cannot carry a lone surrogate: it would open as U+FFFD, a different secret than the one sealed.
  if (LONE_SURROGATE.test(plaintext)) {
    throw new SecretBoxError("invalid_plaintext", "plaintext is not well-formed Unicode");
  }
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(id, context));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return [VERSION, id, iv.toString("base64url"), body.toString("base64url")].join(":");
}

/** Node's base64url decoder skips characters it does not know; this one refuses anything non-canonical. */
function decodeStrict(text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : undefined;
}

interface SealedParts {
  keyId: string;
  iv: Buffer;
  body: Buffer;
}

function parse(sealed: string): SealedParts {
  const parts = sealed.split(":");
  if (parts[0] !== VERSION) {
    throw new SecretBoxError(
      parts.length === 4 && /^v\d+$/.test(parts[0] ?? "") ? "unsupported_version" : "malformed",
      "sealed secret has an unknown format or version",
    );
  }
  if (parts.length !== 4) throw new SecretBoxError("malformed", "sealed secret is malformed");
  const [, keyId, ivText, bodyText] = parts as [string, string, string, string];
  const iv = decodeStrict(ivText);
  const body = decodeStrict(bodyText);
  if (
    !KEY_ID_PATTERN.test(keyId) ||
    iv?.length !== IV_BYTES ||
    body === undefined ||
    body.length < TAG_BYTES
  ) {
    throw new SecretBoxError("malformed", "sealed secret is malformed");
  }
  return { keyId, iv, body };
}

function findKey(keyring: Keyring, keyId: string): SecretKey | undefined {
  if (keyring.current.id === keyId) return keyring.current;
  return keyring.previous.find((k) => k.id === keyId);
}

/**
 * Decrypts a value sealed by `sealSecret` with any key of the keyring. Throws `SecretBoxError` when the
 * text was altered, the key is not in the keyring, the key is wrong, or `context` differs from the seal's.
 */
export function openSecret(sealed: string, keyring: Keyring, context = ""): string {
  const { keyId, iv, body } = parse(sealed);
  const key = findKey(keyring, keyId);
  if (key === undefined) throw new SecretBoxError("unknown_key", `no key "${keyId}" in the keyring`);
  checkKey(key);
  const decipher = createDecipheriv(ALGORITHM, key.key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(additionalData(keyId, context));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SecretBoxError("authentication_failed", "sealed secret does not authenticate under its key");
  }
  // `fatal` so that bytes which are not UTF-8 fail loudly (they cannot come from sealSecret); `ignoreBOM`
  // so that a leading U+FEFF is returned as sealed instead of being swallowed.
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(plain);
  } catch {
    throw new SecretBoxError("malformed", "sealed secret is not UTF-8 text");
  }
}

/** True when `sealed` was sealed under a key other than the current one (so re-seal it while it still opens). */
export function needsReseal(sealed: string, keyring: Keyring): boolean {
  return parse(sealed).keyId !== keyring.current.id;
}
