import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  classGroupMembers,
  classGroups,
  platformEvents,
  tagAssignments,
  tags,
  users,
} from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { bearer, json, makeKey, type TestTenant } from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 2 });
const [t, other] = tenants;
let key: string;
let seq = 0;

beforeAll(async () => {
  key = await makeKey(h, t, ["users:read", "users:write"]);
});

async function create(payload: Record<string, unknown>, tenant = t, secret = key) {
  const res = await h.inject({
    method: "POST",
    url: "/api/institution/users",
    headers: { host: tenant.host, ...json, ...bearer(secret) },
    payload: { email: `u${++seq}@${tenant.slug}.test`, role: "student", ...payload },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string; email: string };
}

async function list(query: string) {
  const res = await h.inject({
    method: "GET",
    url: `/api/institution/users${query}`,
    headers: { host: t.host, ...bearer(key) },
  });
  return res;
}

const names = (body: { data: { name: string }[] }) => body.data.map((u) => u.name);

async function classGroup(tenant: TestTenant, name: string): Promise<string> {
  const rows = await h.database.db.insert(classGroups).values({ tenantId: tenant.id, name }).returning();
  return (rows[0] as { id: string }).id;
}

async function eventsOf(type: string, userId: string) {
  return h.database.db
    .select()
    .from(platformEvents)
    .where(
      and(
        eq(platformEvents.tenantId, t.id),
        eq(platformEvents.type, type),
        sql`${platformEvents.data}->>'userId' = ${userId}`,
      ),
    );
}

describe("listing users", () => {
  let zeca: { id: string };
  let ana: { id: string; email: string };
  let bia: { id: string };
  let group: string;
  let tag: string;

  beforeAll(async () => {
    group = await classGroup(t, "Turma Filtro");
    zeca = await create({ name: "Zeca", role: "teacher", classGroupIds: [group] });
    ana = await create({ name: "Ána", classGroupIds: [group] });
    bia = await create({ name: "bia" });
    await h.database.db.update(users).set({ status: "suspended" }).where(eq(users.id, bia.id));
    // Zeca was created long ago.
    await h.database.db
      .update(users)
      .set({ createdAt: "2020-01-01T00:00:00.000Z" })
      .where(and(eq(users.tenantId, t.id), eq(users.id, zeca.id)));
    const [row] = await h.database.db
      .insert(tags)
      .values({ tenantId: t.id, name: "VIP", slug: "vip", appliesTo: ["user"] })
      .returning();
    tag = (row as { id: string }).id;
    await h.database.db.insert(tagAssignments).values([
      { tenantId: t.id, tagId: tag, resourceType: "user", resourceId: ana.id },
      // The same id as a course must not match a user filter.
      { tenantId: t.id, tagId: tag, resourceType: "course", resourceId: bia.id },
    ]);
  });

  it("filters by status, with an exact total", async () => {
    const res = (await list("?status=suspended")).json();
    expect(names(res)).toEqual(["bia"]);
    expect(res.pagination.total).toBe(1);
  });

  it("filters by class group, and counts its members", async () => {
    const res = (await list(`?classGroupId=${group}&sort=name`)).json();
    expect(names(res)).toEqual(["Ána", "Zeca"]);
    expect(res.pagination.total).toBe(2);
    const both = (await list(`?classGroupId=${group}&role=teacher`)).json();
    expect(names(both)).toEqual(["Zeca"]);
    expect(both.pagination.total).toBe(1);
  });

  it("filters by tag, only for tags on users", async () => {
    const res = (await list(`?tag=${tag}`)).json();
    expect(names(res)).toEqual(["Ána"]);
    expect(res.pagination.total).toBe(1);
  });

  it("filters by exact e-mail ignoring case, not by substring", async () => {
    const res = (await list(`?email=${encodeURIComponent(ana.email.toUpperCase())}`)).json();
    expect(res.data.map((u: { id: string }) => u.id)).toEqual([ana.id]);
    expect(res.pagination.total).toBe(1);
    const partial = (await list(`?email=${encodeURIComponent(ana.email.slice(1))}`)).json();
    expect(partial.pagination.total).toBe(0);
  });

  it("filters by creation time", async () => {
    const res = (await list(`?createdSince=2021-01-01T00:00:00Z&perPage=100`)).json();
    expect(names(res)).not.toContain("Zeca");
    expect(names(res)).toContain("Ána");
    expect(res.pagination.total).toBe(res.data.length);
  });

  it("sorts by name either way (ignoring accents and case) and by creation time", async () => {
    const byName = names((await list("?sort=name&perPage=100")).json()).filter((n) =>
      ["Zeca", "Ána", "bia"].includes(n),
    );
    expect(byName).toEqual(["Ána", "bia", "Zeca"]);
    const reverse = names((await list("?sort=-name&perPage=100")).json()).filter((n) =>
      ["Zeca", "Ána", "bia"].includes(n),
    );
    expect(reverse).toEqual(["Zeca", "bia", "Ána"]);
    const oldest = (await list("?sort=createdAt")).json();
    expect(oldest.data[0].name).toBe("Zeca");
    const newest = (await list("")).json();
    expect(newest.data[0].name).toBe("bia");
  });

  it("refuses bad filter values with 400 and details, never 500", async () => {
    for (const q of [
      "?status=gone",
      "?classGroupId=nope",
      "?tag=1",
      "?createdSince=yesterday",
      "?sort=email",
    ]) {
      const res = await list(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error).toBe("validation_failed");
      expect(res.json().details.length).toBeGreaterThan(0);
    }
  });

  it("never shows another tenant's users, even through a class filter", async () => {
    const foreign = await classGroup(other, "B");
    const keyB = await makeKey(h, other, ["users:write"]);
    await create({ name: "Foreign", classGroupIds: [foreign] }, other, keyB);
    const res = (await list(`?classGroupId=${foreign}`)).json();
    expect(res.data).toEqual([]);
    expect(res.pagination.total).toBe(0);
  });
});

describe("updating users", () => {
  it("emits user_updated naming only the fields that changed, with the user as subject", async () => {
    const u = await create({ name: "Carlos", role: "teacher" });
    const res = await h.inject({
      method: "PATCH",
      url: `/api/institution/users/${u.id}`,
      headers: { host: t.host, ...json, ...bearer(key) },
      payload: { name: "Carlos Alberto", role: "teacher", status: "active" },
    });
    expect(res.statusCode).toBe(200);
    const events = await eventsOf("user_updated", u.id);
    expect(events).toHaveLength(1);
    // The user as this answer gave it.
    expect(events[0]?.data).toEqual({ userId: u.id, changedFields: ["name"], user: res.json() });
    expect(events[0]?.subject).toMatchObject({ id: u.id, name: "Carlos Alberto", role: "teacher" });
    expect(events[0]?.actor).toMatchObject({ type: "api_key" });
  });

  it("emits nothing when nothing changed", async () => {
    const group = await classGroup(t, "Sem mudança");
    const u = await create({ name: "Dora", classGroupIds: [group] });
    const res = await h.inject({
      method: "PATCH",
      url: `/api/institution/users/${u.id}`,
      headers: { host: t.host, ...json, ...bearer(key) },
      payload: { name: "Dora", classGroupIds: [group.toUpperCase()] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().classGroupIds).toEqual([group]);
    expect(await eventsOf("user_updated", u.id)).toHaveLength(0);
  });

  it("reports class changes, keeps the join time of classes kept, and emits membership events", async () => {
    const keep = await classGroup(t, "Fica");
    const leave = await classGroup(t, "Sai");
    const join = await classGroup(t, "Entra");
    const u = await create({ name: "Edu", classGroupIds: [keep, leave] });
    const joinedBefore = await h.database.db
      .select({ at: classGroupMembers.createdAt })
      .from(classGroupMembers)
      .where(and(eq(classGroupMembers.userId, u.id), eq(classGroupMembers.classGroupId, keep)));
    const res = await h.inject({
      method: "PATCH",
      url: `/api/institution/users/${u.id}`,
      headers: { host: t.host, ...json, ...bearer(key) },
      payload: { classGroupIds: [keep, join] },
    });
    expect(res.statusCode).toBe(200);
    expect([...res.json().classGroupIds].sort()).toEqual([keep, join].sort());
    const joinedAfter = await h.database.db
      .select({ at: classGroupMembers.createdAt })
      .from(classGroupMembers)
      .where(and(eq(classGroupMembers.userId, u.id), eq(classGroupMembers.classGroupId, keep)));
    expect(joinedAfter).toEqual(joinedBefore);
    expect((await eventsOf("user_updated", u.id))[0]?.data).toEqual({
      userId: u.id,
      changedFields: ["classGroupIds"],
      user: res.json(),
    });
    const added = await eventsOf("class_member_added", u.id);
    expect(added.map((e) => (e.data as { classGroupId: string }).classGroupId).sort()).toEqual(
      [keep, leave, join].sort(),
    );
    const removed = await eventsOf("class_member_removed", u.id);
    expect(removed.map((e) => e.data)).toEqual([{ classGroupId: leave, userId: u.id }]);
  });

  it("writes no event when the change is refused", async () => {
    const u = await create({ name: "Fábio", role: "teacher" });
    const taken = await create({ name: "Outro", role: "teacher" });
    const res = await h.inject({
      method: "PATCH",
      url: `/api/institution/users/${u.id}`,
      headers: { host: t.host, ...json, ...bearer(key) },
      payload: { email: taken.email },
    });
    expect(res.statusCode).toBe(409);
    expect(await eventsOf("user_updated", u.id)).toHaveLength(0);
  });
});
