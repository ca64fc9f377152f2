import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { classGroupMembers, classGroups, platformEvents, tenants, users } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import {
  adminCookie,
  bearer,
  json,
  makeKey,
  makeTenant,
  roleCookie,
  startHarness,
  type TestTenant,
} from "../../test-support/harness.js";

const { h, tenants: testTenants } = useApi({
  env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 3 }) },
  tenants: 2,
});
const [a, b] = testTenants;
let writerA: string;

beforeAll(async () => {
  writerA = await makeKey(h, a, ["users:read", "users:write"]);
});

let seq = 0;
const email = (tenant: TestTenant) => `person${++seq}@${tenant.slug}.test`;

function post(tenant: TestTenant, headers: Record<string, string>, payload: unknown, on = h) {
  return on.inject({
    method: "POST",
    url: "/api/institution/users",
    headers: { host: tenant.host, ...json, ...headers },
    payload: payload as object,
  });
}

async function studentCount(tenantId: string, on = h): Promise<number> {
  const rows = await on.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.role, "student")));
  return rows[0]?.n ?? 0;
}

async function classGroup(tenant: TestTenant, name = "Turma A"): Promise<string> {
  const rows = await h.database.db.insert(classGroups).values({ tenantId: tenant.id, name }).returning();
  return (rows[0] as { id: string }).id;
}

