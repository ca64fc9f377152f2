import { randomUUID } from "node:crypto";
import type { Config } from "../../config/index.js";
import type { Db, Executor } from "../../db/client.js";
import {
  decoyPasswordHash,
  hashPassword,
  newOpaqueToken,
  sha256Hex,
  verifyPassword,
} from "../../platform/auth/secrets.js";
import { signAccessToken } from "../../platform/auth/session-tokens.js";
import type { Role, Tenant } from "../../platform/auth/types.js";
import { AppError } from "../../platform/errors/app-error.js";
import { type LimiterFactory, rateLimited, secondsUntil } from "../../platform/rate-limit/limiter.js";
import { getSettings } from "../settings/service.js";
import * as repo from "./repo.js";

export interface IssuedSession {
  userId: string;
  accessToken: string;
  refreshToken: string;
  /** The lifetimes actually given, for the cookies: the configured ones, shortened to the institution's timeout. */
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

export async function setPassword(
  db: Executor,
  tenantId: string,
  userId: string,
  password: string,
): Promise<void> {
  await repo.upsertPassword(db, tenantId, userId, await hashPassword(password));
}

async function issue(
  db: Executor,
  config: Config,
  tenantId: string,
  user: { id: string; email: string; role: string },
  familyId: string,
  timeoutSeconds: number,
): Promise<IssuedSession> {
  // Each rotation is activity: the new refresh token lives for the idle timeout, so a session whose client
  // stops refreshing for that long ends, and the access token never outlives it either.
  const refreshTtlSeconds = Math.min(config.auth.refreshTokenTtlSeconds, timeoutSeconds);
  const accessTtlSeconds = Math.min(config.auth.accessTokenTtlSeconds, timeoutSeconds);
  const refreshToken = newOpaqueToken();
  await repo.insertRefreshToken(db, {
    tenantId,
    userId: user.id,
    familyId,
    tokenHash: sha256Hex(refreshToken),
    ttlSeconds: refreshTtlSeconds,
  });
  const accessToken = await signAccessToken(
    { sub: user.id, email: user.email, tenantId, role: user.role as Role, sessionId: familyId },
    config.auth.sessionSecret,
    accessTtlSeconds,
  );
  return { userId: user.id, accessToken, refreshToken, accessTtlSeconds, refreshTtlSeconds };
}

/** The institution's `security.sessionTimeoutMinutes` in seconds; none (Infinity) leaves the configured lifetimes. */
async function sessionTimeoutSeconds(db: Executor, tenantId: string): Promise<number> {
  const minutes = (await getSettings(db, tenantId)).security.sessionTimeoutMinutes;
  return minutes === null ? Number.POSITIVE_INFINITY : minutes * 60;
}

const invalidCredentials = () => new AppError("invalid_credentials");
const unauthorized = () => new AppError("unauthorized");

/**
 * Failed logins are counted per (tenant, e-mail) and per IP; past either budget every attempt gets 429 until the
 * window ends, whether or not the password is right, so guessing cannot continue. Each attempt takes its point
 * before the password is checked (an atomic count, so a burst of concurrent guesses cannot all pass a check made
 * before any of them was counted) and gives it back if it succeeds or is refused.
 */
export async function login(
  db: Db,
  config: Config,
  limiters: LimiterFactory,
  tenant: Tenant,
  ip: string,
  email: string,
  password: string,
): Promise<IssuedSession> {
  const window = config.auth.loginWindowSeconds;
  const emailKey = `${tenant.id}:${email.toLowerCase()}`;
  const [byEmail, byIp] = await Promise.all([
    limiters.consume("login:email", emailKey, config.auth.loginMaxPerEmail, window),
    limiters.consume("login:ip", ip, config.auth.loginMaxPerIp, window),
  ]);
  const blocked = [byEmail, byIp].filter((w) => !w.allowed);
  if (blocked.length > 0) {
    // A refused attempt costs nothing in the window that would have let it through.
    await Promise.all([
      byEmail.allowed
        ? limiters.refund("login:email", emailKey, config.auth.loginMaxPerEmail, window)
        : undefined,
      byIp.allowed ? limiters.refund("login:ip", ip, config.auth.loginMaxPerIp, window) : undefined,
    ]);
    throw rateLimited(
      secondsUntil(Math.max(...blocked.map((w) => w.msBeforeNext))),
      "rate_limit_exceeded.login",
    );
  }
  const candidate = await repo.findLoginCandidate(db, tenant.id, email);
  // An unknown e-mail costs a full scrypt too, so timing does not tell which e-mails exist.
  const ok = await verifyPassword(password, candidate?.passwordHash ?? (await decoyPasswordHash()));
  if (!ok || candidate === undefined || candidate.status !== "active") throw invalidCredentials();
  await Promise.all([
    limiters.reset("login:email", emailKey, config.auth.loginMaxPerEmail, window),
    limiters.refund("login:ip", ip, config.auth.loginMaxPerIp, window),
  ]);
  return db.transaction(async (tx) => {
    await repo.recordLogin(tx, tenant.id, candidate.id);
    return issue(tx, config, tenant.id, candidate, randomUUID(), await sessionTimeoutSeconds(tx, tenant.id));
  });
}

/**
 * Rotates a refresh token. Presenting one that was already rotated means it leaked (or a client raced itself):
 * the whole family is revoked, so neither holder can continue.
 */
export async function refresh(
  db: Db,
  config: Config,
  tenantId: string,
  token: string | undefined,
): Promise<IssuedSession> {
  if (token === undefined || token === "") throw unauthorized();
  const outcome = await db.transaction(async (tx) => {
    const row = await repo.lockRefreshToken(tx, tenantId, sha256Hex(token));
    if (row === undefined || row.revokedAt !== null || row.expired) return null;
    if (row.replacedAt !== null) {
      await repo.revokeFamily(tx, tenantId, row.familyId);
      return null;
    }
    // A token unused for longer than the institution's timeout ends its session, even one issued before the
    // timeout was shortened (its own expiry was computed from the longer one).
    const timeout = await sessionTimeoutSeconds(tx, tenantId);
    if (row.idleSeconds >= timeout) {
      await repo.revokeFamily(tx, tenantId, row.familyId);
      return "idle" as const;
    }
    const user = await repo.findActiveUser(tx, tenantId, row.userId);
    if (user === undefined) return null;
    await repo.markReplaced(tx, tenantId, row.id);
    return issue(tx, config, tenantId, user, row.familyId, timeout);
  });
  if (outcome === null || outcome === "idle") throw unauthorized();
  return outcome;
}

/** Ends the session family of the presented refresh token, if there is one. */
export async function logout(db: Db, tenantId: string, token: string | undefined): Promise<void> {
  if (token === undefined || token === "") return;
  await db.transaction(async (tx) => {
    const row = await repo.lockRefreshToken(tx, tenantId, sha256Hex(token));
    if (row !== undefined) await repo.revokeFamily(tx, tenantId, row.familyId);
  });
}
