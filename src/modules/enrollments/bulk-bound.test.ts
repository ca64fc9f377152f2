/**
 * Issue 19, point 3: enrollments/bulk at its limit (1,000 students in a course) must not hold the event loop for
 * the whole call: its statements are built and run a chunk of rows at a time, the loop turning between them.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { enrollments, tenants } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { bearer, json, makeKey, makeTenant } from "../../test-support/harness.js";
import { measureLoopBlock } from "../../test-support/loop-block.js";

/** The longest silence allowed, as a share of the call (see users/bulk-bound.test.ts): the call itself before. */
const MAX_SHARE = 0.4;

const { h } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 3, mini: 2000 }) } });

describe("POST /enrollments/bulk at its limit", () => {
  it("enrolls 1,000 students without blocking the event loop for the whole batch", async () => {
    const t = await makeTenant(h);
    await h.database.db.update(tenants).set({ plan: "mini" }).where(eq(tenants.id, t.id));
    const key = await makeKey(h, t, []);
    const headers = { host: t.host, ...json, ...bearer(key) };
    const created = (await h.database.db.execute(sql`
      INSERT INTO users (tenant_id, name, email, role, status)
      SELECT ${t.id}, 'Student ' || g, 'student' || g || '@x.test', 'student', 'active'
      FROM generate_series(1, 1000) g RETURNING id`)) as unknown as { rows: { id: string }[] };
    const course = await h.inject({
      method: "POST",
      url: "/api/institution/courses",
      headers,
      payload: { title: "c" },
    });
    const courseId = JSON.parse(course.body).id as string;
    const items = created.rows.map((r) => ({ userId: r.id, courseId }));
    // Warm the route so the measure is the batch's own work.
    const other = await h.inject({
      method: "POST",
      url: "/api/institution/courses",
      headers,
      payload: { title: "w" },
    });
    await h.inject({
      method: "POST",
      url: "/api/institution/enrollments/bulk",
      headers,
      payload: { items: [{ userId: created.rows[0]?.id, courseId: JSON.parse(other.body).id }] },
    });

    const {
      result: res,
      maxBlockMs,
      elapsedMs,
    } = await measureLoopBlock(() =>
      h.inject({ method: "POST", url: "/api/institution/enrollments/bulk", headers, payload: { items } }),
    );
    console.info(
      `enrollments/bulk 1,000: loop max ${maxBlockMs.toFixed(1)} ms, request ${elapsedMs.toFixed(0)} ms`,
    );

    expect(res.statusCode).toBe(200);
    const results = JSON.parse(res.body).results as { status: string }[];
    expect(results.filter((r) => r.status === "created")).toHaveLength(1000);
    const [n] = await h.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(enrollments)
      .where(eq(enrollments.courseId, courseId));
    expect(n?.n).toBe(1000);
    expect(maxBlockMs).toBeLessThan(elapsedMs * MAX_SHARE);
  });
});
