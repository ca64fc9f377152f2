import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { classGroupMembers, classGroups, platformEvents, tenants, users } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import {
  adminCookie,
  bearer,
  json,
  makeKey,
  makeTenant,
  roleCookie,
  type TestTenant,
} from "../../test-support/harness.js";

const { h } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 3, mini: 2000 }) } });

interface Result {
  index: number;
  status: string;
  user?: { id: string; email: string; role: string; classGroupIds: string[] };
  reason?: string;
  error?: { error: string; message: string; details?: { field: string; message: string }[] };
}

function bulk(tenant: TestTenant, headers: Record<string, string>, items: unknown[]) {
  return h.inject({
    method: "POST",
    url: "/api/institution/users/bulk",
    headers: { host: tenant.host, ...json, "accept-language": "en-US", ...headers },
    payload: { items },
  });
}

async function count(tenantId: string, role?: string): Promise<number> {
  const rows = await h.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), role === undefined ? undefined : eq(users.role, role)));
  return rows[0]?.n ?? 0;
}

async function events(tenantId: string, type: string) {
  return h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, tenantId), eq(platformEvents.type, type)));
}

async function classGroup(tenant: TestTenant, capacity: number | null = null): Promise<string> {
  const rows = await h.database.db
    .insert(classGroups)
    .values({ tenantId: tenant.id, name: "Turma", capacity })
    .returning();
  return (rows[0] as { id: string }).id;
}

const person = (tenant: TestTenant, n: string | number, role = "student", extra = {}) => ({
  name: `Person ${n}`,
  email: `p${n}@${tenant.slug}.test`,
  role,
  ...extra,
});

