import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Short-lived capability tokens for the local store's upload and download URLs: `<expiry>.<HMAC-SHA256>` over the
 * purpose, tenant, file and expiry, with the key from configuration. Nothing is stored, so nothing can leak from
 * the database; the URL's `token` parameter is redacted from request logs like every credential-named one.
 */
/** `report`: a report run's file, served by the reports module's own route (never by the media download route). */
export type TokenPurpose = "upload" | "download" | "report";

function mac(key: Buffer, purpose: TokenPurpose, tenantId: string, mediaId: string, expiry: number): Buffer {
  return createHmac("sha256", key).update(`aula-media|${purpose}|${tenantId}|${mediaId}|${expiry}`).digest();
}

export function signToken(
  key: Buffer,
  purpose: TokenPurpose,
  tenantId: string,
  mediaId: string,
  expiresAt: Date,
): string {
  const expiry = Math.floor(expiresAt.getTime() / 1000);
  return `${expiry}.${mac(key, purpose, tenantId, mediaId, expiry).toString("base64url")}`;
}

/** True when the token was signed for this purpose, tenant and file and has not expired. */
export function verifyToken(
  key: Buffer,
  purpose: TokenPurpose,
  tenantId: string,
  mediaId: string,
  token: string,
  now = Date.now(),
): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (match === null) return false;
  const expiry = Number(match[1]);
  if (expiry * 1000 < now) return false;
  const given = Buffer.from(match[2] as string, "base64url");
  const expected = mac(key, purpose, tenantId, mediaId, expiry);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
