import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, type Env, optional, str } from "./env.js";

/** One key of the keyring; the same shape as `SecretKey` in `platform/crypto/secret-box.ts`. */
export interface EncryptionKey {
  id: string;
  key: Buffer;
}

export interface SecretsConfig {
  /**
   * Encryption at rest of secrets shown again (webhook signing secrets), for `platform/crypto/secret-box`:
   * `current` seals, and `previous` keys still open what they sealed until every value has been re-sealed.
   */
  encryptionKeys: { current: EncryptionKey; previous: EncryptionKey[] };
  /** Where the current key came from: the environment, a file generated in DATA_DIR, or memory only. */
  encryptionKeySource: "env" | "data_dir" | "ephemeral";
}

/** The file in DATA_DIR that keeps the embedded default's generated key (like `session-secret`). */
export const GENERATED_KEY_FILE = "secrets-encryption-key";

/** Same rule as secret-box's key ids, which are stored in every sealed value. */
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=?$/;
const BASE64URL_KEY = /^[A-Za-z0-9_-]{43}$/;

/**
 * 32 bytes as 64 hex characters or as base64/base64url (`openssl rand -base64 32`). The message never
 * repeats the value, since configuration errors end up in logs.
 */
function decodeKey(name: string, raw: string): Buffer {
  if (HEX_KEY.test(raw)) return Buffer.from(raw, "hex");
  const encoding = BASE64_KEY.test(raw) ? "base64" : BASE64URL_KEY.test(raw) ? "base64url" : undefined;
  if (encoding !== undefined) {
    const key = Buffer.from(raw, encoding);
    // Re-encoding catches a last character whose spare bits are set: a typo that would decode anyway.
    if (key.length === 32 && key.toString(encoding).replace(/=+$/, "") === raw.replace(/=+$/, "")) return key;
  }
  throw new ConfigError(`${name} must be 32 bytes written as 64 hex characters or as base64`);
}

/**
 * A key written without an id is named after a hash of the key, so the same key always gets the same id:
 * moving it from SECRETS_ENCRYPTION_KEY to SECRETS_ENCRYPTION_KEYS_PREVIOUS as is keeps its values opening.
 */
export function defaultKeyId(key: Buffer): string {
  return `k${createHash("sha256").update("aula secret-box key id\0").update(key).digest("hex").slice(0, 12)}`;
}

/** `key` or `id:key` (neither hex nor base64 contains `:`). */
function parseEntry(name: string, entry: string): EncryptionKey {
  const colon = entry.indexOf(":");
  if (colon === -1) {
    const key = decodeKey(name, entry);
    return { id: defaultKeyId(key), key };
  }
  const id = entry.slice(0, colon).trim();
  if (!KEY_ID.test(id)) throw new ConfigError(`${name} has a key id that is not [A-Za-z0-9_-]{1,32}`);
  return { id, key: decodeKey(name, entry.slice(colon + 1).trim()) };
}

/**
 * The embedded default keeps a generated key in DATA_DIR, so signing secrets survive restarts with zero
 * set-up; losing that file makes every stored signing secret unreadable (rotate them), exactly as losing
 * the database would. `wx` makes the first of two processes starting together win, and the second read
 * the key the first wrote, instead of each sealing with a key the other cannot open.
 */
function generatedKey(dataDir: string): Buffer {
  const file = join(dataDir, GENERATED_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return decodeKey(file, readFileSync(file, "utf8").trim());
}

export function loadSecretsConfig(env: Env, dataDir: string): SecretsConfig {
  const previous = str(env, "SECRETS_ENCRYPTION_KEYS_PREVIOUS", "")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "")
    .map((e) => parseEntry("SECRETS_ENCRYPTION_KEYS_PREVIOUS", e));

  const given = optional(env, "SECRETS_ENCRYPTION_KEY");
  let current: EncryptionKey;
  let source: SecretsConfig["encryptionKeySource"];
  if (given !== undefined) {
    current = parseEntry("SECRETS_ENCRYPTION_KEY", given.trim());
    source = "env";
  } else if (
    optional(env, "DATABASE_URL") !== undefined &&
    str(env, "NODE_ENV", "production") === "production"
  ) {
    // Several API processes and workers share the database: each generating its own key would leave
    // secrets that only the process which sealed them can open.
    throw new ConfigError("SECRETS_ENCRYPTION_KEY is required when DATABASE_URL is set in production");
  } else if (dataDir === ":memory:") {
    const key = randomBytes(32);
    current = { id: defaultKeyId(key), key };
    source = "ephemeral";
  } else {
    const key = generatedKey(dataDir);
    current = { id: defaultKeyId(key), key };
    source = "data_dir";
  }

  const ids = new Set([current.id]);
  for (const key of previous) {
    if (ids.has(key.id)) {
      throw new ConfigError(
        `SECRETS_ENCRYPTION_KEYS_PREVIOUS lists key id "${key.id}" twice or as the current key`,
      );
    }
    ids.add(key.id);
  }
  return { encryptionKeys: { current, previous }, encryptionKeySource: source };
}
