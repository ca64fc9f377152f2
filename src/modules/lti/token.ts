/**
 * The token endpoint (IMS Security Framework 4.1): a tool trades a client assertion (a JWT it signed with its
 * own key, `iss` = `sub` = its client id, `aud` = this endpoint, a `jti` used once) for a one-hour access token
 * to the services its registration allows. The access token is a JWT signed with the institution's key; each
 * service call checks it, and the tool's status, again.
 */
import { randomUUID } from "node:crypto";
import { createLocalJWKSet, jwtVerify, SignJWT } from "jose";
import { ltiAssertionJtis } from "../../db/schema/index.js";
import { AppError, validationError } from "../../platform/errors/app-error.js";
import type { OutboundClient } from "../../platform/outbound/client.js";
import { ACCESS_TOKEN_LIFETIME_S, currentKey, publishedKeys } from "./keys.js";
import { peekClaims, unverified, verifyToolJwt } from "./tool-keys.js";
import * as repo from "./tool-repo.js";
import { type LtiDeps, platformOf } from "./tools.js";

export const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

export interface TokenRequest {
  grant_type?: string;
  client_assertion_type?: string;
  client_assertion?: string;
  scope?: string;
}

export async function issueToken(
  deps: LtiDeps,
  client: OutboundClient,
  tenantId: string,
  body: TokenRequest,
) {
  if (body.grant_type !== "client_credentials") throw validationError("grant_type", "field.invalid");
  if (body.client_assertion_type !== ASSERTION_TYPE)
    throw validationError("client_assertion_type", "field.invalid");
  const assertion = body.client_assertion ?? "";
  const clientId = String(peekClaims(assertion).iss ?? "");
  const db = deps.ctx.database.db;
  const tool = await repo.findByClientId(db, tenantId, clientId);
  if (tool === undefined || tool.status !== "active") throw unverified();
  const platform = platformOf(deps.origin);
  const claims = await verifyToolJwt(client, tool, assertion, platform.tokenUrl, {
    issuer: clientId,
    subject: clientId,
  });
  if (typeof claims.jti !== "string" || claims.jti.length === 0 || claims.jti.length > 256)
    throw unverified();
  // The assertion is single-use: its jti is kept until it expires, so a replay inside that window is refused.
  const inserted = await db
    .insert(ltiAssertionJtis)
    .values({
      tenantId,
      toolId: tool.id,
      jti: claims.jti,
      expiresAt: new Date((claims.exp ?? 0) * 1000).toISOString(),
    })
    .onConflictDoNothing()
    .returning({ jti: ltiAssertionJtis.jti });
  if (inserted.length === 0) throw unverified();
  const requested = (body.scope ?? "").split(" ").filter((s) => s !== "");
  const granted = requested.filter((s) => tool.scopes.includes(s));
  if (granted.length === 0) throw validationError("scope", "field.invalid");
  const key = await currentKey(db, deps.ctx.config, tenantId);
  const accessToken = await new SignJWT({ scope: granted.join(" "), jti: randomUUID() })
    .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "at+jwt" })
    .setIssuer(platform.issuer)
    .setAudience(platform.tokenUrl)
    .setSubject(tool.clientId)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_LIFETIME_S}s`)
    .sign(key.key);
  return {
    access_token: accessToken,
    token_type: "Bearer" as const,
    expires_in: ACCESS_TOKEN_LIFETIME_S,
    scope: granted.join(" "),
  };
}

/** The tool behind a bearer access token, if the token is ours, unexpired, and grants `scope`; 401/403 otherwise. */
export async function toolOfAccessToken(
  deps: LtiDeps,
  tenantId: string,
  authorization: string | undefined,
  scope: string[],
) {
  const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(authorization ?? "");
  if (match === null) throw unverified();
  const db = deps.ctx.database.db;
  const platform = platformOf(deps.origin);
  let payload: { sub?: string; scope?: unknown };
  try {
    const keys = createLocalJWKSet({ keys: await publishedKeys(db, tenantId) });
    ({ payload } = await jwtVerify(match[1] ?? "", keys, {
      issuer: platform.issuer,
      audience: platform.tokenUrl,
      algorithms: ["RS256"],
      typ: "at+jwt",
    }));
  } catch {
    throw unverified();
  }
  const tool = await repo.findByClientId(db, tenantId, String(payload.sub ?? ""));
  if (tool === undefined || tool.status !== "active") throw unverified();
  const granted = typeof payload.scope === "string" ? payload.scope.split(" ") : [];
  if (!scope.some((s) => granted.includes(s) && tool.scopes.includes(s))) {
    throw new AppError("insufficient_scope", { params: { scope: scope.join(" ") } });
  }
  return tool;
}
