import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { classGroupMembers, classGroups, enrollments, platformEvents } from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { bearer, json, makeKey, makeTenant, makeUser, roleCookie } from "../../test-support/harness.js";
import { createCourse } from "../courses/service.js";

const { h, tenants } = useApi({ tenants: 2 });
const [t, other] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, t, ["classes:read", "classes:write"]);
});

const send = callerFor(h, () => ({ tenant: t, credential: key }), WHOLE_PATHS);

async function create(payload: Record<string, unknown>) {
  const res = await send("POST", "/api/institution/classes", payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const course = async (tenant = t) => (await createCourse(h.database.db, tenant.id, { title: "Curso" })).id;

describe("creating and reading classes", () => {
  it("creates a class with every field and answers the full record", async () => {
    const c1 = await course();
    const res = await send("POST", "/api/institution/classes", {
      name: "Turma A",
      code: "TA-1",
      description: "Manhã",
      capacity: 30,
      courseIds: [c1],
      startsAt: "2026-02-01T10:00:00Z",
      endsAt: "2026-06-30T10:00:00Z",
      status: "active",
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        "capacity",
        "code",
        "courseIds",
        "createdAt",
        "description",
        "endsAt",
        "id",
        "memberCount",
        "name",
        "startsAt",
        "status",
        "updatedAt",
      ].sort(),
    );
    expect(body).toMatchObject({
      name: "Turma A",
      code: "TA-1",
      capacity: 30,
      courseIds: [c1],
      startsAt: "2026-02-01T10:00:00.000Z",
      endsAt: "2026-06-30T10:00:00.000Z",
      memberCount: 0,
      status: "active",
    });
    const got = await send("GET", `/api/institution/classes/${body.id}`);
    expect(got.json()).toEqual(body);
  });

  it("defaults optional fields", async () => {
    const body = await create({ name: "Mínima" });
    expect(body).toMatchObject({
      code: null,
      description: null,
      capacity: null,
      courseIds: [],
      startsAt: null,
      endsAt: null,
      status: "active",
    });
  });

  it("answers 409 for a code already used in the tenant, not in another", async () => {
    await create({ name: "X", code: "DUP" });
    const dup = await send("POST", "/api/institution/classes", { name: "Y", code: "DUP" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({
      error: "conflict",
      message: "A class with this code already exists in this institution.",
    });
    const keyB = await makeKey(h, other, ["classes:write"]);
    const inB = await h.inject({
      method: "POST",
      url: "/api/institution/classes",
      headers: { host: other.host, ...json, ...bearer(keyB) },
      payload: { name: "Y", code: "DUP" },
    });
    expect(inB.statusCode).toBe(201);
  });

  it("refuses unknown courses (another tenant's too), dates out of order and bad fields, with details", async () => {
    const foreign = await course(other);
    const res = await send("POST", "/api/institution/classes", {
      name: "Z",
      courseIds: [foreign],
      startsAt: "2026-06-01T00:00:00Z",
      endsAt: "2026-05-01T00:00:00Z",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { field: "courseIds[0]", message: `Unknown course: ${foreign}.` },
      { field: "endsAt", message: "Must be later than startsAt." },
    ]);
    const bad = await send("POST", "/api/institution/classes", {
      name: "",
      capacity: 0,
      code: "x".repeat(51),
      tenantId: other.id,
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(["capacity", "code", "name", "tenantId"]);
    const rows = await h.database.db.select().from(classGroups).where(eq(classGroups.name, "Z"));
    expect(rows).toHaveLength(0);
  });

  it("answers 404 for malformed, unknown and foreign ids", async () => {
    const foreign = await h.database.db
      .insert(classGroups)
      .values({ tenantId: other.id, name: "B" })
      .returning({ id: classGroups.id });
    for (const id of ["nope", "00000000-0000-4000-8000-000000000000", foreign[0]?.id]) {
      expect((await send("GET", `/api/institution/classes/${id}`)).statusCode).toBe(404);
    }
  });
});

describe("listing classes", () => {
  it("filters by status, search (name and code, accents ignored) and course, sorts, with exact totals", async () => {
    const t2 = await makeTenant(h);
    const k2 = await makeKey(h, t2, ["classes:read", "classes:write"]);
    const c = await createCourse(h.database.db, t2.id, { title: "Curso" });
    const post = (payload: object) =>
      h.inject({
        method: "POST",
        url: "/api/institution/classes",
        headers: { host: t2.host, ...json, ...bearer(k2) },
        payload,
      });
    await post({ name: "Álgebra Manhã", code: "ALG-M", courseIds: [c.id] });
    await post({ name: "Biologia", code: "BIO", status: "archived" });
    await post({ name: "cálculo", code: "CALC-ALG" });
    const list = async (q: string) =>
      (
        await h.inject({
          method: "GET",
          url: `/api/institution/classes${q}`,
          headers: { host: t2.host, ...bearer(k2) },
        })
      ).json();
    const all = await list("");
    expect(all.data.map((x: { name: string }) => x.name)).toEqual(["cálculo", "Biologia", "Álgebra Manhã"]);
    expect(all.pagination.total).toBe(3);
    expect((await list("?status=archived")).pagination.total).toBe(1);
    expect((await list("?status=active")).pagination.total).toBe(2);
    const search = await list("?search=alg&sort=name");
    expect(search.data.map((x: { name: string }) => x.name)).toEqual(["Álgebra Manhã", "cálculo"]);
    expect(search.pagination.total).toBe(2);
    const byCourse = await list(`?courseId=${c.id}`);
    expect(byCourse.data.map((x: { name: string }) => x.name)).toEqual(["Álgebra Manhã"]);
    expect(byCourse.pagination.total).toBe(1);
    expect((await list("?sort=-name")).data.map((x: { name: string }) => x.name)).toEqual([
      "cálculo",
      "Biologia",
      "Álgebra Manhã",
    ]);
    expect((await list("?sort=createdAt&perPage=1")).data[0].name).toBe("Álgebra Manhã");
    const bad = await h.inject({
      method: "GET",
      url: "/api/institution/classes?courseId=x&sort=size",
      headers: { host: t2.host, ...bearer(k2) },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("changing and deleting classes", () => {
  it("patches only the fields given and keeps dates in order against the stored ones", async () => {
    const c = await create({ name: "P", startsAt: "2026-03-01T00:00:00Z" });
    const ok = await send("PATCH", `/api/institution/classes/${c.id}`, { name: "P2", capacity: null });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: "P2", startsAt: "2026-03-01T00:00:00.000Z" });
    const bad = await send("PATCH", `/api/institution/classes/${c.id}`, { endsAt: "2026-02-01T00:00:00Z" });
    expect(bad.statusCode).toBe(400);
    expect((await send("PATCH", `/api/institution/classes/${c.id}`, {})).statusCode).toBe(400);
  });

  it("refuses a capacity below the current members", async () => {
    const c = await create({ name: "Cap" });
    const users = [await makeUser(h, t, "student"), await makeUser(h, t, "student")];
    await send("POST", `/api/institution/classes/${c.id}/members`, { userIds: users.map((u) => u.id) });
    const res = await send("PATCH", `/api/institution/classes/${c.id}`, { capacity: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("The class already has 2 members; the capacity cannot be lower.");
    expect((await send("PATCH", `/api/institution/classes/${c.id}`, { capacity: 2 })).json().capacity).toBe(
      2,
    );
  });

  it("answers 409 when a patch takes another class's code", async () => {
    await create({ name: "A", code: "TAKEN" });
    const b = await create({ name: "B" });
    expect((await send("PATCH", `/api/institution/classes/${b.id}`, { code: "TAKEN" })).statusCode).toBe(409);
  });

  it("deletes a class with its memberships; enrollments stay, without the class", async () => {
    const c = await create({ name: "Gone" });
    const u = await makeUser(h, t, "student");
    await send("POST", `/api/institution/classes/${c.id}/members`, { userIds: [u.id] });
    const courseId = await course();
    await h.database.db
      .insert(enrollments)
      .values({ tenantId: t.id, userId: u.id, courseId, classGroupId: c.id });
    const res = await send("DELETE", `/api/institution/classes/${c.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    const members = await h.database.db
      .select()
      .from(classGroupMembers)
      .where(and(eq(classGroupMembers.tenantId, t.id), eq(classGroupMembers.classGroupId, c.id)));
    expect(members).toHaveLength(0);
    const [enrollment] = await h.database.db
      .select()
      .from(enrollments)
      .where(and(eq(enrollments.tenantId, t.id), eq(enrollments.userId, u.id)));
    expect(enrollment?.classGroupId).toBeNull();
    expect((await send("GET", `/api/institution/classes/${c.id}`)).statusCode).toBe(404);
    expect((await send("DELETE", `/api/institution/classes/${c.id}`)).statusCode).toBe(404);
    // Each membership that went with the class says so, as a removal through the members route would.
    const removed = (
      await h.database.db
        .select()
        .from(platformEvents)
        .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "class_member_removed")))
    ).filter((e) => (e.data as { classGroupId: string }).classGroupId === c.id);
    expect(removed.map((e) => [e.data, (e.subject as { id: string }).id])).toEqual([
      [{ classGroupId: c.id, userId: u.id }, u.id],
    ]);
  });

  it("says class_member_removed when a deleted user leaves their classes", async () => {
    const c = await create({ name: "Left" });
    const u = await makeUser(h, t, "student");
    await send("POST", `/api/institution/classes/${c.id}/members`, { userIds: [u.id] });
    const admin = bearer(await makeKey(h, t, ["users:write"]));
    expect((await send("DELETE", `/api/institution/users/${u.id}`, undefined, admin)).statusCode).toBe(204);
    const removed = (
      await h.database.db
        .select()
        .from(platformEvents)
        .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "class_member_removed")))
    ).filter((e) => (e.data as { userId: string }).userId === u.id);
    expect(removed.map((e) => e.data)).toEqual([{ classGroupId: c.id, userId: u.id }]);
  });

  it("lets teachers' sessions read and write, and refuses students", async () => {
    const teacher = { cookie: await roleCookie(h, t, "teacher") };
    expect((await send("POST", "/api/institution/classes", { name: "By teacher" }, teacher)).statusCode).toBe(
      201,
    );
    const student = { cookie: await roleCookie(h, t, "student") };
    expect((await send("GET", "/api/institution/classes", undefined, student)).statusCode).toBe(403);
  });
});