describe("creating users", () => {
  it("creates a teacher with class groups through a users:write key", async () => {
    const group = await classGroup(a);
    const res = await post(a, bearer(writerA), {
      name: "Ana Souza",
      email: email(a),
      role: "teacher",
      classGroupIds: [group],
    });
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(Object.keys(user).sort()).toEqual([
      "classGroupIds",
      "createdAt",
      "email",
      "id",
      "name",
      "profileFields",
      "role",
      "signIn",
      "status",
    ]);
    expect(user.signIn.method).toBe("password_reset");
    expect(user).toMatchObject({
      name: "Ana Souza",
      role: "teacher",
      status: "active",
      classGroupIds: [group],
    });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    const members = await h.database.db
      .select()
      .from(classGroupMembers)
      .where(and(eq(classGroupMembers.tenantId, a.id), eq(classGroupMembers.userId, user.id)));
    expect(members).toHaveLength(1);
  });

  it("marks a user created with sendInvite as invited", async () => {
    const res = await post(a, bearer(writerA), {
      name: "Convidado",
      email: email(a),
      role: "teacher",
      sendInvite: true,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toBe("invited");
  });

  it("refuses an unknown class group, including another tenant's, and stores nothing", async () => {
    const foreign = await (async () => {
      const rows = await h.database.db.insert(classGroups).values({ tenantId: b.id, name: "B" }).returning();
      return (rows[0] as { id: string }).id;
    })();
    const address = email(a);
    const res = await post(a, bearer(writerA), {
      name: "X",
      email: address,
      role: "teacher",
      classGroupIds: [foreign],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: "validation_failed",
      details: [{ field: "classGroupIds[0]" }],
    });
    const rows = await h.database.db.select().from(users).where(eq(users.email, address));
    expect(rows).toHaveLength(0);
  });

  it("answers 409 for an e-mail already used in the tenant, whatever its case, but not in another tenant", async () => {
    const address = email(a);
    expect(
      (await post(a, bearer(writerA), { name: "One", email: address, role: "teacher" })).statusCode,
    ).toBe(201);
    const dup = await post(a, bearer(writerA), {
      name: "Two",
      email: address.toUpperCase(),
      role: "teacher",
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe("conflict");
    const keyB = await makeKey(h, b, ["users:write"]);
    expect((await post(b, bearer(keyB), { name: "Same", email: address, role: "teacher" })).statusCode).toBe(
      201,
    );
  });

  it("lets only an administrator's session create an institution_admin", async () => {
    const byKey = await post(a, bearer(writerA), {
      name: "Boss",
      email: email(a),
      role: "institution_admin",
    });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error).toBe("forbidden");
    const adminKey = await makeKey(h, a, []);
    expect(
      (await post(a, bearer(adminKey), { name: "Boss", email: email(a), role: "institution_admin" }))
        .statusCode,
    ).toBe(403);
    const bySession = await post(
      a,
      { cookie: await adminCookie(h, a) },
      { name: "Boss", email: email(a), role: "institution_admin" },
    );
    expect(bySession.statusCode).toBe(201);
    const teacher = await post(
      a,
      { cookie: await roleCookie(h, a, "teacher") },
      { name: "S", email: email(a), role: "student" },
    );
    expect(teacher.statusCode).toBe(403);
  });

  it("validates every field and refuses unknown ones", async () => {
    const res = await post(a, bearer(writerA), {
      name: "",
      email: "not-an-email",
      role: "owner",
      tenantId: b.id,
    });
    expect(res.statusCode).toBe(400);
    const fields = res
      .json()
      .details.map((d: { field: string }) => d.field)
      .sort();
    expect(fields).toEqual(["email", "name", "role", "tenantId"]);
    const missing = await post(a, bearer(writerA), {});
    expect(
      missing
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(["email", "name", "role"]);
  });
});

describe("the plan's student limit", () => {
  it("answers 422 once the limit is reached and creates nothing, while teachers are not counted", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:write"]);
    for (let i = 0; i < 3; i++) {
      expect(
        (await post(t, bearer(key), { name: `S${i}`, email: email(t), role: "student" })).statusCode,
      ).toBe(201);
    }
    const over = await post(t, bearer(key), { name: "S4", email: email(t), role: "student" });
    expect(over.statusCode).toBe(422);
    expect(over.json().error).toBe("student_limit_reached");
    expect(over.json().message).toContain("3");
    expect(await studentCount(t.id)).toBe(3);
    expect((await post(t, bearer(key), { name: "T", email: email(t), role: "teacher" })).statusCode).toBe(
      201,
    );
  });

  it("never overshoots under concurrent creation", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:write"]);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(t, bearer(key), { name: `C${i}`, email: email(t), role: "student" }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 422)).toHaveLength(9);
    expect(await studentCount(t.id)).toBe(3);
  });

  it("counts a teacher turned student, and frees a seat when a student is deleted", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:write"]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await post(t, bearer(key), { name: `S${i}`, email: email(t), role: "student" })).json().id);
    const teacher = (await post(t, bearer(key), { name: "T", email: email(t), role: "teacher" })).json();
    const demote = await h.inject({
      method: "PATCH",
      url: `/api/institution/users/${teacher.id}`,
      headers: { host: t.host, ...json, ...bearer(key) },
      payload: { role: "student" },
    });
    expect(demote.statusCode).toBe(422);
    const del = await h.inject({
      method: "DELETE",
      url: `/api/institution/users/${ids[0]}`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect(del.statusCode).toBe(204);
    const again = await h.inject({
      method: "PATCH",
      url: `/api/institution/users/${teacher.id}`,
      headers: { host: t.host, ...json, ...bearer(key) },
      payload: { role: "student" },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().role).toBe("student");
  });

  it("answers 503 when the tenant's plan is unknown, and creates nothing", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:write"]);
    await h.database.db.update(tenants).set({ plan: "legacy_2019" }).where(eq(tenants.id, t.id));
    const res = await post(t, bearer(key), { name: "S", email: email(t), role: "student" });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe("student_limit_unverifiable");
    expect(await studentCount(t.id)).toBe(0);
  });

  it("answers 503 when the count cannot be read, and creates nothing", async () => {
    // A private embedded database, so breaking its counters cannot disturb tests sharing a server.
    const own = await startHarness({ DATABASE_URL: "" });
    try {
      const t = await makeTenant(own);
      const key = await makeKey(own, t, ["users:write"]);
      await own.database.db.execute(sql`ALTER TABLE tenant_counters RENAME TO tenant_counters_away`);
      const res = await post(t, bearer(key), { name: "S", email: email(t), role: "student" }, own);
      await own.database.db.execute(sql`ALTER TABLE tenant_counters_away RENAME TO tenant_counters`);
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe("student_limit_unverifiable");
      expect(res.body).not.toMatch(/tenant_counters|relation|SELECT/i);
      expect(await studentCount(t.id, own)).toBe(0);
    } finally {
      await own.close();
    }
  });
});

describe("reading, changing and deleting users", () => {
  it("lists with search and role filters, exact totals and newest first", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:read", "users:write"]);
    await post(t, bearer(key), { name: "João Conceição", email: email(t), role: "student" });
    await post(t, bearer(key), { name: "Maria", email: email(t), role: "teacher" });
    await post(t, bearer(key), { name: "Joana", email: email(t), role: "student" });
    const list = async (q: string) =>
      (
        await h.inject({
          method: "GET",
          url: `/api/institution/users${q}`,
          headers: { host: t.host, ...bearer(key) },
        })
      ).json();
    const all = await list("");
    expect(all.pagination.total).toBe(4); // the administrator too
    expect(all.data[0].name).toBe("Joana");
    const students = await list("?role=student");
    expect(students.pagination).toEqual({
      page: 1,
      perPage: 20,
      total: 2,
      totalPages: 1,
      totalRelation: "eq",
    });
    const search = await list("?search=conceicao");
    expect(search.data.map((u: { name: string }) => u.name)).toEqual(["João Conceição"]);
    expect(search.pagination.total).toBe(1);
  });

  it("gets and patches a user, replacing class groups", async () => {
    const g1 = await classGroup(a, "G1");
    const g2 = await classGroup(a, "G2");
    const user = (
      await post(a, bearer(writerA), { name: "P", email: email(a), role: "teacher", classGroupIds: [g1] })
    ).json();
    const patched = await h.inject({
      method: "PATCH",
      url: `/api/institution/users/${user.id}`,
      headers: { host: a.host, ...json, ...bearer(writerA) },
      payload: { name: "Paula", classGroupIds: [g2], status: "suspended" },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      id: user.id,
      name: "Paula",
      classGroupIds: [g2],
      status: "suspended",
    });
    const got = await h.inject({
      method: "GET",
      url: `/api/institution/users/${user.id}`,
      headers: { host: a.host, ...bearer(writerA) },
    });
    expect(got.json()).toEqual(patched.json());
    const empty = await h.inject({
      method: "PATCH",
      url: `/api/institution/users/${user.id}`,
      headers: { host: a.host, ...json, ...bearer(writerA) },
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
  });

  it("does not let a key remove an administrator", async () => {
    const res = await h.inject({
      method: "DELETE",
      url: `/api/institution/users/${a.adminUserId}`,
      headers: { host: a.host, ...bearer(writerA) },
    });
    expect(res.statusCode).toBe(403);
    const rows = await h.database.db
      .select()
      .from(users)
      .where(and(eq(users.tenantId, a.id), eq(users.id, a.adminUserId)));
    expect(rows).toHaveLength(1);
  });

  it("keeps at least one active administrator", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const self = { host: t.host, cookie, ...json };
    const demote = await h.inject({
      method: "PATCH",
      url: `/api/institution/users/${t.adminUserId}`,
      headers: self,
      payload: { role: "teacher" },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error).toBe("conflict");
    const suspend = await h.inject({
      method: "PATCH",
      url: `/api/institution/users/${t.adminUserId}`,
      headers: self,
      payload: { status: "suspended" },
    });
    expect(suspend.statusCode).toBe(409);
    const remove = await h.inject({
      method: "DELETE",
      url: `/api/institution/users/${t.adminUserId}`,
      headers: { host: t.host, cookie },
    });
    expect(remove.statusCode).toBe(409);
    const second = await post(t, { cookie }, { name: "Second", email: email(t), role: "institution_admin" });
    expect(second.statusCode).toBe(201);
    const removeSecond = await h.inject({
      method: "DELETE",
      url: `/api/institution/users/${second.json().id}`,
      headers: { host: t.host, cookie },
    });
    expect(removeSecond.statusCode).toBe(204);
  });

  it("lets only an administrator's session suspend or reinstate an administrator", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const key = await makeKey(h, t, ["users:write"]);
    const other = await post(t, { cookie }, { name: "Other", email: email(t), role: "institution_admin" });
    const patch = (headers: Record<string, string>, status: string) =>
      h.inject({
        method: "PATCH",
        url: `/api/institution/users/${other.json().id}`,
        headers: { host: t.host, ...json, ...headers },
        payload: { status },
      });
    expect((await patch({ cookie }, "suspended")).statusCode).toBe(200);
    const byKey = await patch(bearer(key), "active");
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error).toBe("forbidden");
    const [row] = await h.database.db.select().from(users).where(eq(users.id, other.json().id));
    expect(row?.status).toBe("suspended");
    expect((await patch(bearer(key), "suspended")).statusCode).toBe(403);
    expect((await patch({ cookie }, "active")).statusCode).toBe(200);
    // Suspension (once, by the session) and deletion each say user_deactivated, with the reason.
    const removed = await h.inject({
      method: "DELETE",
      url: `/api/institution/users/${other.json().id}`,
      headers: { host: t.host, cookie },
    });
    expect(removed.statusCode).toBe(204);
    const deactivated = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "user_deactivated")))
      .orderBy(platformEvents.occurredAt);
    expect(deactivated.map((e) => e.data)).toEqual([
      {
        userId: other.json().id,
        reason: "suspended",
        user: expect.objectContaining({ id: other.json().id, status: "suspended" }),
      },
      // The user as it read just before the deletion.
      { userId: other.json().id, reason: "deleted", user: expect.objectContaining({ id: other.json().id }) },
    ]);
  });
  it("lets only an administrator's session change an administrator's e-mail or name, invited or active", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const key = await makeKey(h, t, ["users:write"]);
    const invited = await post(
      t,
      { cookie },
      { name: "Boss", email: email(t), role: "institution_admin", sendInvite: true },
    );
    expect(invited.statusCode, invited.body).toBe(201);
    const patch = (headers: Record<string, string>, id: string, payload: object) =>
      h.inject({
        method: "PATCH",
        url: `/api/institution/users/${id}`,
        headers: { host: t.host, ...json, ...headers },
        payload,
      });
    const targets = [invited.json().id as string, t.adminUserId];
    for (const id of targets) {
      for (const payload of [{ email: `taken${++seq}@attacker.test` }, { name: "Locked Out" }]) {
        const res = await patch(bearer(key), id, payload);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().error).toBe("forbidden");
      }
    }
    const rows = await h.database.db.select().from(users).where(eq(users.tenantId, t.id));
    expect(rows.find((u) => u.id === t.adminUserId)).toMatchObject({ email: t.adminEmail });
    expect(rows.find((u) => u.id === invited.json().id)).toMatchObject({ name: "Boss" });
    // Sending the values it already has changes nothing, and classes are not identity.
    expect((await patch(bearer(key), t.adminUserId, { email: t.adminEmail })).statusCode).toBe(200);
    // An administrator's session may.
    const renamed = await patch({ cookie }, invited.json().id, {
      name: "Chefe",
      email: `boss${++seq}@${t.slug}.test`,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().name).toBe("Chefe");
    // A teacher's identity stays the key's to manage.
    const teacher = await post(t, bearer(key), { name: "T", email: email(t), role: "teacher" });
    expect((await patch(bearer(key), teacher.json().id, { name: "Teacher" })).statusCode).toBe(200);
  });
});
