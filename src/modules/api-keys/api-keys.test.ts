import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import {
  adminCookie,
  bearer,
  type Harness,
  json,
  makeKey,
  makeTenant,
  roleCookie,
  startHarness,
  type TestTenant,
  tablesContaining,
} from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let cookieA: string;
let cookieB: string;

beforeAll(async () => {
  cookieA = await adminCookie(h, a);
  cookieB = await adminCookie(h, b);
});

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every response body of this file, to check that a secret is shown exactly once. */
const bodies: string[] = [];
const secretsShown: string[] = [];

async function send(options: InjectOptions) {
  const res = await h.inject(options);
  bodies.push(res.body);
  return res;
}

async function createKey(tenant: TestTenant, cookie: string, payload: unknown) {
  const res = await send({
    method: "POST",
    url: "/api/institution/api-keys",
    headers: { host: tenant.host, cookie, ...json },
    payload: payload as object,
  });
  if (res.statusCode === 201) secretsShown.push(res.json().secret);
  return res;
}

const listKeys = (tenant: TestTenant, headers: Record<string, string>, query = "") =>
  send({
    method: "GET",
    url: `/api/institution/api-keys${query}`,
    headers: { host: tenant.host, ...headers },
  });

const revoke = (tenant: TestTenant, headers: Record<string, string>, id: string) =>
  send({
    method: "DELETE",
    url: `/api/institution/api-keys/${id}`,
    headers: { host: tenant.host, ...headers },
  });

const useKey = (tenant: TestTenant, secret: string) =>
  send({ method: "GET", url: "/api/institution/courses", headers: { host: tenant.host, ...bearer(secret) } });

async function keyRow(tenant: TestTenant, id: string) {
  const rows = await h.database.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, tenant.id), eq(apiKeys.id, id)));
  return rows[0];
}

const keyRows = (tenant: TestTenant) =>
  h.database.db.select().from(apiKeys).where(eq(apiKeys.tenantId, tenant.id));

