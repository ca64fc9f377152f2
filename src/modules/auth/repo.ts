import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { passwordCredentials, refreshTokens, users } from "../../db/schema/index.js";

export async function findLoginCandidate(db: Executor, tenantId: string, email: string) {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      status: users.status,
      passwordHash: passwordCredentials.passwordHash,
    })
    .from(users)
    .innerJoin(
      passwordCredentials,
      and(eq(passwordCredentials.tenantId, users.tenantId), eq(passwordCredentials.userId, users.id)),
    )
    .where(and(eq(users.tenantId, tenantId), sql`lower(${users.email}) = lower(${email})`))
    .limit(1);
  return rows[0];
}

export async function findActiveUser(db: Executor, tenantId: string, userId: string) {
  const rows = await db
    .select({ id: users.id, email: users.email, role: users.role, status: users.status })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  const user = rows[0];
  return user?.status === "active" ? user : undefined;
}

export async function upsertPassword(db: Executor, tenantId: string, userId: string, passwordHash: string) {
  await db
    .insert(passwordCredentials)
    .values({ tenantId, userId, passwordHash })
    .onConflictDoUpdate({
      target: [passwordCredentials.tenantId, passwordCredentials.userId],
      set: { passwordHash, updatedAt: sql`now()` },
    });
}

export async function recordLogin(db: Executor, tenantId: string, userId: string) {
  await db
    .update(users)
    .set({ lastLoginAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

export async function insertRefreshToken(
  db: Executor,
  row: { tenantId: string; userId: string; familyId: string; tokenHash: string; ttlSeconds: number },
) {
  await db.insert(refreshTokens).values({
    tenantId: row.tenantId,
    userId: row.userId,
    familyId: row.familyId,
    tokenHash: row.tokenHash,
    expiresAt: sql`now() + make_interval(secs => ${row.ttlSeconds})`,
  });
}

export async function lockRefreshToken(db: Executor, tenantId: string, tokenHash: string) {
  const rows = await db
    .select({
      id: refreshTokens.id,
      userId: refreshTokens.userId,
      familyId: refreshTokens.familyId,
      replacedAt: refreshTokens.replacedAt,
      revokedAt: refreshTokens.revokedAt,
      expired: sql<boolean>`${refreshTokens.expiresAt} <= now()`,
      /** Since this token was issued (the session's last rotation): how long the session has been idle. */
      idleSeconds: sql<number>`extract(epoch from now() - ${refreshTokens.createdAt})::float8`,
    })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tenantId, tenantId), eq(refreshTokens.tokenHash, tokenHash)))
    .for("update");
  return rows[0];
}

export async function markReplaced(db: Executor, tenantId: string, id: string) {
  await db
    .update(refreshTokens)
    .set({ replacedAt: sql`now()` })
    .where(and(eq(refreshTokens.tenantId, tenantId), eq(refreshTokens.id, id)));
}

export async function revokeFamily(db: Executor, tenantId: string, familyId: string) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.tenantId, tenantId),
        eq(refreshTokens.familyId, familyId),
        isNull(refreshTokens.revokedAt),
      ),
    );
}
