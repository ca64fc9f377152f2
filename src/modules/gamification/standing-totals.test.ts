import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { classGroupMembers, classGroups } from "../../db/schema/index.js";
import { MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeCourse } from "../../test-support/catalogue.js";
import { makeKey, type TestTenant } from "../../test-support/harness.js";
import { createUser } from "../users/service.js";

// The leaderboard's totals are counters per window written at commit (migration 0067): exact, rolled back with
// their transaction, and taken without holding a lock before commit.
const { h, tenants, call } = useApi({ tenants: 1, env: MANY_STUDENTS });
const [a] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, a, ["gamification:read", "gamification:write"]);
});

async function student(t: TestTenant) {
  return createUser(
    h.database.db,
    h.config.plans,
    t.id,
    { kind: "system" },
    {
      name: `S ${randomUUID().slice(0, 6)}`,
      email: `${randomUUID()}@${t.slug}.test`,
      role: "student",
    },
  );
}

async function award(userId: string, points: number, courseId?: string) {
  const res = await call(a, key, "POST", "/gamification/points", { userId, points, note: "t", courseId });
  expect(res.statusCode, res.body).toBe(201);
}

/** Each window's counter next to the count of its standings; and what waits in counter_deltas. */
async function windows() {
  const rows = await queryRows<{ key: string; counted: number; counter: number | null }>(
    h.database.db,
    sql`SELECT s.scope || ':' || s.scope_id || ':' || s.period AS key, count(*)::int AS counted,
        (SELECT value::int FROM tenant_counters c WHERE c.tenant_id = s.tenant_id
          AND c.counter = 'gamification_standings:scope+scope_id+period+window_start:' || s.scope || ':'
            || s.scope_id || ':' || s.period || ':' || (to_jsonb(s.window_start) #>> '{}')) AS counter
      FROM gamification_standings s WHERE s.tenant_id = ${a.id}
      GROUP BY s.tenant_id, s.scope, s.scope_id, s.period, s.window_start ORDER BY 1`,
  );
  const [pending] = await queryRows<{ n: number }>(
    h.database.db,
    sql`SELECT count(*)::int AS n FROM counter_deltas`,
  );
  return { rows, pending: pending?.n };
}

const total = async (query = "") =>
  (await call(a, key, "GET", `/gamification/leaderboard?perPage=1${query}`)).json().pagination;

describe("leaderboard totals", () => {
  it("count each window's learners exactly, through awards, deletions and a rolled-back award", async () => {
    const { courseId } = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }]);
    const [group] = await h.database.db
      .insert(classGroups)
      .values({ tenantId: a.id, name: "Turma" })
      .returning({ id: classGroups.id });
    const classGroupId = (group as { id: string }).id;
    const people = await Promise.all([student(a), student(a), student(a)]);
    const [p1, p2, p3] = people.map((p) => p.id) as [string, string, string];
    await h.database.db.insert(classGroupMembers).values([{ tenantId: a.id, classGroupId, userId: p1 }]);
    await award(p1, 10, courseId);
    await award(p2, 20, courseId);
    await award(p2, 5);
    await award(p3, 7);
    const after = await windows();
    // Institution, course and class group, each in three windows.
    expect(after.rows).toHaveLength(9);
    for (const w of after.rows) expect(w.counter, w.key).toBe(w.counted);
    expect(after.pending).toBe(0);
    expect(await total()).toMatchObject({ total: 3, totalRelation: "eq" });
    expect(await total(`&scope=course&courseId=${courseId}&period=week`)).toMatchObject({ total: 2 });
    expect(await total(`&scope=class_group&classGroupId=${classGroupId}`)).toMatchObject({ total: 1 });

    // A transaction that awards and then fails leaves no count behind.
    const p4 = (await student(a)).id;
    await expect(
      h.database.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO gamification_standings
          (tenant_id, scope, scope_id, period, window_start, user_id, points)
          VALUES (${a.id}, 'institution', ${a.id}, 'all_time', DATE '1970-01-01', ${p4}, 1)`);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await total()).toMatchObject({ total: 3 });

    await h.database.db.execute(
      sql`DELETE FROM gamification_standings WHERE tenant_id = ${a.id} AND user_id = ${p2}`,
    );
    const deleted = await windows();
    for (const w of deleted.rows) expect(w.counter, w.key).toBe(w.counted);
    expect(deleted.pending).toBe(0);
    expect(await total()).toMatchObject({ total: 2 });
    expect(await total(`&scope=course&courseId=${courseId}&period=month`)).toMatchObject({ total: 1 });
  });

  // Two connections are needed to see who waits for whom: PostgreSQL only.
  it.skipIf(process.env.DATABASE_URL === undefined)(
    "an award that opens a window does not wait for another open transaction that opened it too",
    async () => {
      const [x, y] = await Promise.all([student(a), student(a)]);
      const standing = (userId: string) => sql`INSERT INTO gamification_standings
        (tenant_id, scope, scope_id, period, window_start, user_id, points)
        VALUES (${a.id}, 'institution', ${a.id}, 'all_time', DATE '1970-01-01', ${userId}, 1)`;
      const before = (await total()).total as number;
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted = () => {};
      const firstIn = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      // The first transaction inserts and stays open; with counters taken by the statement it would hold the
      // window's counter row until commit, and the second would wait for it.
      const first = h.database.db.transaction(async (tx) => {
        await tx.execute(standing(x.id));
        inserted();
        await held;
      });
      await firstIn;
      const second = h.database.db.transaction(async (tx) => {
        await tx.execute(standing(y.id));
      });
      const outcome = await Promise.race([
        second.then(() => "committed"),
        new Promise((resolve) => setTimeout(() => resolve("waited"), 2_000)),
      ]);
      release();
      await Promise.all([first, second]);
      expect(outcome).toBe("committed");
      expect((await total()).total).toBe(before + 2);
    },
  );
});
