import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { bearer, json, makeKey, makeTenant, type TestTenant } from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let readOnlyA: string;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["courses:read", "courses:write"]);
  readOnlyA = await makeKey(h, a, ["courses:read"]);
});

const create = (tenant: TestTenant, key: string, payload: unknown) =>
  h.inject({
    method: "POST",
    url: "/api/institution/courses",
    headers: { host: tenant.host, ...json, ...bearer(key) },
    payload: payload as object,
  });

describe("courses", () => {
  it("creates, reads, updates and deletes a course", async () => {
    const created = await create(a, keyA, { title: "Álgebra Linear", description: "Vetores e matrizes" });
    expect(created.statusCode).toBe(201);
    const course = created.json();
    expect(Object.keys(course).sort()).toEqual([
      "createdAt",
      "description",
      "id",
      "status",
      "title",
      "updatedAt",
    ]);
    expect(course).toMatchObject({
      title: "Álgebra Linear",
      description: "Vetores e matrizes",
      status: "draft",
    });
    expect(course.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const got = await h.inject({
      method: "GET",
      url: `/api/institution/courses/${course.id}`,
      headers: { host: a.host, ...bearer(readOnlyA) },
    });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(course);

    const patched = await h.inject({
      method: "PATCH",
      url: `/api/institution/courses/${course.id}`,
      headers: { host: a.host, ...json, ...bearer(keyA) },
      payload: { status: "published", description: null },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      id: course.id,
      status: "published",
      description: null,
      title: "Álgebra Linear",
    });

    const deleted = await h.inject({
      method: "DELETE",
      url: `/api/institution/courses/${course.id}`,
      headers: { host: a.host, ...bearer(keyA) },
    });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe("");
    const gone = await h.inject({
      method: "GET",
      url: `/api/institution/courses/${course.id}`,
      headers: { host: a.host, ...bearer(keyA) },
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe("not_found");
  });

  it("searches ignoring case and accents, newest first, with exact totals", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    for (const title of ["Álgebra Linear", "ALGEBRA abstrata", "História do Brasil", "Cálculo"]) {
      expect((await create(t, key, { title })).statusCode).toBe(201);
    }
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/courses?search=algebra",
      headers: { host: t.host, ...bearer(key) },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((c: { title: string }) => c.title)).toEqual(["ALGEBRA abstrata", "Álgebra Linear"]);
    expect(body.pagination).toEqual({ page: 1, perPage: 20, total: 2, totalPages: 1, totalRelation: "eq" });

    const byDescription = await create(t, key, { title: "Outro", description: "Inclui ÁLGEBRA" });
    expect(byDescription.statusCode).toBe(201);
    const again = await h.inject({
      method: "GET",
      url: "/api/institution/courses?search=%C3%A1lgebra",
      headers: { host: t.host, ...bearer(key) },
    });
    expect(again.json().pagination.total).toBe(3);

    const all = await h.inject({
      method: "GET",
      url: "/api/institution/courses?perPage=2&page=2",
      headers: { host: t.host, ...bearer(key) },
    });
    expect(all.json().pagination).toEqual({
      page: 2,
      perPage: 2,
      total: 5,
      totalPages: 3,
      totalRelation: "eq",
    });
    expect(all.json().data.map((c: { title: string }) => c.title)).toEqual([
      "História do Brasil",
      "ALGEBRA abstrata",
    ]);
  });

  it("treats LIKE wildcards in a search literally", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    await create(t, key, { title: "100% online" });
    await create(t, key, { title: "1000 online" });
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/courses?search=100%25",
      headers: { host: t.host, ...bearer(key) },
    });
    expect(res.json().data.map((c: { title: string }) => c.title)).toEqual(["100% online"]);
  });

  it("keeps status totals exact through updates and deletes", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(t, key, { title: `C${i}` })).json().id);
    await h.inject({
      method: "PATCH",
      url: `/api/institution/courses/${ids[0]}`,
      headers: { host: t.host, ...json, ...bearer(key) },
      payload: { status: "published" },
    });
    await h.inject({
      method: "DELETE",
      url: `/api/institution/courses/${ids[1]}`,
      headers: { host: t.host, ...bearer(key) },
    });
    const total = async (q: string) =>
      (
        await h.inject({
          method: "GET",
          url: `/api/institution/courses${q}`,
          headers: { host: t.host, ...bearer(key) },
        })
      ).json().pagination.total;
    expect(await total("")).toBe(2);
    expect(await total("?status=published")).toBe(1);
    expect(await total("?status=draft")).toBe(1);
    expect(await total("?status=archived")).toBe(0);
  });

  it("refuses invalid input with field details and stores nothing", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const res = await create(t, key, { title: "", status: "live", tenantId: b.id });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe("validation_failed");
    const fields = body.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(["status", "tenantId", "title"]);
    const list = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: t.host, ...bearer(key) },
    });
    expect(list.json().pagination.total).toBe(0);
  });
});
