import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { classGroupMembers, platformEvents } from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { makeKey, makeUser } from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 2 });
const [t, other] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, t, ["classes:read", "classes:write", "users:read", "users:write"]);
});

const send = callerFor(h, () => ({ tenant: t, credential: key }), WHOLE_PATHS);

async function newClass(payload: Record<string, unknown> = {}): Promise<string> {
  const res = await send("POST", "/api/institution/classes", { name: "Turma", ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const add = (classId: string, body: object) =>
  send("POST", `/api/institution/classes/${classId}/members`, body);

async function events(type: string, classId: string) {
  return h.database.db
    .select()
    .from(platformEvents)
    .where(
      and(
        eq(platformEvents.tenantId, t.id),
        eq(platformEvents.type, type),
        sql`${platformEvents.data}->>'classGroupId' = ${classId}`,
      ),
    );
}

interface Result {
  index: number;
  userId: string;
  status: string;
  reason?: string;
  member?: { userId: string; role: string; name: string };
  error?: { error: string; message: string; details?: { field: string; message: string }[] };
}

describe("adding members", () => {
  it("adds, skips and fails per item in order, within capacity, and emits one event per member added", async () => {
    const classId = await newClass({ capacity: 3 });
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => makeUser(h, t, "student")));
    const foreignUser = await makeUser(h, other, "student");
    const unknown = randomUUID();
    expect((await add(classId, { userIds: [a?.id] })).json().results[0].status).toBe("created");

    const res = await add(classId, {
      userIds: [b?.id, a?.id, unknown, c?.id.toUpperCase(), foreignUser.id, d?.id],
      role: "leader",
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { results: Result[]; summary: object };
    expect(body.results.map((r) => [r.index, r.status, r.reason ?? r.error?.error ?? null])).toEqual([
      [0, "created", null],
      [1, "skipped", "already_member"],
      [2, "failed", "validation_failed"],
      [3, "created", null],
      [4, "failed", "validation_failed"],
      [5, "failed", "conflict"],
    ]);
    expect(body.summary).toEqual({ total: 6, created: 2, skipped: 1, failed: 3 });
    expect(body.results[0]?.member).toMatchObject({ userId: b?.id, role: "leader", name: b?.name });
    expect(body.results[2]?.error).toEqual({
      error: "validation_failed",
      message: "The request is not valid. See details for each field.",
      details: [{ field: "userIds[2]", message: `Unknown user: ${unknown}.` }],
    });
    expect(body.results[5]?.error?.message).toBe("The class is full: it admits at most 3 members.");

    const rows = await h.database.db
      .select({ userId: classGroupMembers.userId })
      .from(classGroupMembers)
      .where(and(eq(classGroupMembers.tenantId, t.id), eq(classGroupMembers.classGroupId, classId)));
    expect(rows.map((r) => r.userId).sort()).toEqual([a?.id, b?.id, c?.id].sort());
    const added = await events("class_member_added", classId);
    expect(added).toHaveLength(3);
    const forB = added.find((e) => (e.data as { userId: string }).userId === b?.id);
    expect(forB?.data).toEqual({ classGroupId: classId, userId: b?.id, role: "leader" });
    expect(forB?.subject).toMatchObject({ id: b?.id, email: b?.email });
    expect((await send("GET", `/api/institution/classes/${classId}`)).json().memberCount).toBe(3);
  });

  it("keeps capacity under concurrent additions", async () => {
    const classId = await newClass({ capacity: 2 });
    const users = await Promise.all([1, 2, 3, 4].map(() => makeUser(h, t, "teacher")));
    const responses = await Promise.all(users.map((u) => add(classId, { userIds: [u.id] })));
    const created = responses.filter((r) => r.json().results[0].status === "created");
    expect(created).toHaveLength(2);
    expect((await send("GET", `/api/institution/classes/${classId}`)).json().memberCount).toBe(2);
  });

  it("answers 404 for an unknown or foreign class and 400 for bad bodies", async () => {
    const u = await makeUser(h, t, "student");
    expect((await add(randomUUID(), { userIds: [u.id] })).statusCode).toBe(404);
    for (const body of [
      { userIds: [] },
      { userIds: ["x"] },
      { userIds: [u.id, u.id] },
      { userIds: [u.id], role: "owner" },
    ]) {
      expect((await add(await newClass(), body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("listing and removing members", () => {
  it("lists members with their user, filters by role and sorts, with exact totals", async () => {
    const classId = await newClass();
    const s1 = await makeUser(h, t, "student");
    const s2 = await makeUser(h, t, "student");
    const teacher = await makeUser(h, t, "teacher");
    await add(classId, { userIds: [s1.id, s2.id] });
    await add(classId, { userIds: [teacher.id], role: "teacher" });
    const list = async (q = "") =>
      (await send("GET", `/api/institution/classes/${classId}/members${q}`)).json();
    const all = await list();
    expect(all.pagination.total).toBe(3);
    expect(all.data[0]).toEqual({
      userId: teacher.id,
      name: teacher.name,
      email: teacher.email,
      role: "teacher",
      joinedAt: expect.stringMatching(/Z$/),
    });
    const teachers = await list("?role=teacher");
    expect(teachers.data.map((m: { userId: string }) => m.userId)).toEqual([teacher.id]);
    expect(teachers.pagination.total).toBe(1);
    const byName = await list("?sort=name");
    const expected = [s1, s2, teacher]
      .map((u) => u.name)
      .sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase()));
    expect(byName.data.map((m: { name: string }) => m.name)).toEqual(expected);
    expect((await send("GET", `/api/institution/classes/${randomUUID()}/members`)).statusCode).toBe(404);
  });

  it("removes a member with 204 and class_member_removed; a non-member is 404", async () => {
    const classId = await newClass();
    const u = await makeUser(h, t, "student");
    await add(classId, { userIds: [u.id] });
    const res = await send("DELETE", `/api/institution/classes/${classId}/members/${u.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    const removed = await events("class_member_removed", classId);
    expect(removed.map((e) => e.data)).toEqual([{ classGroupId: classId, userId: u.id }]);
    expect((await send("DELETE", `/api/institution/classes/${classId}/members/${u.id}`)).statusCode).toBe(
      404,
    );
    expect((await send("DELETE", `/api/institution/classes/${classId}/members/nope`)).statusCode).toBe(404);
  });
});

describe("memberships shared with the users API", () => {
  it("shows members added here in the user's classGroupIds, and the users API respects capacity", async () => {
    const classId = await newClass({ capacity: 1 });
    const u = await makeUser(h, t, "teacher");
    await add(classId, { userIds: [u.id] });
    const user = await send("GET", `/api/institution/users/${u.id}`);
    expect(user.json().classGroupIds).toEqual([classId]);
    const viaUsers = await send("POST", "/api/institution/users", {
      name: "Late",
      email: `late@${t.slug}.test`,
      role: "teacher",
      classGroupIds: [classId],
    });
    expect(viaUsers.statusCode).toBe(409);
    expect(viaUsers.json().message).toBe("The class is full: it admits at most 1 member.");
    const members = await send("GET", `/api/institution/classes/${classId}/members`);
    expect(members.json().data.map((m: { userId: string }) => m.userId)).toEqual([u.id]);
  });

  it("lists members added through the users API with a role from the user's role", async () => {
    const classId = await newClass();
    const res = await send("POST", "/api/institution/users", {
      name: "Prof",
      email: `prof@${t.slug}.test`,
      role: "teacher",
      classGroupIds: [classId],
    });
    expect(res.statusCode).toBe(201);
    const members = (await send("GET", `/api/institution/classes/${classId}/members`)).json();
    expect(members.data).toEqual([expect.objectContaining({ userId: res.json().id, role: "teacher" })]);
    expect(members.pagination.total).toBe(1);
  });
});
