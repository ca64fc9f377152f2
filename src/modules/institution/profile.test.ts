import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { tenantDomains, tenants } from "../../db/schema/index.js";
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

const { h, tenants: testTenants } = useApi({
  env: { PLAN_STUDENT_LIMITS: '{"free":7,"growth":300}' },
  tenants: ["Colégio Alfa", "Beta University"],
});
const [a, b] = testTenants;
let adminA: string;

beforeAll(async () => {
  adminA = await adminCookie(h, a);
});

const getProfile = (tenant: TestTenant, headers: Record<string, string>) =>
  h.inject({ method: "GET", url: "/api/institution/profile", headers: { host: tenant.host, ...headers } });

const patchProfile = (payload: unknown, cookie = adminA) =>
  h.inject({
    method: "PATCH",
    url: "/api/institution/profile",
    headers: { host: a.host, ...json, cookie, "accept-language": "en-US" },
    payload: payload as object,
  });

const tenantRow = async (id: string) =>
  (await h.database.db.select().from(tenants).where(eq(tenants.id, id)))[0];

describe("GET /api/institution/profile", () => {
  it("answers the institution's own profile, with the plan's student limit from configuration", async () => {
    const res = await getProfile(a, { cookie: await roleCookie(h, a, "student") });
    expect(res.statusCode).toBe(200);
    const profile = res.json();
    expect(Object.keys(profile).sort()).toEqual([
      "contactEmail",
      "createdAt",
      "customDomains",
      "defaultLocale",
      "id",
      "limits",
      "name",
      "plan",
      "slug",
      "timezone",
      "updatedAt",
    ]);
    expect(profile).toMatchObject({
      id: a.id,
      name: "Colégio Alfa",
      slug: a.slug,
      defaultLocale: "pt-BR",
      timezone: "America/Sao_Paulo",
      contactEmail: null,
      plan: "free",
      limits: { students: 7 },
      customDomains: [],
    });
    expect(profile.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("follows the tenant's plan and lists its custom domains with their status", async () => {
    const t = await makeTenant(h);
    await h.database.db.update(tenants).set({ plan: "growth" }).where(eq(tenants.id, t.id));
    await h.database.db.insert(tenantDomains).values([
      { tenantId: t.id, host: `pending.${t.slug}.test`, verificationToken: "x" },
      {
        tenantId: t.id,
        host: `live.${t.slug}.test`,
        verificationToken: "y",
        verifiedAt: new Date().toISOString(),
      },
      { tenantId: t.id, host: `broken.${t.slug}.test`, verificationToken: "z", lastCheckError: "No record" },
    ]);
    const res = await getProfile(t, bearer(await makeKey(h, t, ["settings:read"])));
    expect(res.statusCode).toBe(200);
    expect(res.json().plan).toBe("growth");
    expect(res.json().limits).toEqual({ students: 300 });
    expect(res.json().customDomains).toHaveLength(3);
    expect(res.json().customDomains).toEqual(
      expect.arrayContaining([
        { host: `pending.${t.slug}.test`, status: "pending" },
        { host: `live.${t.slug}.test`, status: "verified" },
        { host: `broken.${t.slug}.test`, status: "failed" },
      ]),
    );
  });

  it("shows each tenant only its own profile", async () => {
    const res = await getProfile(b, bearer(await makeKey(h, b, ["settings:read"])));
    expect(res.json().id).toBe(b.id);
    expect(res.body).not.toContain(a.id);
  });
});

describe("PATCH /api/institution/profile", () => {
  it("updates the named fields, stores the time zone's canonical spelling and answers the profile", async () => {
    const before = await tenantRow(a.id);
    const res = await patchProfile({
      name: "Colégio Alfa Novo",
      defaultLocale: "es-ES",
      timezone: "america/recife",
      contactEmail: "secretaria@alfa.test",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: a.id,
      name: "Colégio Alfa Novo",
      defaultLocale: "es-ES",
      timezone: "America/Recife",
      contactEmail: "secretaria@alfa.test",
      slug: a.slug,
      plan: "free",
    });
    const row = await tenantRow(a.id);
    expect(row).toMatchObject({
      name: "Colégio Alfa Novo",
      defaultLocale: "es-ES",
      timezone: "America/Recife",
      contactEmail: "secretaria@alfa.test",
    });
    expect((row?.updatedAt ?? "") > (before?.updatedAt ?? "")).toBe(true);

    const cleared = await patchProfile({ contactEmail: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().contactEmail).toBeNull();
    expect(cleared.json().name).toBe("Colégio Alfa Novo");
  });

  it("drops the cached tenant at once, so the new name is what the next request sees", async () => {
    const t = await makeTenant(h, "Old Name");
    expect((await h.ctx.tenants.resolve(t.host))?.name).toBe("Old Name");
    const res = await h.inject({
      method: "PATCH",
      url: "/api/institution/profile",
      headers: { host: t.host, ...json, cookie: await adminCookie(h, t) },
      payload: { name: "New Name" },
    });
    expect(res.statusCode).toBe(200);
    expect((await h.ctx.tenants.resolve(t.host))?.name).toBe("New Name");
  });

  it.each([
    [{ timezone: "Mars/Olympus_Mons" }, "timezone"],
    [{ timezone: "+03:00" }, "timezone"],
    [{ defaultLocale: "de-DE" }, "defaultLocale"],
    [{ contactEmail: "not an email" }, "contactEmail"],
    [{ name: "" }, "name"],
    [{ name: "x".repeat(201) }, "name"],
    [{ plan: "pro_100" }, "plan"],
    [{ slug: "taken" }, "slug"],
  ])("refuses %j with 400 naming %s, and changes nothing", async (payload, field) => {
    const before = await tenantRow(a.id);
    const res = await patchProfile(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("validation_failed");
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await tenantRow(a.id)).toEqual(before);
  });

  it("explains a bad time zone in the caller's language", async () => {
    const res = await patchProfile({ timezone: "Nowhere/Land" });
    expect(res.json().details).toEqual([
      { field: "timezone", message: "Must be an IANA time zone, such as America/Sao_Paulo." },
    ]);
  });

  it("refuses an empty body", async () => {
    const res = await patchProfile({});
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("validation_failed");
  });

  it("is for administrators' sessions only", async () => {
    const teacher = await patchProfile({ name: "Teacher was here" }, await roleCookie(h, a, "teacher"));
    expect(teacher.statusCode).toBe(403);
    expect(teacher.json().error).toBe("forbidden");
    const key = await h.inject({
      method: "PATCH",
      url: "/api/institution/profile",
      headers: { host: a.host, ...json, ...bearer(await makeKey(h, a, [])) },
      payload: { name: "Key was here" },
    });
    expect(key.statusCode).toBe(403);
    expect(key.json().error).toBe("session_required");
    expect((await tenantRow(a.id))?.name).not.toMatch(/was here/);
  });
});
