import { errors, jwtVerify, SignJWT } from "jose";
import { ROLES, type Role } from "./types.js";

export const ACCESS_COOKIE = "sb-access-token";
export const REFRESH_COOKIE = "sb-refresh-token";

export interface AccessClaims {
  sub: string;
  email: string;
  tenantId: string;
  role: Role;
  /** The refresh-token family this token was issued with (Supabase's `session_id`): logout ends it at once. */
  sessionId: string;
}

/** Supabase-shaped access token: `role: "authenticated"`, the tenant and app role under `app_metadata`. */
export async function signAccessToken(
  claims: AccessClaims,
  secret: Uint8Array,
  ttlSeconds: number,
): Promise<string> {
  return new SignJWT({
    email: claims.email,
    role: "authenticated",
    session_id: claims.sessionId,
    app_metadata: { tenantId: claims.tenantId, role: claims.role },
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(secret);
}

/**
 * Only HS256 is accepted (so `alg: none` and key confusion fail), with `exp` and `nbf` enforced by jose.
 * Returns null for anything that does not verify.
 */
export async function verifyAccessToken(token: string, secret: Uint8Array): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ["HS256"],
      requiredClaims: ["sub", "exp"],
    });
    const meta = payload.app_metadata as { tenantId?: unknown; role?: unknown } | undefined;
    if (
      typeof payload.sub !== "string" ||
      typeof payload.email !== "string" ||
      typeof payload.session_id !== "string" ||
      typeof meta?.tenantId !== "string" ||
      !(ROLES as readonly unknown[]).includes(meta.role)
    ) {
      return null;
    }
    return {
      sub: payload.sub,
      email: payload.email,
      tenantId: meta.tenantId,
      role: meta.role as Role,
      sessionId: payload.session_id,
    };
  } catch (err) {
    if (err instanceof errors.JOSEError) return null;
    throw err;
  }
}
