/**
 * Verifying what a tool signs (deep-linking responses, client assertions) with the tool's own key: its
 * registered `publicJwk`, or the key set at its `jwksUrl`, fetched through the outbound client (SSRF-checked at
 * every fetch, no redirects, capped body) and cached briefly so a burst of score posts costs one fetch.
 */
import { createLocalJWKSet, decodeJwt, importJWK, type JWK, type JWTPayload, jwtVerify } from "jose";
import { AppError } from "../../platform/errors/app-error.js";
import type { OutboundClient } from "../../platform/outbound/client.js";
import type { ToolRow } from "./tool-repo.js";

const ALGORITHMS = ["RS256", "RS384", "RS512", "ES256", "ES384"];
const JWKS_CACHE_MS = 60_000;
const MAX_CACHED = 1_000;
const jwksCache = new Map<string, { at: number; keys: { keys: JWK[] } }>();

/** 401 for anything a tool signed that does not verify: the caller learns no more than that. */
export const unverified = () => new AppError("unauthorized");

/** The claims without verifying them: only to find which tool to verify with. */
export function peekClaims(token: string): JWTPayload {
  try {
    return decodeJwt(token);
  } catch {
    throw unverified();
  }
}

async function fetchJwks(client: OutboundClient, url: string): Promise<{ keys: JWK[] }> {
  const cached = jwksCache.get(url);
  if (cached !== undefined && Date.now() - cached.at < JWKS_CACHE_MS) return cached.keys;
  const res = await client.request(url, { method: "GET", headers: { accept: "application/json" } });
  if (!res.ok || res.status !== 200 || res.truncated) throw unverified();
  let keys: { keys: JWK[] };
  try {
    keys = JSON.parse(res.body) as { keys: JWK[] };
  } catch {
    throw unverified();
  }
  if (!Array.isArray(keys?.keys)) throw unverified();
  if (jwksCache.size >= MAX_CACHED) jwksCache.clear();
  jwksCache.set(url, { at: Date.now(), keys });
  return keys;
}

/**
 * Verifies `token` as signed by `tool` for `audience`, at most `maxLifetimeS` long. Any failure (signature,
 * expiry, issuer, audience, an unreachable key set) is 401.
 */
export async function verifyToolJwt(
  client: OutboundClient,
  tool: ToolRow,
  token: string,
  audience: string,
  options: { issuer: string; subject?: string },
): Promise<JWTPayload> {
  const verifyOptions = {
    algorithms: ALGORITHMS,
    audience,
    issuer: options.issuer,
    ...(options.subject === undefined ? {} : { subject: options.subject }),
    requiredClaims: ["exp", "iat"],
    maxTokenAge: "1h",
  };
  try {
    if (tool.publicJwk !== null) {
      const jwk = tool.publicJwk as JWK;
      const key = await importJWK(jwk, jwk.alg ?? (jwk.kty === "EC" ? "ES256" : "RS256"));
      return (await jwtVerify(token, key, verifyOptions)).payload;
    }
    if (tool.jwksUrl === null) throw unverified();
    const set = createLocalJWKSet(await fetchJwks(client, tool.jwksUrl));
    return (await jwtVerify(token, set, verifyOptions)).payload;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unverified();
  }
}
