import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../config/env.js";
import { defaultKeyId, GENERATED_KEY_FILE, loadSecretsConfig } from "../../config/secrets.js";
import {
  createKeyring,
  type Keyring,
  needsReseal,
  openSecret,
  SecretBoxError,
  type SecretBoxFailure,
  sealSecret,
} from "./secret-box.js";

const key = (id: string) => ({ id, key: randomBytes(32) });
const ring = (current = key("k1"), previous: { id: string; key: Buffer }[] = []): Keyring =>
  createKeyring(current, previous);

const SECRET = `whsec_${randomBytes(24).toString("base64")}`;

function failure(fn: () => unknown): SecretBoxFailure | "no error" {
  try {
    fn();
    return "no error";
  } catch (err) {
    if (err instanceof SecretBoxError) return err.code;
    throw err;
  }
}

describe("sealSecret / openSecret", () => {
  const keyring = ring();

  it("round-trips any text, in the documented format", () => {
    const sealed = sealSecret(SECRET, keyring);
    expect(sealed).toMatch(/^v1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(openSecret(sealed, keyring)).toBe(SECRET);
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(openSecret(sealSecret(text, keyring), keyring)).toBe(text);
      }),
    );
    expect(openSecret(sealSecret("\ufeffbom", keyring), keyring)).toBe("\ufeffbom");
    expect(failure(() => sealSecret("lone \ud800", keyring))).toBe("invalid_plaintext");
  });

  it("uses a fresh IV for every seal", () => {
    const ivs = new Set<string>();
    const sealedValues = new Set<string>();
    for (let i = 0; i < 1000; i += 1) {
      const sealed = sealSecret(SECRET, keyring);
      ivs.add(sealed.split(":")[2]!);
      sealedValues.add(sealed);
    }
    expect(ivs.size).toBe(1000);
    expect(sealedValues.size).toBe(1000);
  });

  it("refuses any change to the sealed text", () => {
    const sealed = sealSecret(SECRET, keyring);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_:v";
    for (let i = 0; i < sealed.length; i += 1) {
      for (const replacement of alphabet) {
        if (replacement === sealed[i]) continue;
        const tampered = sealed.slice(0, i) + replacement + sealed.slice(i + 1);
        expect(() => openSecret(tampered, keyring), `position ${i} → ${replacement}`).toThrow(SecretBoxError);
      }
    }
    // Every bit of the decoded IV and ciphertext+tag, too.
    const [version, id, ivText, bodyText] = sealed.split(":") as [string, string, string, string];
    for (const [index, text] of [ivText, bodyText].entries()) {
      const bytes = Buffer.from(text, "base64url");
      for (let bit = 0; bit < bytes.length * 8; bit += 1) {
        const flipped = Buffer.from(bytes);
        flipped[bit >> 3]! ^= 1 << (bit & 7);
        const parts = [version, id, ivText, bodyText];
        parts[2 + index] = flipped.toString("base64url");
        expect(failure(() => openSecret(parts.join(":"), keyring))).toBe("authentication_failed");
      }
    }
    expect(failure(() => openSecret(`${sealed}A`, keyring))).toBe("malformed");
    expect(failure(() => openSecret(sealed.slice(0, -1), keyring))).not.toBe("no error");
    expect(failure(() => openSecret(`${sealed}:x`, keyring))).toBe("malformed");
    expect(failure(() => openSecret(sealed.replace(/^v1:/, "v2:"), keyring))).toBe("unsupported_version");
    expect(failure(() => openSecret("", keyring))).toBe("malformed");
    expect(failure(() => openSecret(SECRET, keyring))).toBe("malformed");
  });

  it("throws a typed error, without key or plaintext in it, under the wrong key", () => {
    const sealed = sealSecret(SECRET, keyring);
    const other = ring({ id: "k1", key: randomBytes(32) });
    let error: unknown;
    try {
      openSecret(sealed, other);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SecretBoxError);
    expect((error as SecretBoxError).code).toBe("authentication_failed");
    expect(String((error as Error).message)).not.toContain(SECRET);
    expect(failure(() => openSecret(sealed, ring(key("k2"))))).toBe("unknown_key");
  });

  it("binds a value to its context when one is given", () => {
    const sealed = sealSecret(SECRET, keyring, "automation:1");
    expect(openSecret(sealed, keyring, "automation:1")).toBe(SECRET);
    expect(failure(() => openSecret(sealed, keyring, "automation:2"))).toBe("authentication_failed");
    expect(failure(() => openSecret(sealed, keyring))).toBe("authentication_failed");
    expect(failure(() => openSecret(sealSecret(SECRET, keyring), keyring, "automation:1"))).toBe(
      "authentication_failed",
    );
  });

  it("authenticates the key id, so relabelling a value under another id of the same key fails", () => {
    const shared = randomBytes(32);
    const both = ring({ id: "new", key: shared }, [{ id: "old", key: shared }]);
    const sealed = sealSecret(SECRET, both);
    expect(failure(() => openSecret(sealed.replace(":new:", ":old:"), both))).toBe("authentication_failed");
  });
});

