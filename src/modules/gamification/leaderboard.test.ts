import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { classGroupMembers, classGroups } from "../../db/schema/index.js";
import { fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeCourse } from "../../test-support/catalogue.js";
import { makeKey, signedInUser, type TestTenant } from "../../test-support/harness.js";
import { createUser } from "../users/service.js";

const { h, tenants, call } = useApi({ tenants: 2, env: MANY_STUDENTS });
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["gamification:read", "gamification:write"]);
  keyB = await makeKey(h, b, ["gamification:read", "gamification:write"]);
});

async function student(t: TestTenant, name: string) {
  const email = `${randomUUID()}@${t.slug}.test`;
  return createUser(
    h.database.db,
    h.config.plans,
    t.id,
    { kind: "system" },
    { name, email, role: "student" },
  );
}

async function points(t: TestTenant, userId: string, n: number, courseId?: string) {
  const res = await call(t, keyA, "POST", "/gamification/points", {
    userId,
    points: n,
    note: "test",
    courseId,
  });
  expect(res.statusCode, res.body).toBe(201);
}

const board = (t: TestTenant, who: string, query = "") =>
  call(t, who, "GET", `/gamification/leaderboard${query}`);

describe("leaderboards", () => {
  it("rank the institution, a course and a class group over time windows", async () => {
    const { courseId } = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }]);
    const [group] = await h.database.db
      .insert(classGroups)
      .values({ tenantId: a.id, name: "Turma A" })
      .returning({ id: classGroups.id });
    const classGroupId = (group as { id: string }).id;
    const ana = await student(a, "Ana");
    const bia = await student(a, "Bia");
    const caio = await student(a, "Caio");
    await h.database.db.insert(classGroupMembers).values([
      { tenantId: a.id, classGroupId, userId: ana.id },
      { tenantId: a.id, classGroupId, userId: caio.id },
    ]);
    await points(a, ana.id, 30);
    await points(a, bia.id, 50, courseId);
    await points(a, caio.id, 10, courseId);
    await points(a, caio.id, 5);
    const all = (await board(a, keyA, "?perPage=100")).json();
    const names = all.data.map((r: { name: string; points: number; rank: number }) => [
      r.rank,
      r.name,
      r.points,
    ]);
    expect(names).toEqual([
      [1, "Bia", 50],
      [2, "Ana", 30],
      [3, "Caio", 15],
    ]);
    expect(all.pagination).toMatchObject({ total: 3, totalRelation: "eq" });
    const course = (await board(a, keyA, `?scope=course&courseId=${courseId}`)).json();
    expect(course.data.map((r: { name: string; points: number }) => [r.name, r.points])).toEqual([
      ["Bia", 50],
      ["Caio", 10],
    ]);
    const klass = (
      await board(a, keyA, `?scope=class_group&classGroupId=${classGroupId}&period=week`)
    ).json();
    expect(klass.data.map((r: { name: string }) => r.name)).toEqual(["Ana", "Caio"]);
    const month = (await board(a, keyA, "?period=month&perPage=1&page=2")).json();
    expect(month.data).toEqual([{ rank: 2, userId: ana.id, name: "Ana", points: 30, me: false }]);
    // Last week's window is another row set: an old window does not leak into this one.
    await h.database.db.execute(sql`UPDATE gamification_standings SET window_start = window_start - 7
      WHERE tenant_id = ${a.id} AND period = 'week' AND user_id = ${caio.id}`);
    const week = (await board(a, keyA, `?scope=class_group&classGroupId=${classGroupId}&period=week`)).json();
    expect(week.data.map((r: { name: string }) => r.name)).toEqual(["Ana"]);
    // The rank in a user's summary.
    expect((await call(a, keyA, "GET", `/gamification/users/${caio.id}`)).json().rank).toBe(3);
    // Scope ids are checked, and another institution's are unknown.
    expect(fieldsOf(await board(a, keyA, "?scope=course"))).toEqual(["courseId"]);
    expect(fieldsOf(await board(b, keyB, `?scope=course&courseId=${courseId}`))).toEqual(["courseId"]);
    expect(fieldsOf(await board(b, keyB, `?scope=class_group&classGroupId=${classGroupId}`))).toEqual([
      "classGroupId",
    ]);
    expect((await board(b, keyB)).json().data).toEqual([]);
  });

  it("are closed to students unless enabled, and anonymised to them when the privacy setting says so", async () => {
    const me = await signedInUser(h, b, "student");
    const other = await student(b, "Outra Pessoa");
    await call(b, keyB, "POST", "/gamification/points", { userId: other.id, points: 20, note: "x" });
    await call(b, keyB, "POST", "/gamification/points", { userId: me.id, points: 10, note: "x" });
    expect((await board(b, me.cookie)).statusCode).toBe(404);
    await call(b, keyB, "PATCH", "/gamification/settings", {
      leaderboard: { enabled: true, anonymize: true },
    });
    const seen = (await board(b, me.cookie)).json();
    expect(seen.data).toEqual([
      { rank: 1, userId: null, name: "Learner #1", points: 20, me: false },
      { rank: 2, userId: me.id, name: expect.any(String), points: 10, me: true },
    ]);
    expect(JSON.stringify(seen)).not.toContain(other.id);
    expect(JSON.stringify(seen)).not.toContain("Outra Pessoa");
    // Staff always see names.
    expect((await board(b, keyB)).json().data[0]).toMatchObject({ userId: other.id, name: "Outra Pessoa" });
    await call(b, keyB, "PATCH", "/gamification/settings", { leaderboard: { anonymize: false } });
    expect((await board(b, me.cookie)).json().data[0]).toMatchObject({ name: "Outra Pessoa" });
  });
});
