import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { classGroups, courses, users } from "../../db/schema/index.js";

/** What an event needs of the user it is about. */
export interface UserBrief {
  id: string;
  name: string;
  email: string;
  role: string;
}

const briefColumns = { id: users.id, name: users.name, email: users.email, role: users.role };

export async function findUserBrief(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<UserBrief | undefined> {
  const rows = await db
    .select(briefColumns)
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return rows[0];
}

/**
 * The tenant's users among these ids and e-mails (e-mails matched case-insensitively), in one statement: the
 * primary key and users_tenant_email_key (on lower(email)) answer it. `share` locks the rows read, so their
 * role cannot change until the caller's transaction ends (an enrollment counts against the student limit
 * according to its user's role).
 */
export async function findUsers(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
  emails: readonly string[],
  lock?: "share",
): Promise<UserBrief[]> {
  if (ids.length === 0 && emails.length === 0) return [];
  const lowered = [...new Set(emails.map((e) => e.toLowerCase()))];
  const query = db
    .select(briefColumns)
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        // One array parameter each (not one parameter per value), whatever the number asked for.
        or(
          ids.length === 0 ? undefined : sql`${users.id} = ANY(${sql.param([...ids])}::uuid[])`,
          lowered.length === 0
            ? undefined
            : sql`lower(${users.email}) IN (SELECT jsonb_array_elements_text(${JSON.stringify(lowered)}::jsonb))`,
        ) as SQL,
      ),
    );
  return lock === "share" ? query.for("share") : query;
}

/** Which of these course ids exist in the tenant. */
export async function existingCourses(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: courses.id })
    .from(courses)
    .where(and(eq(courses.tenantId, tenantId), inArray(courses.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** Which of these class group ids exist in the tenant. */
export async function existingClassGroups(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: classGroups.id })
    .from(classGroups)
    .where(and(eq(classGroups.tenantId, tenantId), inArray(classGroups.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}