describe("key rotation", () => {
  it("opens values sealed under previous keys, seals under the current one, and says what to re-seal", () => {
    const k1 = key("k1");
    const k2 = key("k2");
    const k3 = key("k3");
    const before = ring(k1);
    const sealedOld = sealSecret(SECRET, before);

    const after = ring(k2, [k1]);
    expect(openSecret(sealedOld, after)).toBe(SECRET);
    expect(needsReseal(sealedOld, after)).toBe(true);
    const resealed = sealSecret(openSecret(sealedOld, after), after);
    expect(resealed.split(":")[1]).toBe("k2");
    expect(needsReseal(resealed, after)).toBe(false);

    const later = ring(k3, [k2, k1]);
    expect(openSecret(sealedOld, later)).toBe(SECRET);
    expect(openSecret(resealed, later)).toBe(SECRET);
    expect(failure(() => openSecret(sealedOld, ring(k3, [k2])))).toBe("unknown_key");
  });

  it("validates keyrings", () => {
    expect(failure(() => createKeyring({ id: "k1", key: randomBytes(16) }))).toBe("invalid_key");
    expect(failure(() => createKeyring({ id: "bad:id", key: randomBytes(32) }))).toBe("invalid_key");
    expect(failure(() => createKeyring({ id: "", key: randomBytes(32) }))).toBe("invalid_key");
    expect(failure(() => createKeyring(key("a"), [key("b"), key("a")]))).toBe("invalid_key");
    expect(failure(() => sealSecret("x", { current: { id: "k", key: randomBytes(31) }, previous: [] }))).toBe(
      "invalid_key",
    );
  });
});

