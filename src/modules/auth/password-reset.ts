/**
 * Password reset by e-mail. A request answers the same 202 whether or not the address belongs to anyone; a known,
 * active user gets a single-use token (random, stored as SHA-256, expiring after PASSWORD_RESET_TTL_SECONDS) in a
 * link, written to the mail outbox in the same transaction as the token. Confirming sets the password, consumes
 * the token (and any other the user holds) and revokes every session of the user.
 */

import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Config } from "../../config/index.js";
import type { Db, Executor } from "../../db/client.js";
import { passwordResetTokens, refreshTokens, users } from "../../db/schema/index.js";
import { hashPassword, newOpaqueToken, sha256Hex } from "../../platform/auth/secrets.js";
import type { Tenant } from "../../platform/auth/types.js";
import { sealSecret } from "../../platform/crypto/secret-box.js";
import { validationError } from "../../platform/errors/app-error.js";
import { type LimiterFactory, rateLimited, secondsUntil } from "../../platform/rate-limit/limiter.js";
import {
  asLocale,
  enqueueTemplateMail,
  institutionLocale,
  type MailDeps,
  renderTemplate,
} from "../email/service.js";
import * as repo from "./repo.js";

export interface ResetDeps {
  db: Db;
  config: Config;
  limiters: LimiterFactory;
}

/** Where the person sets the new password: a page of the institution's own host, carrying the token. */
export function resetUrl(origin: string, token: string): string {
  return `${origin}/reset-password?token=${token}`;
}

/**
 * Every request counts against the sign-in budgets' sizes, per (institution, address) and per IP, in windows of
 * their own: a request sends mail, so unlike sign-in there is no "success" to give the point back for.
 */
async function consumeRequestBudget(
  deps: ResetDeps,
  tenant: Tenant,
  ip: string,
  email: string,
): Promise<void> {
  const { loginMaxPerEmail, loginMaxPerIp, loginWindowSeconds: window } = deps.config.auth;
  const [byEmail, byIp] = await Promise.all([
    deps.limiters.consume("reset:email", `${tenant.id}:${email.toLowerCase()}`, loginMaxPerEmail, window),
    deps.limiters.consume("reset:ip", ip, loginMaxPerIp, window),
  ]);
  const blocked = [byEmail, byIp].filter((w) => !w.allowed);
  if (blocked.length > 0) throw rateLimited(secondsUntil(Math.max(...blocked.map((w) => w.msBeforeNext))));
}

async function retireLinks(tx: Executor, tenantId: string, userId: string): Promise<void> {
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordResetTokens.tenantId, tenantId),
        eq(passwordResetTokens.userId, userId),
        isNull(passwordResetTokens.usedAt),
      ),
    );
}

async function findResettable(db: Db, tenantId: string, email: string) {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, status: users.status })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), sql`lower(${users.email}) = lower(${email})`))
    .limit(1);
  const user = rows[0];
  return user?.status === "active" ? user : undefined;
}

export async function requestPasswordReset(
  deps: ResetDeps,
  mail: MailDeps,
  tenant: Tenant,
  ip: string,
  email: string,
  locale: string | undefined,
): Promise<void> {
  await consumeRequestBudget(deps, tenant, ip, email);
  const user = await findResettable(deps.db, tenant.id, email);
  const token = newOpaqueToken();
  const ttl = deps.config.mail.passwordResetTtlSeconds;
  const language = asLocale(locale) ?? (await institutionLocale(deps.db, tenant.id));
  const variables = {
    resetUrl: resetUrl(mail.origin, token),
    expiresInMinutes: String(Math.round(ttl / 60)),
  };
  if (user === undefined) {
    // The same work as for a real address, short of writing rows: a transaction with the same retiring
    // statement (for an id no user has), the template read and rendering, and the body sealed. The answer's
    // timing then tells little about which addresses exist.
    await deps.db.transaction(async (tx) => {
      await retireLinks(tx, tenant.id, randomUUID());
      const rendered = await renderTemplate(tx, tenant.id, "password_reset", language, variables);
      sealSecret(JSON.stringify(rendered), mail.keyring, "email:decoy");
    });
    return;
  }
  await deps.db.transaction(async (tx) => {
    // One live link per user: a new request retires the previous ones.
    await retireLinks(tx, tenant.id, user.id);
    await tx.insert(passwordResetTokens).values({
      tenantId: tenant.id,
      userId: user.id,
      tokenHash: sha256Hex(token),
      expiresAt: sql`now() + make_interval(secs => ${ttl})`,
    });
    await enqueueTemplateMail(tx, mail, {
      tenantId: tenant.id,
      templateKey: "password_reset",
      locale: language,
      to: { userId: user.id, email: user.email, name: user.name },
      variables,
    });
  });
}

const invalidToken = () => validationError("token", "field.reset_token_invalid");

async function findLiveToken(db: Db, tenantId: string, tokenHash: string, lock: boolean) {
  const query = db
    .select({ id: passwordResetTokens.id, userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.tenantId, tenantId),
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        sql`${passwordResetTokens.expiresAt} > now()`,
      ),
    );
  const rows = lock ? await query.for("update") : await query;
  return rows[0];
}

/**
 * Sets the password from a reset link. Failed attempts are limited per IP like invitation acceptance (the token is
 * the credential); a good token gives the point back. In one transaction: the token (locked, so two uses of one
 * token set one password) and every other live token of the user consumed, the password set, every refresh token
 * of the user revoked, which ends every session at its next request.
 */
export async function confirmPasswordReset(
  deps: ResetDeps,
  tenant: Tenant,
  ip: string,
  token: string,
  password: string,
): Promise<void> {
  const { loginMaxPerIp, loginWindowSeconds: window } = deps.config.auth;
  const budget = await deps.limiters.consume("reset-confirm:ip", ip, loginMaxPerIp, window);
  if (!budget.allowed) throw rateLimited(secondsUntil(budget.msBeforeNext));
  const tokenHash = sha256Hex(token);
  if ((await findLiveToken(deps.db, tenant.id, tokenHash, false)) === undefined) throw invalidToken();
  // scrypt is slow on purpose: never while holding the row lock.
  const passwordHash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    const row = await findLiveToken(tx as unknown as Db, tenant.id, tokenHash, true);
    if (row === undefined) throw invalidToken();
    if ((await repo.findActiveUser(tx, tenant.id, row.userId)) === undefined) throw invalidToken();
    await retireLinks(tx, tenant.id, row.userId);
    await repo.upsertPassword(tx, tenant.id, row.userId, passwordHash);
    await tx
      .update(refreshTokens)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(refreshTokens.tenantId, tenant.id),
          eq(refreshTokens.userId, row.userId),
          isNull(refreshTokens.revokedAt),
        ),
      );
  });
  await deps.limiters.refund("reset-confirm:ip", ip, loginMaxPerIp, window);
}
