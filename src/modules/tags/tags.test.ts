import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { tags } from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { bearer, makeKey, makeTenant, roleCookie, type TestTenant } from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let readOnlyA: string;
let keyB: string;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["tags:read", "tags:write"]);
  readOnlyA = await makeKey(h, a, ["tags:read"]);
  keyB = await makeKey(h, b, ["tags:read", "tags:write"]);
});
const call = callerFor(h, () => ({ tenant: a, credential: bearer(keyA) }), WHOLE_PATHS);

const create = (payload: unknown, credentials?: Record<string, string>, tenant?: TestTenant) =>
  call("POST", "/api/institution/tags", payload, credentials, tenant);

const tagRow = async (tenantId: string, id: string) =>
  (
    await h.database.db
      .select()
      .from(tags)
      .where(and(eq(tags.tenantId, tenantId), eq(tags.id, id)))
  )[0];

describe("tags", () => {
  it("creates, reads, updates and deletes a tag", async () => {
    const created = await create({
      name: "  Turma Ágil 2026 ",
      color: "#1E88E5",
      appliesTo: ["user", "class"],
    });
    expect(created.statusCode).toBe(201);
    const tag = created.json();
    expect(Object.keys(tag).sort()).toEqual([
      "appliesTo",
      "color",
      "createdAt",
      "id",
      "name",
      "slug",
      "updatedAt",
      "usageCount",
    ]);
    expect(tag).toMatchObject({
      name: "Turma Ágil 2026",
      slug: "turma-agil-2026",
      color: "#1E88E5",
      appliesTo: ["user", "class"],
      usageCount: 0,
    });
    expect(tag.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const got = await call("GET", `/api/institution/tags/${tag.id}`, undefined, bearer(readOnlyA));
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(tag);

    const patched = await call("PATCH", `/api/institution/tags/${tag.id}`, {
      name: "Turma B",
      color: null,
      appliesTo: ["user", "class", "course"],
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      id: tag.id,
      name: "Turma B",
      slug: "turma-b",
      color: null,
      appliesTo: ["user", "class", "course"],
    });
    expect(patched.json().updatedAt >= tag.updatedAt).toBe(true);
    expect(await tagRow(a.id, tag.id)).toMatchObject({ name: "Turma B", slug: "turma-b", color: null });

    const deleted = await call("DELETE", `/api/institution/tags/${tag.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe("");
    expect(await tagRow(a.id, tag.id)).toBeUndefined();
    expect((await call("GET", `/api/institution/tags/${tag.id}`)).statusCode).toBe(404);
    expect((await call("DELETE", `/api/institution/tags/${tag.id}`)).statusCode).toBe(404);
  });

  it("refuses a name already used in the institution, ignoring case, with 409; other institutions may use it", async () => {
    expect((await create({ name: "Destaque", appliesTo: ["user"] })).statusCode).toBe(201);
    const again = await create({ name: "DESTAQUE", appliesTo: ["course"] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: "conflict", message: "A tag with this name already exists." });
    expect((await create({ name: "destaque", appliesTo: ["user"] }, bearer(keyB), b)).statusCode).toBe(201);

    const other = (await create({ name: "Outro", appliesTo: ["user"] })).json();
    const rename = await call("PATCH", `/api/institution/tags/${other.id}`, { name: "destaque" });
    expect(rename.statusCode).toBe(409);
    expect((await tagRow(a.id, other.id))?.name).toBe("Outro");
  });

  it("keeps slugs unique when different names derive the same one", async () => {
    const c = (await create({ name: "C", appliesTo: ["course"] })).json();
    const cpp = (await create({ name: "C++", appliesTo: ["course"] })).json();
    const csharp = (await create({ name: "C#", appliesTo: ["course"] })).json();
    expect([c.slug, cpp.slug, csharp.slug]).toEqual(["c", "c-2", "c-3"]);
    const symbols = (await create({ name: "!!!", appliesTo: ["course"] })).json();
    expect(symbols.slug).toBe("tag");
    // Renaming to a name with the same slug keeps the tag's own slug.
    const renamed = await call("PATCH", `/api/institution/tags/${cpp.id}`, { name: "c++ " });
    expect(renamed.json()).toMatchObject({ name: "c++", slug: "c-2" });
  });

  it.each([
    [{ appliesTo: ["user"] }, "name"],
    [{ name: "", appliesTo: ["user"] }, "name"],
    [{ name: "   ", appliesTo: ["user"] }, "name"],
    [{ name: "x".repeat(65), appliesTo: ["user"] }, "name"],
    [{ name: "Bad colour", color: "blue", appliesTo: ["user"] }, "color"],
    [{ name: "Bad colour", color: "#12345", appliesTo: ["user"] }, "color"],
    [{ name: "No types", appliesTo: [] }, "appliesTo"],
    [{ name: "No types" }, "appliesTo"],
    [{ name: "Bad type", appliesTo: ["media"] }, "appliesTo[0]"],
    [{ name: "Twice", appliesTo: ["user", "user"] }, "appliesTo"],
    [{ name: "Extra", appliesTo: ["user"], usageCount: 5 }, "usageCount"],
    [{ name: "Extra", appliesTo: ["user"], slug: "mine" }, "slug"],
  ])("refuses %j with 400 naming %s", async (payload, field) => {
    const res = await create(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("validation_failed");
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("refuses an empty or unknown-field PATCH", async () => {
    const tag = (await create({ name: "Patch target", appliesTo: ["user"] })).json();
    expect((await call("PATCH", `/api/institution/tags/${tag.id}`, {})).statusCode).toBe(400);
    const unknown = await call("PATCH", `/api/institution/tags/${tag.id}`, { usageCount: 9 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([{ field: "usageCount", message: "This field is not allowed." }]);
  });

  it("lists with filters, sorts and exact totals, and only the caller's own tags", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["tags:read", "tags:write"]);
    const make = (name: string, appliesTo: string[]) => create({ name, appliesTo }, bearer(key), t);
    await make("Álgebra", ["course", "question"]);
    await make("Bolsistas", ["user"]);
    await make("Cálculo", ["course"]);
    await make("Destaque", ["user", "class"]);
    await create({ name: "Álgebra", appliesTo: ["course"] }, bearer(keyB), b);
    const list = (query: string) => call("GET", `/api/institution/tags${query}`, undefined, bearer(key), t);
    const names = (res: Awaited<ReturnType<typeof list>>) =>
      res.json().data.map((x: { name: string }) => x.name);

    const all = await list("");
    expect(all.statusCode).toBe(200);
    expect(names(all)).toEqual(["Destaque", "Cálculo", "Bolsistas", "Álgebra"]);
    expect(all.json().pagination).toEqual({
      page: 1,
      perPage: 20,
      total: 4,
      totalPages: 1,
      totalRelation: "eq",
    });

    expect(names(await list("?sort=name"))).toEqual(["Álgebra", "Bolsistas", "Cálculo", "Destaque"]);
    expect(names(await list("?sort=-name"))).toEqual(["Destaque", "Cálculo", "Bolsistas", "Álgebra"]);
    expect(names(await list("?sort=createdAt"))).toEqual(["Álgebra", "Bolsistas", "Cálculo", "Destaque"]);

    const courses = await list("?appliesTo=course&sort=name");
    expect(names(courses)).toEqual(["Álgebra", "Cálculo"]);
    expect(courses.json().pagination.total).toBe(2);

    const search = await list("?search=calc");
    expect(names(search)).toEqual(["Cálculo"]);
    expect(search.json().pagination.total).toBe(1);
    const combined = await list("?search=a&appliesTo=user&sort=name");
    expect(names(combined)).toEqual(["Bolsistas", "Destaque"]);
    expect(names(await list("?search=%25"))).toEqual([]);

    const paged = await list("?perPage=3&page=2&sort=name");
    expect(names(paged)).toEqual(["Destaque"]);
    expect(paged.json().pagination).toEqual({
      page: 2,
      perPage: 3,
      total: 4,
      totalPages: 2,
      totalRelation: "eq",
    });

    for (const bad of ["?sort=usageCount", "?appliesTo=media", "?search=", "?color=red"]) {
      const res = await list(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toBe("validation_failed");
    }
  });

  it("hides another institution's tags: 404 on read, change and delete, the row untouched", async () => {
    const theirs = (await create({ name: "Privado", appliesTo: ["user"] }, bearer(keyB), b)).json();
    const before = await tagRow(b.id, theirs.id);
    for (const [method, payload] of [
      ["GET", undefined],
      ["PATCH", { name: "Hacked" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await call(method, `/api/institution/tags/${theirs.id}`, payload);
      expect(res.statusCode, method).toBe(404);
      expect(res.body).not.toContain(theirs.id);
    }
    expect((await call("GET", "/api/institution/tags/not-a-uuid")).statusCode).toBe(404);
    expect(await tagRow(b.id, theirs.id)).toEqual(before);
  });

  it("lets teachers and administrators write, students only read", async () => {
    const teacher = await create(
      { name: "By teacher", appliesTo: ["course"] },
      { cookie: await roleCookie(h, a, "teacher") },
    );
    expect(teacher.statusCode).toBe(201);
    const student = await roleCookie(h, a, "student");
    const refused = await create({ name: "By student", appliesTo: ["course"] }, { cookie: student });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("forbidden");
    const read = await call("GET", `/api/institution/tags/${teacher.json().id}`, undefined, {
      cookie: student,
    });
    expect(read.statusCode).toBe(200);
    const keyWithoutWrite = await create({ name: "By reader", appliesTo: ["course"] }, bearer(readOnlyA));
    expect(keyWithoutWrite.statusCode).toBe(403);
    expect(keyWithoutWrite.json().error).toBe("insufficient_scope");
  });
});
