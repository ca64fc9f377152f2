import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { prepared } from "../../db/prepared.js";
import { refreshTokens, users } from "../../db/schema/index.js";

export interface SessionUser {
  role: string;
  status: string;
  email: string;
  /** False once the token's session family was revoked (logout, or a replayed refresh token). */
  live: boolean;
}

/**
 * The signed-in user as the database knows them now, and whether their session still stands. Read on every
 * session request, so a demotion, a suspension or a logout takes effect at once rather than when the token expires.
 */
export async function loadSessionUser(
  db: Db,
  tenantId: string,
  userId: string,
  sessionId: string,
): Promise<SessionUser | undefined> {
  const query = prepared(db, "session_user", () =>
    db
      .select({
        role: users.role,
        status: users.status,
        email: users.email,
        // Spelled out: inside the subquery Drizzle would render the outer columns unqualified.
        live: sql<boolean>`EXISTS (
          SELECT 1 FROM ${refreshTokens} r
          WHERE r.tenant_id = users.tenant_id AND r.family_id = ${sql.placeholder("sessionId")}::uuid
            AND r.user_id = users.id AND r.revoked_at IS NULL
        )`,
      })
      .from(users)
      .where(and(eq(users.tenantId, sql.placeholder("tenantId")), eq(users.id, sql.placeholder("userId"))))
      .prepare("session_user"),
  );
  const rows = await query.execute({ tenantId, userId, sessionId });
  return rows[0];
}
