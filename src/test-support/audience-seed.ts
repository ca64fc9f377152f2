import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";

/**
 * The people around a student, for the plan tests of what a student reads through its audience (the live classes
 * list, the drive's top level): COURSES courses ("Course 000" …) and GROUPS class groups ("Group 000" …), OTHERS
 * other students in four courses and two groups each (20,000 enrollments and 10,000 memberships, so that the
 * student's own are found through an index, as in a large institution), and the student: enrolled in courses 9
 * and 11 (active), 10 (completed) and 12 (dropped, so not its audience), member of groups 9 and 101.
 */

export const COURSES = 500;
export const GROUPS = 250;
const OTHERS = 5_000;

/** `c(id, n)`: the tenant's courses numbered from 0 by title; `g(id, n)`: its groups by name. */
export const numbered = (tenantId: string) => sql`
  c AS (SELECT id, row_number() OVER (ORDER BY title) - 1 AS n FROM courses WHERE tenant_id = ${tenantId}::uuid),
  g AS (SELECT id, row_number() OVER (ORDER BY name) - 1 AS n FROM class_groups WHERE tenant_id = ${tenantId}::uuid)`;

export async function seedAudience(db: Db, tenant: { id: string; slug: string }, studentId: string) {
  const t = tenant.id;
  await db.execute(sql`
    INSERT INTO courses (tenant_id, title, status)
    SELECT ${t}::uuid, 'Course ' || lpad(n::text, 3, '0'), 'published' FROM generate_series(0, ${COURSES - 1}) AS n`);
  await db.execute(sql`
    INSERT INTO class_groups (tenant_id, name)
    SELECT ${t}::uuid, 'Group ' || lpad(n::text, 3, '0') FROM generate_series(0, ${GROUPS - 1}) AS n`);
  await db.execute(sql`
    INSERT INTO users (tenant_id, name, email, role, status)
    SELECT ${t}::uuid, 'Student ' || i, 'student' || i || '@' || ${tenant.slug} || '.test', 'student', 'active'
    FROM generate_series(1, ${OTHERS}) AS i`);
  const others = sql`u AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users
    WHERE tenant_id = ${t}::uuid AND name LIKE 'Student %')`;
  await db.execute(sql`
    WITH ${others}, ${numbered(t)}
    INSERT INTO enrollments (tenant_id, user_id, course_id, status)
    SELECT ${t}::uuid, u.id, c.id, 'active' FROM u, generate_series(0, 3) AS k, c
    WHERE c.n = (u.n * 7 + k * 125) % ${COURSES}`);
  await db.execute(sql`
    WITH ${others}, ${numbered(t)}
    INSERT INTO class_group_members (tenant_id, class_group_id, user_id)
    SELECT ${t}::uuid, g.id, u.id FROM u, generate_series(0, 1) AS k, g
    WHERE g.n = (u.n * 3 + k * 125) % ${GROUPS}`);
  await db.execute(sql`
    INSERT INTO enrollments (tenant_id, user_id, course_id, status)
    SELECT ${t}::uuid, ${studentId}::uuid, id,
           CASE title WHEN 'Course 010' THEN 'completed' WHEN 'Course 012' THEN 'dropped' ELSE 'active' END
    FROM courses WHERE tenant_id = ${t}::uuid AND title IN ('Course 009', 'Course 010', 'Course 011', 'Course 012')`);
  await db.execute(sql`
    INSERT INTO class_group_members (tenant_id, class_group_id, user_id)
    SELECT ${t}::uuid, id, ${studentId}::uuid FROM class_groups
    WHERE tenant_id = ${t}::uuid AND name IN ('Group 009', 'Group 101')`);
}
