import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { bearer, makeKey } from "../../test-support/harness.js";
import { captureStatements, explainPlan, planNodes, rowsRead } from "../../test-support/plans.js";

/**
 * The seats GET /billing/subscription reports at 50,000 enrolled students: read from the students' counter and
 * the non-students' enrollments (the limit check's own reads, users/student-limit.ts), never by walking the
 * students or their enrollments.
 */
const SIZE = 50_000;
const TEACHERS = 5;
const { h, tenants } = useApi({
  tenants: 1,
  env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 100_000 }) },
});
const [t] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, t, ["settings:read"]);
  const db = h.database.db;
  await db.execute(sql`
    INSERT INTO users (tenant_id, name, email, role, status, created_at)
    SELECT ${t.id}::uuid, 'Student ' || i, 'student' || i || '@big.test', 'student', 'active',
           timestamptz '2024-01-01' + i * interval '1 minute'
    FROM generate_series(1, ${SIZE}) AS i`);
  // Every student enrolled in a course, and a few teachers too: three as students, two teaching.
  await db.execute(sql`
    INSERT INTO users (tenant_id, name, email, role, status)
    SELECT ${t.id}::uuid, 'Teacher ' || i, 'teacher' || i || '@big.test', 'teacher', 'active'
    FROM generate_series(1, ${TEACHERS}) AS i`);
  await db.execute(sql`
    INSERT INTO courses (tenant_id, title, status) VALUES (${t.id}::uuid, 'Big course', 'published')`);
  await db.execute(sql`
    INSERT INTO enrollments (tenant_id, user_id, course_id, role)
    SELECT u.tenant_id, u.id, c.id,
           CASE WHEN u.role = 'teacher' AND u.name IN ('Teacher 1', 'Teacher 2') THEN 'teacher' ELSE 'student' END
    FROM users u, courses c
    WHERE u.tenant_id = ${t.id}::uuid AND c.tenant_id = u.tenant_id AND u.role <> 'institution_admin'`);
  await db.execute(sql`ANALYZE users`);
  await db.execute(sql`ANALYZE enrollments`);
}, 240_000);

describe("the seats of GET /billing/subscription at 50,000 students", () => {
  it("counts them without reading the students' rows", async () => {
    let students: unknown;
    const statements = await captureStatements(h, async () => {
      const res = await h.inject({
        method: "GET",
        url: "/api/institution/billing/subscription",
        headers: { host: t.host, ...bearer(key) },
      });
      expect(res.statusCode, res.body).toBe(200);
      students = res.json().students;
    });
    expect(students).toEqual({ used: SIZE + TEACHERS - 2, limit: 100_000 });
    const reading = statements.filter((s) => /from "?users"?/i.test(s.sql) && !/api_keys/i.test(s.sql));
    expect(reading.length).toBeGreaterThan(0);
    for (const s of reading) {
      const plan = await explainPlan(h, s.sql, s.params, { analyze: true });
      // The administrator and the teachers, and their few enrollments: not the students, not their enrollments.
      expect(rowsRead(plan, "users"), s.sql).toBeLessThanOrEqual(TEACHERS + 1);
      expect(rowsRead(plan, "enrollments"), s.sql).toBeLessThanOrEqual(TEACHERS);
      expect(planNodes(plan).filter((n) => n["Node Type"] === "Seq Scan")).toEqual([]);
    }
  });
});