describe("loadSecretsConfig", () => {
  const dir = mkdtempSync(join(tmpdir(), "aula-secrets-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const hex = randomBytes(32).toString("hex");

  it("reads SECRETS_ENCRYPTION_KEY as hex or base64, with or without an id, into a working keyring", () => {
    const raw = Buffer.from(hex, "hex");
    for (const value of [hex, hex.toUpperCase(), raw.toString("base64"), raw.toString("base64url")]) {
      const config = loadSecretsConfig({ SECRETS_ENCRYPTION_KEY: value }, dir);
      expect(config.encryptionKeySource).toBe("env");
      expect(config.encryptionKeys.current).toEqual({ id: defaultKeyId(raw), key: raw });
    }
    const named = loadSecretsConfig({ SECRETS_ENCRYPTION_KEY: `2026-05:${hex}` }, dir);
    expect(named.encryptionKeys.current.id).toBe("2026-05");
    const keyring = createKeyring(named.encryptionKeys.current, named.encryptionKeys.previous);
    expect(openSecret(sealSecret(SECRET, keyring), keyring)).toBe(SECRET);
  });

  it("rotates through SECRETS_ENCRYPTION_KEYS_PREVIOUS", () => {
    const oldHex = randomBytes(32).toString("hex");
    const oldConfig = loadSecretsConfig({ SECRETS_ENCRYPTION_KEY: oldHex }, dir).encryptionKeys;
    const sealed = sealSecret(SECRET, oldConfig);
    const older = randomBytes(32).toString("base64");
    const { encryptionKeys } = loadSecretsConfig(
      {
        SECRETS_ENCRYPTION_KEY: `new:${hex}`,
        SECRETS_ENCRYPTION_KEYS_PREVIOUS: ` ${oldHex} , older:${older} `,
      },
      dir,
    );
    expect(encryptionKeys.previous.map((k) => k.id)).toEqual([oldConfig.current.id, "older"]);
    expect(openSecret(sealed, encryptionKeys)).toBe(SECRET);
    expect(needsReseal(sealed, encryptionKeys)).toBe(true);
  });

  it("refuses malformed keys without echoing them", () => {
    for (const bad of [
      "short",
      hex.slice(2),
      `${hex}00`,
      randomBytes(31).toString("base64"),
      randomBytes(33).toString("base64"),
      `bad id:${hex}`,
      `:${hex}`,
    ]) {
      let error: unknown;
      try {
        loadSecretsConfig({ SECRETS_ENCRYPTION_KEY: bad }, dir);
      } catch (err) {
        error = err;
      }
      expect(error, bad).toBeInstanceOf(ConfigError);
      expect((error as Error).message).not.toContain(bad);
    }
    expect(() =>
      loadSecretsConfig(
        { SECRETS_ENCRYPTION_KEY: `a:${hex}`, SECRETS_ENCRYPTION_KEYS_PREVIOUS: `a:${hex}` },
        dir,
      ),
    ).toThrow(ConfigError);
    expect(() => loadSecretsConfig({ SECRETS_ENCRYPTION_KEYS_PREVIOUS: "nope" }, dir)).toThrow(ConfigError);
  });

  it("generates a key in DATA_DIR on the embedded default, readable only by its owner, and reuses it", () => {
    const first = loadSecretsConfig({}, dir);
    const second = loadSecretsConfig({ NODE_ENV: "production" }, dir);
    expect(first.encryptionKeySource).toBe("data_dir");
    expect(second.encryptionKeys.current).toEqual(first.encryptionKeys.current);
    const file = join(dir, GENERATED_KEY_FILE);
    expect(readFileSync(file, "utf8")).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o077).toBe(0);
    const sealed = sealSecret(SECRET, first.encryptionKeys);
    expect(openSecret(sealed, second.encryptionKeys)).toBe(SECRET);
  });

  it("refuses a damaged generated key file instead of replacing it", () => {
    const other = mkdtempSync(join(tmpdir(), "aula-secrets-bad-"));
    try {
      writeFileSync(join(other, GENERATED_KEY_FILE), "not a key");
      expect(() => loadSecretsConfig({}, other)).toThrow(ConfigError);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("keeps an in-memory database's key in memory only", () => {
    const config = loadSecretsConfig({}, ":memory:");
    expect(config.encryptionKeySource).toBe("ephemeral");
    expect(config.encryptionKeys.current.key).toHaveLength(32);
  });

  it("requires the key with DATABASE_URL in production, and generates one elsewhere like SESSION_SECRET", () => {
    const db = { DATABASE_URL: "postgres://localhost/aula" };
    expect(() => loadSecretsConfig(db, dir)).toThrow(/SECRETS_ENCRYPTION_KEY is required/);
    expect(() => loadSecretsConfig({ ...db, NODE_ENV: "production" }, dir)).toThrow(ConfigError);
    expect(loadSecretsConfig({ ...db, NODE_ENV: "development" }, dir).encryptionKeySource).toBe("data_dir");
    expect(loadSecretsConfig({ ...db, SECRETS_ENCRYPTION_KEY: hex }, dir).encryptionKeySource).toBe("env");
  });
});