describe("creating keys", () => {
  it("answers 201 with the secret once, no-store, and stores only its SHA-256", async () => {
    const res = await createKey(a, cookieA, {
      name: "LMS sync",
      scopes: ["courses:read"],
      rateTier: "standard",
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers["cache-control"]).toBe("no-store");
    const key = res.json();
    expect(Object.keys(key).sort()).toEqual([
      "createdAt",
      "customLimits",
      "id",
      "name",
      "prefix",
      "rateTier",
      "scopes",
      "secret",
    ]);
    expect(key).toMatchObject({
      name: "LMS sync",
      scopes: ["courses:read"],
      rateTier: "standard",
      customLimits: null,
    });
    expect(key.secret).toMatch(/^mia_[0-9a-f]{40}$/);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeGreaterThanOrEqual(4);
    expect(key.prefix.length).toBeLessThanOrEqual(12);
    expect(key.createdAt).toMatch(ISO);

    const row = await keyRow(a, key.id);
    expect(row).toMatchObject({
      keyHash: sha256(key.secret),
      prefix: key.prefix,
      status: "active",
      createdByUserId: a.adminUserId,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(JSON.stringify(row)).not.toContain(key.secret);
    expect(await tablesContaining(h, key.secret)).toEqual([]);
    expect(await tablesContaining(h, key.secret.slice(4))).toEqual([]);

    // The key works at once.
    expect((await useKey(a, key.secret)).statusCode).toBe(200);
  });

  it("makes a different secret every time and echoes scopes: [] for an every-scope key", async () => {
    const one = await createKey(a, cookieA, { name: "admin", scopes: [], rateTier: "high" });
    const two = await createKey(a, cookieA, { name: "admin", scopes: [], rateTier: "high" });
    expect(one.statusCode).toBe(201);
    expect(two.statusCode).toBe(201);
    const [k1, k2] = [one.json(), two.json()];
    expect(k1.scopes).toEqual([]);
    expect(k1.rateTier).toBe("high");
    expect(k1.customLimits).toBeNull();
    expect(k1.secret).not.toBe(k2.secret);
    expect(k1.id).not.toBe(k2.id);
    expect((await keyRow(a, k1.id))?.keyHash).not.toBe((await keyRow(a, k2.id))?.keyHash);
    expect((await keyRow(a, k1.id))?.scopes).toEqual([]);
  });

  it("refuses unknown scopes and inconsistent limits with field details, storing nothing", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const cases: [unknown, string[]][] = [
      [{ name: "k", scopes: ["courses:admin"], rateTier: "standard" }, ["scopes[0]"]],
      [{ name: "k", scopes: ["courses:read", "reports:write"], rateTier: "standard" }, ["scopes[1]"]],
      [{ name: "k", scopes: [], rateTier: "custom" }, ["customLimits"]],
      [{ name: "k", scopes: [], rateTier: "standard", customLimits: { perHour: 10 } }, ["customLimits"]],
      [
        { name: "k", scopes: [], rateTier: "high", customLimits: { perHour: 10, perMinute: 5 } },
        ["customLimits"],
      ],
      [{ name: "k", scopes: [], rateTier: "premium" }, ["rateTier"]],
      [{ name: "k", scopes: [], rateTier: "standard", keyHash: "x" }, ["keyHash"]],
    ];
    for (const [payload, fields] of cases) {
      const res = await createKey(t, cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const body = res.json();
      expect(body.error).toBe("validation_failed");
      expect(body.details.map((d: { field: string }) => d.field)).toEqual(fields);
      for (const d of body.details) expect(typeof d.message).toBe("string");
    }
    const unknown = await createKey(t, cookie, {
      name: "k",
      scopes: ["courses:admin"],
      rateTier: "standard",
    });
    expect(unknown.json().details[0].message).toContain("courses:admin");
    expect(await keyRows(t)).toEqual([]);
  });

  it("defaults customLimits.perMinute to 60", async () => {
    const res = await createKey(a, cookieA, {
      name: "custom",
      scopes: ["courses:read"],
      rateTier: "custom",
      customLimits: { perHour: 500 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().customLimits).toEqual({ perHour: 500, perMinute: 60 });
    const row = await keyRow(a, res.json().id);
    expect(row).toMatchObject({ rateTier: "custom", customPerHour: 500, customPerMinute: 60 });

    const explicit = await createKey(a, cookieA, {
      name: "custom",
      scopes: [],
      rateTier: "custom",
      customLimits: { perHour: 5, perMinute: 2 },
    });
    expect(explicit.json().customLimits).toEqual({ perHour: 5, perMinute: 2 });
  });

  it("is for administrator sessions only", async () => {
    const t = await makeTenant(h);
    const fullKey = await makeKey(h, t, []);
    const payload = { name: "k", scopes: [], rateTier: "standard" };
    const viaKey = await send({
      method: "POST",
      url: "/api/institution/api-keys",
      headers: { host: t.host, ...json, ...bearer(fullKey) },
      payload,
    });
    expect(viaKey.statusCode).toBe(403);
    expect(viaKey.json().error).toBe("session_required");

    for (const role of ["teacher", "student"] as const) {
      const res = await createKey(t, await roleCookie(h, t, role), payload);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe("forbidden");
    }
    // Only the key made by the helper exists.
    expect(await keyRows(t)).toHaveLength(1);

    const victim = (await keyRows(t))[0]?.id ?? "";
    const deleteViaKey = await revoke(t, bearer(fullKey), victim);
    expect(deleteViaKey.statusCode).toBe(403);
    expect(deleteViaKey.json().error).toBe("session_required");
    for (const role of ["teacher", "student"] as const) {
      const res = await revoke(t, { cookie: await roleCookie(h, t, role) }, victim);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe("forbidden");
    }
    expect((await keyRow(t, victim))?.status).toBe("active");
    expect((await useKey(t, fullKey)).statusCode).toBe(200);
  });
});

describe("listing keys", () => {
  it("shows active keys with their prefix, never a secret or hash, in the page envelope", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const created = [];
    for (const name of ["one", "two", "three"]) {
      const res = await createKey(t, cookie, { name, scopes: ["settings:read"], rateTier: "standard" });
      created.push(res.json());
    }
    expect((await revoke(t, { cookie }, created[1].id)).statusCode).toBe(204);

    const res = await listKeys(t, { cookie });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(["data", "pagination"]);
    expect(body.pagination).toEqual({ page: 1, perPage: 20, total: 2, totalPages: 1 });
    expect(body.data.map((k: { name: string }) => k.name)).toEqual(["three", "one"]);
    for (const item of body.data) {
      expect(Object.keys(item).sort()).toEqual([
        "createdAt",
        "customLimits",
        "id",
        "lastUsedAt",
        "name",
        "prefix",
        "rateTier",
        "scopes",
      ]);
    }
    expect(body.data[0]).toEqual({
      id: created[2].id,
      name: "three",
      scopes: ["settings:read"],
      rateTier: "standard",
      customLimits: null,
      prefix: created[2].prefix,
      lastUsedAt: null,
      createdAt: created[2].createdAt,
    });
    for (const key of created) {
      expect(res.body).not.toContain(key.secret);
      expect(res.body).not.toContain(sha256(key.secret));
    }

    const page2 = await listKeys(t, { cookie }, "?perPage=1&page=2");
    expect(page2.json().pagination).toEqual({ page: 2, perPage: 1, total: 2, totalPages: 2 });
    expect(page2.json().data.map((k: { id: string }) => k.id)).toEqual([created[0].id]);

    // A key holding settings:read may list too, and sees the same page.
    const viaKey = await listKeys(t, bearer(created[0].secret));
    expect(viaKey.statusCode).toBe(200);
    expect(viaKey.json().pagination.total).toBe(2);
    expect(viaKey.body).not.toContain(created[0].secret);
  });

  it("refuses a key without settings:read, naming the scope, and non-admin sessions", async () => {
    const t = await makeTenant(h);
    const narrow = await makeKey(h, t, ["courses:read", "settings:write"]);
    const res = await listKeys(t, bearer(narrow));
    expect(res.statusCode).toBe(403);
    const body = res.json();
    expect(body.error).toBe("insufficient_scope");
    expect(body.details).toHaveLength(1);
    expect(body.details[0].field).toBe("scope");
    expect(body.details[0].message).toContain("settings:read");
    expect(body.message).toContain("settings:read");

    for (const role of ["teacher", "student"] as const) {
      const denied = await listKeys(t, { cookie: await roleCookie(h, t, role) });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().error).toBe("forbidden");
    }
  });

  it("never lists another tenant's keys", async () => {
    const t = await makeTenant(h);
    const keyOfB = await createKey(b, cookieB, { name: "b's", scopes: [], rateTier: "standard" });
    const res = await listKeys(t, { cookie: await adminCookie(h, t) });
    expect(res.json().pagination.total).toBe(0);
    expect(res.body).not.toContain(keyOfB.json().id);
  });
});

describe("revoking keys", () => {
  it("revokes with 204 and the key is refused on the very next request, cache or not", async () => {
    const created = (
      await createKey(a, cookieA, { name: "doomed", scopes: [], rateTier: "standard" })
    ).json();
    // Used (and so cached by this process) right before revoking.
    expect((await useKey(a, created.secret)).statusCode).toBe(200);
    expect((await useKey(a, created.secret)).statusCode).toBe(200);

    const res = await revoke(a, { cookie: cookieA }, created.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    const refused = await useKey(a, created.secret);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe("unauthorized");
    expect(refused.headers["www-authenticate"]).toBe("Bearer");

    const row = await keyRow(a, created.id);
    expect(row?.status).toBe("revoked");
    expect(row?.revokedAt).toMatch(ISO);

    const again = await revoke(a, { cookie: cookieA }, created.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toBe("not_found");
  });

  it("does not find another tenant's key, which keeps working", async () => {
    const keyOfB = (await createKey(b, cookieB, { name: "b", scopes: [], rateTier: "standard" })).json();
    const res = await revoke(a, { cookie: cookieA }, keyOfB.id);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe("not_found");
    expect(res.body).not.toContain(keyOfB.id);
    expect((await keyRow(b, keyOfB.id))?.status).toBe("active");
    expect((await useKey(b, keyOfB.secret)).statusCode).toBe(200);

    const notAnId = await revoke(a, { cookie: cookieA }, "not-a-uuid");
    expect(notAnId.statusCode).toBe(404);
    expect(notAnId.json().error).toBe("not_found");
  });
});

describe("unusable credentials", () => {
  it("all get the same 401 with WWW-Authenticate: Bearer", async () => {
    const revoked = (await createKey(a, cookieA, { name: "r", scopes: [], rateTier: "standard" })).json();
    expect((await useKey(a, revoked.secret)).statusCode).toBe(200);
    expect((await revoke(a, { cookie: cookieA }, revoked.id)).statusCode).toBe(204);
    const keyOfB = (await createKey(b, cookieB, { name: "b", scopes: [], rateTier: "standard" })).json();
    const unknown = `mia_${randomBytes(20).toString("hex")}`;

    const authorizations = [
      `Bearer ${revoked.secret}`,
      "Bearer mia_xyz",
      "Bearer",
      "Bearer ",
      "Basic abc",
      `Basic ${Buffer.from(`user:${unknown}`).toString("base64")}`,
      `Bearer ${unknown}`,
      `Bearer ${keyOfB.secret}`,
      `Bearer ${unknown.toUpperCase()}`,
      `Bearer ${unknown} extra`,
      "",
    ];
    const responses = [];
    for (const authorization of authorizations) {
      responses.push(
        await send({
          method: "GET",
          url: "/api/institution/courses",
          headers: { host: a.host, authorization },
        }),
      );
    }
    responses.push(await send({ method: "GET", url: "/api/institution/courses", headers: { host: a.host } }));
    // A key anywhere but the Authorization header is no credential.
    const fullA = await makeKey(h, a, []);
    responses.push(
      await send({
        method: "GET",
        url: `/api/institution/courses?api_key=${fullA}`,
        headers: { host: a.host },
      }),
    );
    responses.push(
      await send({
        method: "GET",
        url: "/api/institution/courses",
        headers: { host: a.host, cookie: `api_key=${fullA}; sb-access-token=${fullA}` },
      }),
    );

    const reference = responses[0];
    expect(reference?.json()).toEqual({ error: "unauthorized", message: expect.any(String) });
    responses.forEach((res, i) => {
      expect(res.statusCode, `case ${i}`).toBe(401);
      expect(res.body, `case ${i}`).toBe(reference?.body);
      expect(res.headers["www-authenticate"], `case ${i}`).toBe("Bearer");
      expect(res.headers["x-ratelimit-limit"], `case ${i}`).toBeUndefined();
    });
    // The same keys are fine where they belong.
    expect((await useKey(a, fullA)).statusCode).toBe(200);
    expect((await useKey(b, keyOfB.secret)).statusCode).toBe(200);
  });
});

describe("key use", () => {
  it("records lastUsedAt", async () => {
    const created = (await createKey(a, cookieA, { name: "used", scopes: [], rateTier: "standard" })).json();
    expect((await keyRow(a, created.id))?.lastUsedAt).toBeNull();
    expect((await useKey(a, created.secret)).statusCode).toBe(200);
    let lastUsedAt: string | null | undefined = null;
    for (let i = 0; i < 50 && lastUsedAt === null; i++) {
      await new Promise((r) => setTimeout(r, 50));
      lastUsedAt = (await keyRow(a, created.id))?.lastUsedAt;
    }
    expect(lastUsedAt).toMatch(ISO);
    expect(Math.abs(Date.parse(lastUsedAt ?? "") - Date.now())).toBeLessThan(60_000);

    const listed = (await listKeys(a, { cookie: cookieA }, "?perPage=100")).json();
    const item = listed.data.find((k: { id: string }) => k.id === created.id);
    expect(item.lastUsedAt).toBe(lastUsedAt);
  });
});

describe("secrets in responses", () => {
  it("shows each secret in exactly one response body of this whole file", () => {
    expect(secretsShown.length).toBeGreaterThan(5);
    for (const secret of secretsShown) {
      expect(bodies.filter((body) => body.includes(secret))).toHaveLength(1);
    }
  });
});

describe("revocation across processes", () => {
  it.runIf(process.env.REDIS_URL && process.env.DATABASE_URL)(
    "reaches another app instance that had the key cached",
    async () => {
      const h2 = await startHarness();
      try {
        const t = await makeTenant(h);
        const key = await makeKey(h, t, ["courses:read"]);
        const list = (on: Harness) =>
          on.inject({
            method: "GET",
            url: "/api/institution/courses",
            headers: { host: t.host, ...bearer(key) },
          });
        // Both instances have now looked the key up and cached it.
        expect((await list(h)).statusCode).toBe(200);
        expect((await list(h2)).statusCode).toBe(200);
        const [row] = await h.database.db.select().from(apiKeys).where(eq(apiKeys.tenantId, t.id));
        const cookie = await adminCookie(h, t);
        const revoke = await h.inject({
          method: "DELETE",
          url: `/api/institution/api-keys/${row?.id}`,
          headers: { host: t.host, cookie },
        });
        expect(revoke.statusCode).toBe(204);
        expect((await list(h)).statusCode).toBe(401);
        // Pub/sub is asynchronous: the other instance hears it within moments, long before its cache would expire.
        let status = 200;
        for (let i = 0; i < 20 && status !== 401; i++) {
          await new Promise((r) => setTimeout(r, 25));
          status = (await list(h2)).statusCode;
        }
        expect(status).toBe(401);
      } finally {
        await h2.close();
      }
    },
  );
});
