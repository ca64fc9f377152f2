import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { platformEvents } from "../../db/schema/index.js";
import { fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { makeKey, roleCookie, signedInUser, type TestTenant } from "../../test-support/harness.js";
import { EVENT_SAMPLES } from "../events/catalogue.js";
import { emitEvent } from "../events/emit.js";
import { createUser } from "../users/service.js";

const { h, tenants, call } = useApi({ tenants: 2, env: MANY_STUDENTS });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
let readOnlyA: string;

beforeAll(async () => {
  const scopes = [
    "gamification:read",
    "gamification:write",
    "courses:write",
    "courses:read",
    "enrollments:write",
  ];
  keyA = await makeKey(h, a, scopes);
  keyB = await makeKey(h, b, scopes);
  readOnlyA = await makeKey(h, a, ["gamification:read"]);
});

async function student(t: TestTenant, name = "Aluna") {
  const email = `${randomUUID()}@${t.slug}.test`;
  return createUser(
    h.database.db,
    h.config.plans,
    t.id,
    { kind: "system" },
    { name, email, role: "student" },
  );
}

const eventsOf = (t: TestTenant, type: string) =>
  h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, type)));

async function settings(t: TestTenant, key: string, body: Record<string, unknown>) {
  const res = await call(t, key, "PATCH", "/gamification/settings", body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const complete = (t: TestTenant, key: string, lessonId: string, userId: string) =>
  call(t, key, "PUT", `/lessons/${lessonId}/completions/${userId}`, {});

async function balance(t: TestTenant, userId: string) {
  const res = await call(t, keyA, "GET", `/gamification/users/${userId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe("settings", () => {
  it("read as defaults, change key by key, and refuse bad rules and levels", async () => {
    const fresh = await call(b, keyB, "GET", "/gamification/settings");
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toMatchObject({
      enabled: false,
      pointRules: [],
      leaderboard: { scope: "institution" },
    });
    const bad = await call(b, keyB, "PATCH", "/gamification/settings", {
      pointRules: [
        { event: "lesson_completed", points: 5 },
        { event: "lesson_completed", points: 6 },
        { event: "points_awarded", points: 1 },
        { event: "no_such_event", points: 1 },
      ],
      levels: [
        { level: 1, name: "A", minPoints: 10 },
        { level: 2, name: "B", minPoints: 5 },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toEqual([
      "levels.0.minPoints",
      "levels.1.minPoints",
      "pointRules.1.event",
      "pointRules.2.event",
      "pointRules.3.event",
    ]);
    const out = await settings(b, keyB, { leaderboard: { anonymize: true } });
    expect(out.leaderboard).toEqual({
      enabled: false,
      scope: "institution",
      period: "all_time",
      anonymize: true,
    });
    const tooMany = await call(b, keyB, "PATCH", "/gamification/settings", {
      pointRules: [{ event: "x", points: 5000 }],
    });
    expect(tooMany.statusCode).toBe(400);
    // Students and read-only keys do not change settings.
    expect((await call(a, readOnlyA, "PATCH", "/gamification/settings", { enabled: true })).statusCode).toBe(
      403,
    );
    const teacher = await roleCookie(h, a, "teacher");
    expect((await call(a, teacher, "PATCH", "/gamification/settings", { enabled: true })).statusCode).toBe(
      403,
    );
  });
});

describe("point rules", () => {
  it("award once per source in the completion's transaction, with level_up, and never twice", async () => {
    const { courseId, lessonIds } = await makeCourse(h.database.db, a.id, [{ lessons: [{}, {}, {}] }]);
    await settings(a, keyA, {
      enabled: true,
      pointRules: [{ event: "lesson_completed", points: 10 }],
      levels: [
        { level: 1, name: "Novice", minPoints: 0 },
        { level: 2, name: "Explorer", minPoints: 20 },
      ],
    });
    const s = await student(a);
    await enrollDirectly(h.database.db, a.id, s.id, courseId);
    const [l1, l2] = lessonIds as [string, string];
    expect((await complete(a, keyA, l1, s.id)).statusCode).toBe(201);
    expect((await balance(a, s.id)).points).toBe(10);
    // Reset and complete again: the same lesson is the same source, so nothing more.
    expect((await call(a, keyA, "DELETE", `/lessons/${l1}/completions/${s.id}`)).statusCode).toBe(204);
    expect((await complete(a, keyA, l1, s.id)).statusCode).toBe(201);
    expect((await balance(a, s.id)).points).toBe(10);
    await complete(a, keyA, l2, s.id);
    const after = await balance(a, s.id);
    expect(after).toMatchObject({ points: 20, level: 2, levelName: "Explorer", rank: expect.any(Number) });
    const awarded = (await eventsOf(a, "points_awarded")).filter(
      (e) => (e.data as { userId: string }).userId === s.id,
    );
    expect(awarded).toHaveLength(2);
    const ups = (await eventsOf(a, "level_up")).filter((e) => (e.data as { userId: string }).userId === s.id);
    expect(ups.map((e) => e.data)).toEqual([
      expect.objectContaining({ level: 2, previousLevel: 1, balance: 20 }),
    ]);
    // The award and its event were written with the completion: the source event's id is on the entry.
    const ledger = (await call(a, keyA, "GET", `/gamification/users/${s.id}/points`)).json();
    expect(ledger.pagination.total).toBe(2);
    expect(ledger.data[0]).toMatchObject({ reason: "rule", ruleEvent: "lesson_completed", balanceAfter: 20 });
    const source = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.id, ledger.data[0].eventId)));
    expect(source[0]?.type).toBe("lesson_completed");
  });

  it("cannot be farmed by concurrent completions: the daily cap and the cooldown hold exactly", async () => {
    const { courseId, lessonIds } = await makeCourse(h.database.db, a.id, [
      { lessons: Array.from({ length: 12 }, () => ({})) },
    ]);
    await settings(a, keyA, {
      enabled: true,
      pointRules: [
        { event: "lesson_completed", points: 7, dailyCap: 30 },
        { event: "enrollment_progressed", points: 1, cooldownSeconds: 3600 },
      ],
    });
    const s = await student(a);
    await enrollDirectly(h.database.db, a.id, s.id, courseId);
    const results = await Promise.all(lessonIds.map((l) => complete(a, keyA, l, s.id)));
    expect(results.map((r) => r.statusCode)).toEqual(lessonIds.map(() => 201));
    const rows =
      (await h.database.db.execute(sql`SELECT rule_event, sum(points)::int AS total, count(*)::int AS n
      FROM gamification_ledger WHERE tenant_id = ${a.id} AND user_id = ${s.id} GROUP BY rule_event
      ORDER BY rule_event`)) as unknown as { rows: { rule_event: string; total: number; n: number }[] };
    // 7+7+7+7 = 28, then 2 left of the cap of 30; the cooldown lets one progress event through.
    expect(rows.rows).toEqual([
      { rule_event: "enrollment_progressed", total: 1, n: 1 },
      { rule_event: "lesson_completed", total: 30, n: 5 },
    ]);
    expect((await balance(a, s.id)).points).toBe(31);
  });

  it("hold under concurrent transactions that share no other lock (the balance row serialises them)", async () => {
    await settings(a, keyA, {
      enabled: true,
      pointRules: [
        { event: "user_updated", points: 5, cooldownSeconds: 3600 },
        { event: "user_tag_added", points: 4, dailyCap: 10 },
      ],
    });
    const s = await student(a);
    const subject = { id: s.id, name: s.name, email: s.email, role: "student" };
    // Events with no source of their own (each is its own source): only the cooldown and the cap bound them.
    const fire = (type: "user_updated" | "user_tag_added") =>
      h.database.db.transaction((tx) =>
        emitEvent(tx, {
          tenantId: a.id,
          type,
          data: EVENT_SAMPLES[type] as never,
          actor: { type: "system" },
          subject,
        }),
      );
    await Promise.all([
      ...Array.from({ length: 15 }, () => fire("user_updated")),
      ...Array.from({ length: 15 }, () => fire("user_tag_added")),
    ]);
    expect((await balance(a, s.id)).points).toBe(5 + 10);
    const fired = (await eventsOf(a, "user_tag_added")).filter(
      (e) => (e.subject as { id: string }).id === s.id,
    );
    expect(fired).toHaveLength(15);
  });

  it("multiply by score, and ignore staff", async () => {
    const { courseId, lessonIds } = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }]);
    await settings(a, keyA, {
      pointRules: [{ event: "lesson_completed", points: 50, multiplyByScore: true }],
    });
    const s = await student(a);
    await enrollDirectly(h.database.db, a.id, s.id, courseId);
    const res = await call(a, keyA, "PUT", `/lessons/${lessonIds[0]}/completions/${s.id}`, {
      scorePercent: 80,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await balance(a, s.id)).points).toBe(40);
    const teacher = await signedInUser(h, a, "teacher");
    await enrollDirectly(h.database.db, a.id, teacher.id, courseId);
    await call(a, keyA, "PUT", `/lessons/${lessonIds[0]}/completions/${teacher.id}`, { scorePercent: 80 });
    expect((await balance(a, teacher.id)).points).toBe(0);
  });
});

describe("manual points and the ledger", () => {
  it("add and deduct, append only, with balances after each entry", async () => {
    const s = await student(a);
    const plus = await call(a, keyA, "POST", "/gamification/points", {
      userId: s.id,
      points: 15,
      note: "Help",
    });
    expect(plus.statusCode, plus.body).toBe(201);
    expect(plus.json()).toMatchObject({ points: 15, reason: "manual", balanceAfter: 15, note: "Help" });
    const minus = await call(a, keyA, "POST", "/gamification/points", {
      userId: s.id,
      points: -5,
      note: "Fix",
    });
    expect(minus.json()).toMatchObject({ points: -5, reason: "adjustment", balanceAfter: 10 });
    const zero = await call(a, keyA, "POST", "/gamification/points", { userId: s.id, points: 0, note: "x" });
    expect(zero.statusCode).toBe(400);
    const unknown = await call(a, keyA, "POST", "/gamification/points", {
      userId: randomUUID(),
      points: 1,
      note: "x",
    });
    expect(fieldsOf(unknown)).toEqual(["userId"]);
    // Another tenant's user is unknown here.
    const other = await student(b);
    const cross = await call(a, keyA, "POST", "/gamification/points", {
      userId: other.id,
      points: 1,
      note: "x",
    });
    expect(cross.statusCode).toBe(400);
    const list = (await call(a, readOnlyA, "GET", `/gamification/users/${s.id}/points?perPage=1`)).json();
    expect(list.pagination).toEqual({ page: 1, perPage: 1, total: 2, totalPages: 2 });
    expect(list.data[0].balanceAfter).toBe(10);
    await expect(
      h.database.db.execute(sql`UPDATE gamification_ledger SET points = 1000 WHERE tenant_id = ${a.id}`),
    ).rejects.toThrow();
    await expect(
      h.database.db.execute(sql`DELETE FROM gamification_ledger WHERE tenant_id = ${a.id}`),
    ).rejects.toThrow();
    // A read-only key cannot add; another tenant's key does not see the user.
    expect(
      (await call(a, readOnlyA, "POST", "/gamification/points", { userId: s.id, points: 1, note: "x" }))
        .statusCode,
    ).toBe(403);
    expect((await call(b, keyB, "GET", `/gamification/users/${s.id}/points`)).statusCode).toBe(404);
    expect((await call(b, keyB, "GET", `/gamification/users/${s.id}`)).statusCode).toBe(404);
  });

  it("a student reads its own summary and ledger only", async () => {
    const me = await signedInUser(h, a, "student");
    const other = await student(a);
    expect((await call(a, me.cookie, "GET", `/gamification/users/${me.id}`)).statusCode).toBe(200);
    expect((await call(a, me.cookie, "GET", `/gamification/users/${me.id}/points`)).statusCode).toBe(200);
    expect((await call(a, me.cookie, "GET", `/gamification/users/${other.id}`)).statusCode).toBe(404);
    expect((await call(a, me.cookie, "GET", `/gamification/users/${other.id}/points`)).statusCode).toBe(404);
    expect(
      (await call(a, me.cookie, "POST", "/gamification/points", { userId: me.id, points: 5, note: "x" }))
        .statusCode,
    ).toBe(403);
  });
});
