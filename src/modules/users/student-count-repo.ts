/** What the plan's student limit counts beyond the `student` users: other users holding a student enrollment. */
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { enrollments, users } from "../../db/schema/index.js";
import { ROLES } from "../../platform/auth/types.js";

/** Every role but `student`, named, so the planner can walk users_tenant_role_created_idx (`<>` is no index range). */
const NON_STUDENT_ROLES = ROLES.filter((role) => role !== "student");

/**
 * The plan's count beyond the `student` users (a trigger-kept counter): the other users who hold a current
 * (not dropped) student enrollment. Walks the tenant's non-students (few: teachers and administrators) through
 * users_tenant_role_created_idx and probes each one's enrollments through enrollments_user_created_idx. With
 * `role <> 'student'` instead, PostgreSQL read every user of the tenant (a sequential scan of 50,000 students in
 * seats-plans.test.ts), on every student creation and every read of the seats.
 */
export async function countEnrolledNonStudents(db: Executor, tenantId: string): Promise<number> {
  const result = (await db.execute(sql`
    SELECT count(*)::int AS n FROM ${users} u
    WHERE u.tenant_id = ${tenantId} AND u.role = ANY(${sql.param(NON_STUDENT_ROLES)}::text[])
      AND EXISTS (
        SELECT 1 FROM ${enrollments} e
        WHERE e.tenant_id = u.tenant_id AND e.user_id = u.id AND e.role = 'student' AND e.status <> 'dropped'
      )`)) as unknown as { rows: { n: number }[] };
  return result.rows[0]?.n ?? 0;
}

/** Those of these users whom the plan does not count yet: not `student`, and no current student enrollment. */
export async function uncountedStudents(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const result = (await db.execute(sql`
    SELECT u.id FROM ${users} u
    WHERE u.tenant_id = ${tenantId} AND u.id = ANY(${sql.param([...ids])}::uuid[]) AND u.role <> 'student'
      AND NOT EXISTS (
        SELECT 1 FROM ${enrollments} e
        WHERE e.tenant_id = u.tenant_id AND e.user_id = u.id AND e.role = 'student' AND e.status <> 'dropped'
      )`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}
