/**
 * Issue 19, point 3: a users/bulk call at its limit (1,000 users, each a student in a class group, which takes
 * the plan's student lock, the class lock, the memberships and the events) must not hold the event loop: its
 * statements are built and run a few hundred rows at a time, so another tenant's request waits at most one chunk.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { classGroupMembers, classGroups, tenants, users } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { bearer, json, makeKey, makeTenant } from "../../test-support/harness.js";
import { measureLoopBlock } from "../../test-support/loop-block.js";

/**
 * The longest silence allowed, as a share of the call: before the change the loop did not turn once during the
 * whole call (a chain of PGlite answers that settle at once, and a statement of 1,000 rows), so the longest
 * silence was the call itself; with a few hundred rows a statement it is one chunk. A share rather than
 * milliseconds, so a loaded machine (2 cores for many runs) slows both sides alike.
 */
const MAX_SHARE = 0.4;

const { h } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 3, mini: 2000 }) } });

describe("POST /users/bulk at its limit", () => {
  it("creates 1,000 students in a class group without blocking the event loop for a whole batch", async () => {
    const t = await makeTenant(h);
    await h.database.db.update(tenants).set({ plan: "mini" }).where(eq(tenants.id, t.id));
    const group = (
      await h.database.db.insert(classGroups).values({ tenantId: t.id, name: "Turma" }).returning()
    )[0] as { id: string };
    const key = await makeKey(h, t, ["users:write"]);
    const items = Array.from({ length: 1000 }, (_, i) => ({
      name: `Student ${i}`,
      email: `student${i}@${t.slug}.test`,
      role: "student",
      classGroupIds: [group.id],
    }));
    // Warm the route (schemas compiled, statements prepared) so the measure is the batch's own work.
    await h.inject({
      method: "POST",
      url: "/api/institution/users/bulk",
      headers: { host: t.host, ...json, ...bearer(key) },
      payload: { items: [{ name: "Warm", email: `warm@${t.slug}.test`, role: "teacher" }] },
    });

    const {
      result: res,
      maxBlockMs,
      elapsedMs,
    } = await measureLoopBlock(() =>
      h.inject({
        method: "POST",
        url: "/api/institution/users/bulk",
        headers: { host: t.host, ...json, ...bearer(key) },
        payload: { items },
      }),
    );
    console.info(
      `users/bulk 1,000: loop max ${maxBlockMs.toFixed(1)} ms, request ${elapsedMs.toFixed(0)} ms`,
    );

    expect(res.statusCode).toBe(200);
    const results = JSON.parse(res.body).results as { status: string }[];
    expect(results.filter((r) => r.status === "created")).toHaveLength(1000);
    const [students] = await h.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(sql`${users.tenantId} = ${t.id} and ${users.role} = 'student'`);
    expect(students?.n).toBe(1000);
    const [members] = await h.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(classGroupMembers)
      .where(eq(classGroupMembers.classGroupId, group.id));
    expect(members?.n).toBe(1000);
    expect(maxBlockMs).toBeLessThan(elapsedMs * MAX_SHARE);
  });
});
