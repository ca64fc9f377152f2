import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { decodeJwt, decodeProtectedHeader, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courses, refreshTokens, users } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import {
  adminCookie,
  type Harness,
  json,
  makeTenant,
  makeUser,
  startHarness,
  TEST_PASSWORD,
  type TestTenant,
  tablesContaining,
} from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

function login(
  harness: Harness,
  tenant: TestTenant,
  email: string,
  password: string,
  remoteAddress?: string,
) {
  return harness.inject({
    method: "POST",
    url: "/api/auth/login",
    headers: { host: tenant.host, ...json },
    payload: { email, password },
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
}

type Injected = Awaited<ReturnType<typeof login>>;

function setCookies(res: Injected): string[] {
  const raw = res.headers["set-cookie"];
  return raw === undefined ? [] : [raw].flat();
}

function cookieValue(res: Injected, name: string): string {
  const found = res.cookies.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no ${name} cookie in ${JSON.stringify(setCookies(res))}`);
  return found.value;
}

/** The raw Set-Cookie line of one cookie, split into lower-cased attribute names and values. */
function cookieAttributes(res: Injected, name: string): Map<string, string> {
  const line = setCookies(res).find((c) => c.startsWith(`${name}=`));
  if (line === undefined) throw new Error(`no Set-Cookie for ${name}`);
  const attributes = new Map<string, string>();
  for (const part of line.split(";").slice(1)) {
    const [key, ...rest] = part.trim().split("=");
    attributes.set((key ?? "").toLowerCase(), rest.join("="));
  }
  return attributes;
}

const sessionHeaders = (tenant: TestTenant, access: string) => ({
  host: tenant.host,
  cookie: `sb-access-token=${access}`,
});

const listCourses = (tenant: TestTenant, access: string) =>
  h.inject({ method: "GET", url: "/api/institution/courses", headers: sessionHeaders(tenant, access) });

const refresh = (tenant: TestTenant, refreshToken: string) =>
  h.inject({
    method: "POST",
    url: "/api/auth/refresh",
    headers: { host: tenant.host, cookie: `sb-refresh-token=${refreshToken}` },
  });

async function expectUnauthorized(res: Injected): Promise<void> {
  expect(res.statusCode).toBe(401);
  expect(res.json().error).toBe("unauthorized");
  expect(res.headers["www-authenticate"]).toBe("Bearer");
}

describe("login", () => {
  it("answers {user} and sets HttpOnly, SameSite=Lax, host-only session cookies", async () => {
    const res = await login(h, a, a.adminEmail, a.password);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json();
    expect(Object.keys(body)).toEqual(["user"]);
    expect(Object.keys(body.user).sort()).toEqual([
      "classGroupIds",
      "createdAt",
      "email",
      "id",
      "name",
      "profileFields",
      "role",
      "status",
    ]);
    expect(body.user).toMatchObject({
      id: a.adminUserId,
      email: a.adminEmail,
      role: "institution_admin",
      status: "active",
      classGroupIds: [],
    });

    for (const name of ["sb-access-token", "sb-refresh-token"]) {
      const attributes = cookieAttributes(res, name);
      expect(attributes.has("httponly")).toBe(true);
      expect(attributes.get("samesite")).toBe("Lax");
      expect(attributes.get("path")).toBe("/");
      expect(attributes.has("domain")).toBe(false);
      // NODE_ENV=test serves plain http.
      expect(attributes.has("secure")).toBe(false);
      expect(Number(attributes.get("max-age"))).toBeGreaterThan(0);
    }
  });

  it("marks the cookies Secure in production", async () => {
    const prod = await startHarness({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(40) });
    try {
      const t = await makeTenant(prod);
      const res = await login(prod, t, t.adminEmail, t.password);
      expect(res.statusCode).toBe(200);
      for (const name of ["sb-access-token", "sb-refresh-token"]) {
        const attributes = cookieAttributes(res, name);
        expect(attributes.has("secure")).toBe(true);
        expect(attributes.has("httponly")).toBe(true);
        expect(attributes.get("samesite")).toBe("Lax");
        expect(attributes.has("domain")).toBe(false);
      }
    } finally {
      await prod.close();
    }
  });

  it("issues an HS256 access token with Supabase-shaped claims", async () => {
    const res = await login(h, a, a.adminEmail.toUpperCase(), a.password);
    expect(res.statusCode).toBe(200);
    const token = cookieValue(res, "sb-access-token");
    expect(decodeProtectedHeader(token).alg).toBe("HS256");
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: a.adminUserId,
      email: a.adminEmail,
      role: "authenticated",
      app_metadata: { tenantId: a.id, role: "institution_admin" },
    });
    expect(typeof claims.exp).toBe("number");
    const ttl = (claims.exp ?? 0) - Math.floor(Date.now() / 1000);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(h.config.auth.accessTokenTtlSeconds);
    // The token works.
    expect((await listCourses(a, token)).statusCode).toBe(200);
  });

  it("stores the refresh token only as its SHA-256", async () => {
    const res = await login(h, a, a.adminEmail, a.password);
    const token = cookieValue(res, "sb-refresh-token");
    expect(token.length).toBeGreaterThanOrEqual(43);
    const rows = await h.database.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.tenantId, a.id), eq(refreshTokens.tokenHash, sha256(token))));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: a.adminUserId, replacedAt: null, revokedAt: null });
    expect(JSON.stringify(rows[0])).not.toContain(token);
    expect(await tablesContaining(h, token)).toEqual([]);
    expect(await tablesContaining(h, sha256(token))).toEqual(["refresh_tokens"]);
  });

  it("gives a wrong password and an unknown e-mail the same 401 invalid_credentials", async () => {
    const wrong = await login(h, a, a.adminEmail, "not the password");
    const unknown = await login(h, a, `nobody-${randomBytes(4).toString("hex")}@${a.slug}.test`, a.password);
    // A real user of tenant B is unknown on A's host.
    const otherTenant = await login(h, a, b.adminEmail, b.password);
    for (const res of [wrong, unknown, otherTenant]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe("invalid_credentials");
      expect(res.cookies).toEqual([]);
    }
    expect(unknown.body).toBe(wrong.body);
    expect(otherTenant.body).toBe(wrong.body);
    expect(Object.keys(wrong.json()).sort()).toEqual(["error", "message"]);
  });

  it("refuses a user who is not active", async () => {
    const user = await makeUser(h, a, "teacher", TEST_PASSWORD);
    await h.database.db
      .update(users)
      .set({ status: "suspended" })
      .where(and(eq(users.tenantId, a.id), eq(users.id, user.id)));
    const res = await login(h, a, user.email, TEST_PASSWORD);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe("invalid_credentials");
  });
});

describe("login brute force", () => {
  let limited: Harness;
  let t: TestTenant;

  beforeAll(async () => {
    limited = await startHarness({ LOGIN_MAX_PER_EMAIL: "3", LOGIN_MAX_PER_IP: "5" });
    t = await makeTenant(limited);
  });
  afterAll(() => limited.close());

  const freshIp = () =>
    `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + ((randomBytes(1)[0] ?? 0) % 254)}`;

  function expectLimited(res: Injected): void {
    expect(res.statusCode).toBe(429);
    const body = res.json();
    expect(body.error).toBe("rate_limit_exceeded");
    expect(Number.isInteger(body.retryAfter)).toBe(true);
    expect(body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(body.retryAfter).toBeLessThanOrEqual(limited.config.auth.loginWindowSeconds);
    expect(res.headers["retry-after"]).toBe(String(body.retryAfter));
    expect(res.cookies).toEqual([]);
  }

  it("locks an e-mail after N failures, even from other IPs and with the right password", async () => {
    const victim = await makeUser(limited, t, "teacher", TEST_PASSWORD);
    for (let i = 0; i < 3; i++) {
      const res = await login(limited, t, victim.email, `guess-${i}`, freshIp());
      expect(res.statusCode).toBe(401);
    }
    // The e-mail is matched ignoring case, so changing it does not reset the count.
    expectLimited(await login(limited, t, victim.email.toUpperCase(), TEST_PASSWORD, freshIp()));
    expectLimited(await login(limited, t, victim.email, TEST_PASSWORD, freshIp()));
    // Another user is not affected.
    const other = await makeUser(limited, t, "teacher", TEST_PASSWORD);
    expect((await login(limited, t, other.email, TEST_PASSWORD, freshIp())).statusCode).toBe(200);
  });

  it("locks an IP that rotates e-mails", async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await login(
        limited,
        t,
        `spray-${i}-${randomBytes(3).toString("hex")}@x.test`,
        "password1",
        ip,
      );
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe("invalid_credentials");
    }
    // Past the IP budget even a correct login from that IP is refused; from elsewhere it works.
    expectLimited(await login(limited, t, t.adminEmail, t.password, ip));
    expect((await login(limited, t, t.adminEmail, t.password, freshIp())).statusCode).toBe(200);
  });

  it("counts a burst of concurrent guesses exactly: no more than N reach the password check", async () => {
    const victim = await makeUser(limited, t, "teacher", TEST_PASSWORD);
    const byEmail = await Promise.all(
      Array.from({ length: 10 }, (_, i) => login(limited, t, victim.email, `burst-${i}`, freshIp())),
    );
    const statuses = byEmail.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    expectLimited(await login(limited, t, victim.email, TEST_PASSWORD, freshIp()));

    const ip = freshIp();
    const byIp = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        login(limited, t, `burst-${i}-${randomBytes(3).toString("hex")}@x.test`, "p", ip),
      ),
    );
    expect(byIp.map((r) => r.statusCode).sort()).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it("does not count successful sign-ins against the IP", async () => {
    const ip = freshIp();
    for (let i = 0; i < 6; i++) {
      expect((await login(limited, t, t.adminEmail, t.password, ip)).statusCode).toBe(200);
    }
    for (let i = 0; i < 5; i++) {
      expect((await login(limited, t, `nobody-${i}@${t.slug}.test`, "wrong", ip)).statusCode).toBe(401);
    }
    expectLimited(await login(limited, t, t.adminEmail, t.password, ip));
  });
});

describe("access token validation", () => {
  let teacher: { id: string; email: string };
  let teacherToken: string;

  beforeAll(async () => {
    teacher = await makeUser(h, a, "teacher", TEST_PASSWORD);
    teacherToken = cookieValue(await login(h, a, teacher.email, TEST_PASSWORD), "sb-access-token");
  });

  const now = () => Math.floor(Date.now() / 1000);
  const claimsOf = (tenant: TestTenant, sub: string, role = "teacher") => ({
    email: "someone@x.test",
    role: "authenticated",
    app_metadata: { tenantId: tenant.id, role },
    session_id: decodeJwt(teacherToken).session_id,
    sub,
  });
  const sign = (
    payload: Record<string, unknown>,
    key: Uint8Array,
    times: { exp?: number; nbf?: number } = {},
  ) => {
    const jwt = new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setIssuedAt();
    jwt.setExpirationTime(times.exp ?? now() + 600);
    if (times.nbf !== undefined) jwt.setNotBefore(times.nbf);
    return jwt.sign(key);
  };
  /** Replaces the payload of a signed token, keeping its header and signature. */
  const tamper = (token: string, edit: (claims: Record<string, unknown>) => void) => {
    const [header, , signature] = token.split(".");
    const claims = decodeJwt(token) as Record<string, unknown>;
    edit(claims);
    return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
  };

  it("accepts a token signed with the session secret (control)", async () => {
    const token = await sign(claimsOf(a, teacher.id), h.config.auth.sessionSecret);
    expect((await listCourses(a, token)).statusCode).toBe(200);
  });

  it("refuses alg none", async () => {
    const token = new UnsecuredJWT(claimsOf(a, teacher.id)).setIssuedAt().setExpirationTime("10m").encode();
    await expectUnauthorized(await listCourses(a, token));
    // Also with the original signature left in place and only the header switched to none.
    const [, payload, signature] = teacherToken.split(".");
    const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    await expectUnauthorized(await listCourses(a, `${none}.${payload}.${signature}`));
    await expectUnauthorized(await listCourses(a, `${none}.${payload}.`));
  });

  it("refuses a token signed with another key", async () => {
    const token = await sign(claimsOf(a, teacher.id), randomBytes(32));
    await expectUnauthorized(await listCourses(a, token));
  });

  it("refuses an expired token and one not yet valid", async () => {
    const key = h.config.auth.sessionSecret;
    await expectUnauthorized(
      await listCourses(a, await sign(claimsOf(a, teacher.id), key, { exp: now() - 120 })),
    );
    await expectUnauthorized(
      await listCourses(a, await sign(claimsOf(a, teacher.id), key, { nbf: now() + 3600 })),
    );
  });

  it("refuses claims edited without re-signing", async () => {
    const edits: ((c: Record<string, unknown>) => void)[] = [
      (c) => {
        c.sub = a.adminUserId;
      },
      (c) => {
        c.app_metadata = { tenantId: b.id, role: "teacher" };
      },
      (c) => {
        c.app_metadata = { tenantId: a.id, role: "institution_admin" };
      },
      (c) => {
        c.exp = now() + 30 * 24 * 3600;
      },
    ];
    for (const edit of edits) {
      const forged = tamper(teacherToken, edit);
      expect(forged).not.toBe(teacherToken);
      await expectUnauthorized(await listCourses(a, forged));
      await expectUnauthorized(await listCourses(b, forged));
    }
    // The untouched token still works: the refusals are the signature's doing.
    expect((await listCourses(a, teacherToken)).statusCode).toBe(200);
  });

  it("refuses a valid token of tenant A on tenant B's host", async () => {
    await expectUnauthorized(await listCourses(b, teacherToken));
    const cookie = await adminCookie(h, a);
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/api-keys",
      headers: { host: b.host, cookie },
    });
    await expectUnauthorized(res);
  });

  it("refuses a token whose user does not belong to the host's tenant", async () => {
    // Signed with the real secret, naming B's tenant but A's user: no such user in B.
    const token = await sign(claimsOf(b, teacher.id), h.config.auth.sessionSecret);
    await expectUnauthorized(await listCourses(b, token));
  });
});

describe("refresh and logout", () => {
  it("rotates both cookies and revokes the family when an old refresh token is replayed", async () => {
    const first = await login(h, a, a.adminEmail, a.password);
    const access1 = cookieValue(first, "sb-access-token");
    const refresh1 = cookieValue(first, "sb-refresh-token");

    // A fresh iat needs a new second, or the new access token could equal the old one.
    await new Promise((r) => setTimeout(r, 1100));
    const rotated = await refresh(a, refresh1);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().user).toMatchObject({ id: a.adminUserId, email: a.adminEmail });
    const access2 = cookieValue(rotated, "sb-access-token");
    const refresh2 = cookieValue(rotated, "sb-refresh-token");
    expect(access2).not.toBe(access1);
    expect(refresh2).not.toBe(refresh1);
    for (const name of ["sb-access-token", "sb-refresh-token"]) {
      const attributes = cookieAttributes(rotated, name);
      expect(attributes.has("httponly")).toBe(true);
      expect(attributes.get("samesite")).toBe("Lax");
      expect(attributes.has("domain")).toBe(false);
    }
    expect((await listCourses(a, access2)).statusCode).toBe(200);

    const [row1] = await h.database.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.tenantId, a.id), eq(refreshTokens.tokenHash, sha256(refresh1))));
    const [row2] = await h.database.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.tenantId, a.id), eq(refreshTokens.tokenHash, sha256(refresh2))));
    expect(row1?.replacedAt).not.toBeNull();
    expect(row2?.familyId).toBe(row1?.familyId);
    expect(row2?.replacedAt).toBeNull();

    // Replaying the rotated token: 401 and the whole family is revoked.
    await expectUnauthorized(await refresh(a, refresh1));
    await expectUnauthorized(await refresh(a, refresh2));
    const family = await h.database.db
      .select({ revokedAt: refreshTokens.revokedAt })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.tenantId, a.id), eq(refreshTokens.familyId, row1?.familyId ?? "")));
    expect(family).toHaveLength(2);
    expect(family.every((r) => r.revokedAt !== null)).toBe(true);
  });

  it("keeps other sessions of the same user alive when one family is revoked", async () => {
    const one = cookieValue(await login(h, a, a.adminEmail, a.password), "sb-refresh-token");
    const two = cookieValue(await login(h, a, a.adminEmail, a.password), "sb-refresh-token");
    expect((await refresh(a, one)).statusCode).toBe(200);
    await expectUnauthorized(await refresh(a, one));
    expect((await refresh(a, two)).statusCode).toBe(200);
  });

  it("refuses a missing, unknown or other-tenant refresh token", async () => {
    await expectUnauthorized(
      await h.inject({ method: "POST", url: "/api/auth/refresh", headers: { host: a.host } }),
    );
    await expectUnauthorized(await refresh(a, randomBytes(32).toString("base64url")));
    const token = cookieValue(await login(h, a, a.adminEmail, a.password), "sb-refresh-token");
    await expectUnauthorized(await refresh(b, token));
    // Refused on B's host, it is still good on A's.
    expect((await refresh(a, token)).statusCode).toBe(200);
  });

  it("logs out with 204, clears both cookies, and the refresh token is dead", async () => {
    const res = await login(h, a, a.adminEmail, a.password);
    const access = cookieValue(res, "sb-access-token");
    const refreshToken = cookieValue(res, "sb-refresh-token");
    const out = await h.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { host: a.host, cookie: `sb-access-token=${access}; sb-refresh-token=${refreshToken}` },
    });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe("");
    for (const name of ["sb-access-token", "sb-refresh-token"]) {
      const cleared = out.cookies.find((c) => c.name === name);
      expect(cleared?.value).toBe("");
      const attributes = cookieAttributes(out, name);
      const gone =
        attributes.get("max-age") === "0" ||
        new Date(attributes.get("expires") ?? "").getTime() <= Date.now();
      expect(gone).toBe(true);
      expect(attributes.get("path")).toBe("/");
    }
    await expectUnauthorized(await refresh(a, refreshToken));
    const rows = await h.database.db
      .select({ revokedAt: refreshTokens.revokedAt })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.tenantId, a.id), eq(refreshTokens.tokenHash, sha256(refreshToken))));
    expect(rows[0]?.revokedAt).not.toBeNull();
  });

  it("ends the access token with its session: after logout, and after a replayed refresh token", async () => {
    const list = (access: string) =>
      h.inject({
        method: "GET",
        url: "/api/institution/courses",
        headers: { host: a.host, cookie: `sb-access-token=${access}` },
      });
    const first = await login(h, a, a.adminEmail, a.password);
    const access = cookieValue(first, "sb-access-token");
    expect((await list(access)).statusCode).toBe(200);
    await h.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { host: a.host, cookie: `sb-refresh-token=${cookieValue(first, "sb-refresh-token")}` },
    });
    // Still unexpired and correctly signed, but its session is over.
    await expectUnauthorized(await list(access));

    const second = await login(h, a, a.adminEmail, a.password);
    const oldRefresh = cookieValue(second, "sb-refresh-token");
    const rotated = await refresh(a, oldRefresh);
    const newAccess = cookieValue(rotated, "sb-access-token");
    expect((await list(newAccess)).statusCode).toBe(200);
    await expectUnauthorized(await refresh(a, oldRefresh));
    await expectUnauthorized(await list(newAccess));
    // Other sessions of the same user are untouched.
    const third = await login(h, a, a.adminEmail, a.password);
    expect((await list(cookieValue(third, "sb-access-token"))).statusCode).toBe(200);
  });
});

describe("authorisation of sessions", () => {
  it("applies a demotion at once, with the same access token", async () => {
    const admin = await makeUser(h, a, "institution_admin", TEST_PASSWORD);
    const access = cookieValue(await login(h, a, admin.email, TEST_PASSWORD), "sb-access-token");
    const createKey = () =>
      h.inject({
        method: "POST",
        url: "/api/institution/api-keys",
        headers: { ...sessionHeaders(a, access), ...json },
        payload: { name: "before", scopes: ["courses:read"], rateTier: "standard" },
      });
    expect((await createKey()).statusCode).toBe(201);

    await h.database.db
      .update(users)
      .set({ role: "teacher" })
      .where(and(eq(users.tenantId, a.id), eq(users.id, admin.id)));
    const res = await createKey();
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("forbidden");
    // The token itself still says institution_admin; it is still a valid session for what a teacher may do.
    expect((decodeJwt(access).app_metadata as { role: string }).role).toBe("institution_admin");
    expect((await listCourses(a, access)).statusCode).toBe(200);

    // A deactivated user loses the session at once too.
    await h.database.db
      .update(users)
      .set({ status: "suspended" })
      .where(and(eq(users.tenantId, a.id), eq(users.id, admin.id)));
    await expectUnauthorized(await listCourses(a, access));
  });

  it("refuses non-JSON bodies on cookie-authenticated writes (CSRF) and writes nothing", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const attempts = [
      { "content-type": "text/plain", payload: JSON.stringify({ title: "csrf" }) },
      { "content-type": "text/plain;charset=UTF-8", payload: JSON.stringify({ title: "csrf" }) },
      { "content-type": "application/x-www-form-urlencoded", payload: "title=csrf" },
      {
        "content-type": "multipart/form-data; boundary=x",
        payload: '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\ncsrf\r\n--x--\r\n',
      },
    ];
    for (const { payload, ...headers } of attempts) {
      const res = await h.inject({
        method: "POST",
        url: "/api/institution/courses",
        headers: { host: t.host, cookie, ...headers },
        payload,
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().error).toBe("unsupported_media_type");
    }
    expect(await h.database.db.select().from(courses).where(eq(courses.tenantId, t.id))).toEqual([]);

    // The same request as JSON goes through (control).
    const ok = await h.inject({
      method: "POST",
      url: "/api/institution/courses",
      headers: { host: t.host, cookie, ...json },
      payload: { title: "json" },
    });
    expect(ok.statusCode).toBe(201);
    expect(await h.database.db.select().from(courses).where(eq(courses.tenantId, t.id))).toHaveLength(1);
  });

  it("refuses a whole session cookie pair on another tenant's host", async () => {
    const cookie = await adminCookie(h, a);
    for (const [method, url] of [
      ["GET", "/api/institution/courses"],
      ["GET", "/api/institution/api-keys"],
    ] as const) {
      const onB = await h.inject({ method, url, headers: { host: b.host, cookie } });
      await expectUnauthorized(onB);
      const onA = await h.inject({ method, url, headers: { host: a.host, cookie } });
      expect(onA.statusCode).toBe(200);
    }
    const write = await h.inject({
      method: "POST",
      url: "/api/institution/courses",
      headers: { host: b.host, cookie, ...json },
      payload: { title: "cross" },
    });
    await expectUnauthorized(write);
    expect(await h.database.db.select().from(courses).where(eq(courses.tenantId, b.id))).toEqual([]);
  });
});
