/**
 * The institution's LTI signing keys (RS256). The private key is sealed at rest with the secrets keyring, bound
 * to its tenant and kid, so a sealed key copied to another row does not open. One key is `current` (the partial
 * unique index keeps it one); a rotation turns it `previous` and keeps it in the public JWKS until everything it
 * signed has expired (`MAX_SIGNED_LIFETIME_S`), after which it is dropped.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, or, sql } from "drizzle-orm";
import { type CryptoKey, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, type JWK } from "jose";
import type { Config } from "../../config/index.js";
import type { Executor } from "../../db/client.js";
import { ltiPlatformKeys } from "../../db/schema/index.js";
import { openSecret, sealSecret } from "../../platform/crypto/secret-box.js";
import { keyringOf } from "../outbox/send.js";

/** id_token launches live 5 minutes, access tokens 1 hour: a retired key stays published this long. */
export const ID_TOKEN_LIFETIME_S = 300;
export const ACCESS_TOKEN_LIFETIME_S = 3600;
export const MAX_SIGNED_LIFETIME_S = ACCESS_TOKEN_LIFETIME_S;

export interface SigningKey {
  kid: string;
  key: CryptoKey;
}

/** Imported private keys by `tenant:kid`; importing a PEM per launch would cost more than signing. */
const imported = new Map<string, CryptoKey>();
const MAX_CACHED = 1_000;

const context = (tenantId: string, kid: string) => `lti-key:${tenantId}:${kid}`;

async function insertKey(db: Executor, config: Config, tenantId: string): Promise<void> {
  const { publicKey, privateKey } = await generateKeyPair("RS256", {
    modulusLength: 2048,
    extractable: true,
  });
  const kid = randomBytes(12).toString("base64url");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  const sealed = sealSecret(await exportPKCS8(privateKey), keyringOf(config), context(tenantId, kid));
  // A concurrent first launch may have made one already: the partial unique index keeps the first.
  await db
    .insert(ltiPlatformKeys)
    .values({ tenantId, kid, privateKey: sealed, publicJwk: jwk as Record<string, unknown> })
    .onConflictDoNothing();
}

async function readCurrent(db: Executor, tenantId: string) {
  const [row] = await db
    .select({ kid: ltiPlatformKeys.kid, privateKey: ltiPlatformKeys.privateKey })
    .from(ltiPlatformKeys)
    .where(and(eq(ltiPlatformKeys.tenantId, tenantId), eq(ltiPlatformKeys.status, "current")));
  return row;
}

/** The current signing key, made on first use. */
export async function currentKey(db: Executor, config: Config, tenantId: string): Promise<SigningKey> {
  let row = await readCurrent(db, tenantId);
  if (row === undefined) {
    await insertKey(db, config, tenantId);
    row = await readCurrent(db, tenantId);
    if (row === undefined) throw new Error("no current LTI key after creating one");
  }
  const cacheKey = `${tenantId}:${row.kid}`;
  let key = imported.get(cacheKey);
  if (key === undefined) {
    const pem = openSecret(row.privateKey, keyringOf(config), context(tenantId, row.kid));
    key = await importPKCS8(pem, "RS256");
    if (imported.size >= MAX_CACHED) imported.clear();
    imported.set(cacheKey, key);
  }
  return { kid: row.kid, key };
}

/** The public keys a tool verifies with: the current one and every previous one still within its window. */
export async function publishedKeys(db: Executor, tenantId: string): Promise<JWK[]> {
  const rows = await db
    .select({ jwk: ltiPlatformKeys.publicJwk })
    .from(ltiPlatformKeys)
    .where(
      and(
        eq(ltiPlatformKeys.tenantId, tenantId),
        or(eq(ltiPlatformKeys.status, "current"), gt(ltiPlatformKeys.publishedUntil, sql`now()`)),
      ),
    )
    .orderBy(ltiPlatformKeys.createdAt);
  return rows.map((r) => r.jwk as JWK);
}

export interface RotationResult {
  kid: string;
  previousKid: string | null;
  previousPublishedUntil: string | null;
}

/**
 * Makes a new current key. The old one stays published for MAX_SIGNED_LIFETIME_S; keys whose window has passed
 * are deleted here, so the table holds at most a few rows per institution.
 */
export async function rotateKey(db: Executor, config: Config, tenantId: string): Promise<RotationResult> {
  const retired = await db.transaction(async (tx) => {
    await tx
      .delete(ltiPlatformKeys)
      .where(
        and(
          eq(ltiPlatformKeys.tenantId, tenantId),
          eq(ltiPlatformKeys.status, "previous"),
          sql`${ltiPlatformKeys.publishedUntil} <= now()`,
        ),
      );
    const [old] = await tx
      .update(ltiPlatformKeys)
      .set({
        status: "previous",
        publishedUntil: sql`now() + make_interval(secs => ${MAX_SIGNED_LIFETIME_S})`,
      })
      .where(and(eq(ltiPlatformKeys.tenantId, tenantId), eq(ltiPlatformKeys.status, "current")))
      .returning({ kid: ltiPlatformKeys.kid, publishedUntil: ltiPlatformKeys.publishedUntil });
    await insertKey(tx, config, tenantId);
    return old;
  });
  const current = await currentKey(db, config, tenantId);
  return {
    kid: current.kid,
    previousKid: retired?.kid ?? null,
    previousPublishedUntil: retired?.publishedUntil ?? null,
  };
}