describe("bulk user creation", () => {
  it("leaves a refused item's e-mail free for a later item", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:write"]);
    const res = await bulk(t, bearer(key), [person(t, 9, "institution_admin"), person(t, 9, "teacher")]);
    expect(res.json().results.map((r: Result) => [r.status, r.reason ?? r.error?.error ?? null])).toEqual([
      ["failed", "forbidden"],
      ["created", null],
    ]);
  });

  it("answers one result per item, in order, with mixed outcomes, and applies only the good items", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:write"]);
    const group = await classGroup(t);
    const foreignTenant = await makeTenant(h);
    const foreign = await classGroup(foreignTenant);
    // An existing user whose e-mail the batch repeats in another case.
    const existing = await bulk(t, bearer(key), [person(t, "old", "teacher")]);
    expect(existing.json().results[0].status).toBe("created");

    const res = await bulk(t, bearer(key), [
      person(t, 1, "teacher", { classGroupIds: [group] }),
      { ...person(t, "old", "teacher"), email: `POLD@${t.slug.toUpperCase()}.test` },
      person(t, 2, "institution_admin"),
      person(t, 3, "teacher", { classGroupIds: [group, foreign] }),
      { ...person(t, 1, "teacher"), name: "Repeat of item 0" },
      person(t, 4, "student"),
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { results: Result[]; summary: Record<string, number> };
    expect(body.results.map((r) => [r.index, r.status, r.reason ?? r.error?.error ?? null])).toEqual([
      [0, "created", null],
      [1, "skipped", "email_taken"],
      [2, "failed", "forbidden"],
      [3, "failed", "validation_failed"],
      [4, "skipped", "email_taken"],
      [5, "created", null],
    ]);
    expect(body.summary).toEqual({ total: 6, created: 2, skipped: 2, failed: 2 });
    expect(body.results[0]?.user).toMatchObject({
      email: `p1@${t.slug}.test`,
      role: "teacher",
      classGroupIds: [group],
    });
    expect(body.results[2]?.error?.message).toBe("Only an institution administrator can do this.");
    expect(body.results[3]?.error?.details).toEqual([
      { field: "items[3].classGroupIds[1]", message: `Unknown class group: ${foreign}.` },
    ]);
    // Nothing of the failed items was written: no user p3 and no membership for it.
    const emails = (
      await h.database.db.select({ email: users.email }).from(users).where(eq(users.tenantId, t.id))
    ).map((r) => r.email);
    expect(emails).not.toContain(`p2@${t.slug}.test`);
    expect(emails).not.toContain(`p3@${t.slug}.test`);
    expect(await count(t.id)).toBe(4); // admin, old, p1, p4
    const members = await h.database.db
      .select()
      .from(classGroupMembers)
      .where(and(eq(classGroupMembers.tenantId, t.id), eq(classGroupMembers.classGroupId, group)));
    expect(members.map((m) => [m.userId, m.role])).toEqual([[body.results[0]?.user?.id, "teacher"]]);
    // One user_created per created user (the administrator's and the earlier call's included), one
    // class_member_added for p1.
    expect(await events(t.id, "user_created")).toHaveLength(4);
    const added = await events(t.id, "class_member_added");
    expect(added.map((e) => e.data)).toEqual([
      { classGroupId: group, userId: body.results[0]?.user?.id, role: "teacher" },
    ]);
  });

  it("lets an administrator's session create administrators", async () => {
    const t = await makeTenant(h);
    const res = await bulk(t, { cookie: await adminCookie(h, t) }, [person(t, 1, "institution_admin")]);
    expect(res.json().results[0]).toMatchObject({ status: "created", user: { role: "institution_admin" } });
  });

  it("gives the plan's remaining seats to the first students of the batch and fails the rest with 422's envelope", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:write"]);
    await bulk(t, bearer(key), [person(t, 0)]);
    const res = await bulk(t, bearer(key), [
      person(t, 1),
      person(t, 2, "teacher"),
      person(t, 3),
      person(t, 4),
      person(t, 5, "teacher"),
    ]);
    const results = res.json().results as Result[];
    expect(results.map((r) => r.status)).toEqual(["created", "created", "created", "failed", "created"]);
    expect(results[3]?.error).toEqual({
      error: "student_limit_reached",
      message:
        "The free plan admits 3 students and has no seat left. An administrator can move the institution " +
        "to a paid plan with POST /api/institution/billing/checkout.",
      details: [
        { field: "plan", message: "The institution's plan is free." },
        { field: "limit", message: "The plan admits at most 3 students." },
      ],
    });
    expect(await count(t.id, "student")).toBe(3);
  });

  it("never exceeds the limit when batches run concurrently", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:write"]);
    const batches = await Promise.all(
      [0, 1, 2].map((b) => bulk(t, bearer(key), [person(t, `${b}a`), person(t, `${b}b`)])),
    );
    const created = batches.flatMap((r) =>
      (r.json().results as Result[]).filter((x) => x.status === "created"),
    );
    expect(created).toHaveLength(3);
    expect(await count(t.id, "student")).toBe(3);
  });

  it("fails the whole call with 503 when the limit cannot be verified, creating nothing", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:write"]);
    await h.database.db.update(tenants).set({ plan: "legacy_2019" }).where(eq(tenants.id, t.id));
    const res = await bulk(t, bearer(key), [person(t, 1, "teacher"), person(t, 2)]);
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe("student_limit_unverifiable");
    expect(await count(t.id)).toBe(1);
    expect(await events(t.id, "user_created")).toHaveLength(1); // the administrator's, from the tenant's creation
    // Without students the plan is not consulted.
    const teachers = await bulk(t, bearer(key), [person(t, 3, "teacher")]);
    expect(teachers.json().summary.created).toBe(1);
  });

  it("fails the items that would overfill a class", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:write"]);
    const small = await classGroup(t, 1);
    const res = await bulk(t, bearer(key), [
      person(t, 1, "teacher", { classGroupIds: [small] }),
      person(t, 2, "teacher", { classGroupIds: [small] }),
    ]);
    const results = res.json().results as Result[];
    expect(results.map((r) => r.status)).toEqual(["created", "failed"]);
    expect(results[1]?.error).toMatchObject({ error: "conflict" });
    expect(await count(t.id)).toBe(2);
  });

  it("validates the body as a whole: 1 to 1000 items, known fields only", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["users:write"]);
    expect((await bulk(t, bearer(key), [])).statusCode).toBe(400);
    const bad = await bulk(t, bearer(key), [{ ...person(t, 1), tenantId: t.id }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe("items[0].tenantId");
    const tooMany = await bulk(
      t,
      bearer(key),
      Array.from({ length: 1001 }, (_, i) => person(t, i, "teacher")),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(await count(t.id)).toBe(1);
  });

  it("is refused to teachers' sessions and keys without users:write", async () => {
    const t = await makeTenant(h);
    const teacher = await bulk(t, { cookie: await roleCookie(h, t, "teacher") }, [person(t, 1)]);
    expect(teacher.statusCode).toBe(403);
    const reader = await bulk(t, bearer(await makeKey(h, t, ["users:read"])), [person(t, 1)]);
    expect(reader.statusCode).toBe(403);
  });

  it("creates 1,000 users in one call", async () => {
    const t = await makeTenant(h);
    await h.database.db.update(tenants).set({ plan: "mini" }).where(eq(tenants.id, t.id));
    const key = await makeKey(h, t, ["users:write"]);
    const group = await classGroup(t);
    const started = Date.now();
    const res = await bulk(
      t,
      bearer(key),
      Array.from({ length: 1000 }, (_, i) => person(t, i, "student", { classGroupIds: [group] })),
    );
    const elapsed = Date.now() - started;
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toEqual({ total: 1000, created: 1000, skipped: 0, failed: 0 });
    expect(await count(t.id, "student")).toBe(1000);
    const list = await h.inject({
      method: "GET",
      url: `/api/institution/users?classGroupId=${group}`,
      headers: { host: t.host, ...bearer(await makeKey(h, t, ["users:read"])) },
    });
    expect(list.json().pagination.total).toBe(1000);
    console.info(`bulk of 1000 users with a class each: ${elapsed} ms`);
  }, 120_000);
});
