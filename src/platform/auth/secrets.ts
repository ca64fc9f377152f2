import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export const API_KEY_PATTERN = /^mia_[0-9a-f]{40}$/;

/** `mia_` + 40 lowercase hex characters from the CSPRNG (160 bits). */
export function newApiKeySecret(): string {
  return `mia_${randomBytes(20).toString("hex")}`;
}

/** What lists show of a key: enough to tell keys apart, far too little to guess one. */
export function apiKeyPrefix(secret: string): string {
  return secret.slice(0, 12);
}

/** Opaque session and inbound tokens: 256 bits, URL-safe. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

// scrypt parameters (N=2^15, r=8, p=1) follow OWASP's password storage guidance; 64 MiB of maxmem leaves room.
const SCRYPT: ScryptParams = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
let hashCost: ScryptParams = SCRYPT;

/**
 * The scrypt cost (N) of passwords hashed from now on in this process; the default above when never called.
 * A test switch: each scrypt at 2^15 takes ~0.2 s of CPU and the tests hash and check passwords hundreds of
 * times, so the test harness lowers it. Stored hashes carry their parameters, so checking is unaffected.
 */
export function setPasswordHashCost(N: number): void {
  if (!Number.isInteger(N) || N < 2 || (N & (N - 1)) !== 0)
    throw new Error("scrypt N must be a power of two");
  hashCost = { ...SCRYPT, N };
  decoyHash = undefined;
}

interface ScryptParams {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}
const KEY_LENGTH = 64;

function scryptAsync(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, params, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$hash`, so that parameters can be raised later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const params = hashCost;
  const key = await scryptAsync(password, salt, params);
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await scryptAsync(password, Buffer.from(salt, "base64"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a password nobody has, so that a login for an unknown e-mail costs as much as a real one. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return decoyHash;
}
