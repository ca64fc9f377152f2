import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { tenantDomains } from "../../db/schema/index.js";
import { createTxtStub, noTxtData, type TxtStub } from "../../platform/outbound/resolver.js";
import { callApi, type Method, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import {
  adminCookie,
  bearer,
  json,
  makeKey,
  makeTenant,
  roleCookie,
  uniqueSlug,
} from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: ["Test Institution", "Beta University"] });
const [a, b] = tenants;
let adminA: string;
let adminB: string;
let txt: TxtStub;

beforeAll(async () => {
  txt = createTxtStub();
  h.ctx.resolveTxt = txt.resolveTxt;
  adminA = await adminCookie(h, a);
  adminB = await adminCookie(h, b);
});

/** A host no other test (or test file sharing the database) uses. */
const freshHost = () => `learn.${uniqueSlug("d")}.example.org`;

const call = (method: Method, url: string, cookie = adminA, payload?: unknown, host = a.host) =>
  callApi(h, { host }, cookie, method, url, payload, WHOLE_PATHS);

const addDomain = (domain: string, cookie = adminA, tenantHost = a.host) =>
  call("POST", "/api/institution/domains", cookie, { host: domain }, tenantHost);

const domainRows = (tenantId: string, domain: string) =>
  h.database.db
    .select()
    .from(tenantDomains)
    .where(and(eq(tenantDomains.tenantId, tenantId), eq(tenantDomains.host, domain)));

describe("adding a custom domain", () => {
  it("registers it as pending and answers the TXT record to publish", async () => {
    const domain = freshHost();
    const res = await addDomain(domain);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      "createdAt",
      "host",
      "lastCheckError",
      "lastCheckedAt",
      "status",
      "verification",
      "verifiedAt",
    ]);
    expect(body).toMatchObject({
      host: domain,
      status: "pending",
      verifiedAt: null,
      lastCheckedAt: null,
      lastCheckError: null,
      verification: { type: "TXT", name: `_aula-verification.${domain}` },
    });
    expect(body.verification.value).toMatch(/^aula-verification=[0-9a-f]{32}$/);
    const [row] = await domainRows(a.id, domain);
    expect(`aula-verification=${row?.verificationToken}`).toBe(body.verification.value);
    expect(row?.verifiedAt).toBeNull();
  });

  it.each([
    ["Learn.Example.org", "host_name"],
    ["localhost", "host_name"],
    ["example", "host_name"],
    ["10.0.0.1", "host_name"],
    ["127.1", "host_name"],
    ["[::1]", "host_name"],
    ["::1", "host_name"],
    ["example.com.", "host_name"],
    [".example.com", "host_name"],
    ["exa_mple.com", "host_name"],
    ["-bad.example.com", "host_name"],
    ["bad-.example.com", "host_name"],
    [`${"a".repeat(64)}.example.com`, "host_name"],
    ["https://example.com", "host_name"],
    [`${"a".repeat(60)}.${"b".repeat(30)}.example.org`, "max_length"],
    ["example.com:8443", "host_name"],
    ["acme.localhost", "host_reserved"],
    ["deep.acme.localhost", "host_reserved"],
  ])("refuses %s with 400 on host", async (domain, reason) => {
    const res = await addDomain(domain);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("validation_failed");
    expect(res.json().details).toEqual([{ field: "host", message: expect.any(String) }]);
    if (reason === "host_reserved") expect(res.json().details[0].message).toMatch(/platform's own domain/);
    if (reason === "max_length")
      expect(res.json().details[0].message).toBe("Must be at most 100 characters long.");
    expect(await domainRows(a.id, domain)).toEqual([]);
  });

  it("refuses unknown fields and a missing host", async () => {
    const extra = await call("POST", "/api/institution/domains", adminA, {
      host: freshHost(),
      verified: true,
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().details).toEqual([{ field: "verified", message: "This field is not allowed." }]);
    const missing = await call("POST", "/api/institution/domains", adminA, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details[0].field).toBe("host");
  });

  it("lets institutions claim a pending host side by side, serves it to the first that verifies, and 409s the rest", async () => {
    const domain = freshHost();
    const mine = await addDomain(domain);
    expect(mine.statusCode).toBe(201);
    const again = await addDomain(domain);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: "conflict", message: "This domain is already registered." });
    // A pending claim proves nothing, so it cannot keep the host's real owner out.
    const theirs = await addDomain(domain, adminB, b.host);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().verification.value).not.toBe(mine.json().verification.value);

    // Only the token of B's claim is published: A's check fails, B's passes.
    const verifyAs = (cookie: string, tenantHost: string) =>
      call("POST", `/api/institution/domains/${domain}/verify`, cookie, undefined, tenantHost);
    txt.set(`_aula-verification.${domain}`, [theirs.json().verification.value]);
    expect((await verifyAs(adminA, a.host)).json().status).toBe("failed");
    expect((await verifyAs(adminB, b.host)).json().status).toBe("verified");
    // Now A cannot verify it, even with its own token published, nor can anyone claim it again.
    txt.set(`_aula-verification.${domain}`, [mine.json().verification.value]);
    const late = await verifyAs(adminA, a.host);
    expect(late.statusCode).toBe(409);
    expect(late.body).toBe(again.body);
    expect((await addDomain(domain, adminB, b.host)).statusCode).toBe(409);
    expect(
      (
        await h.inject({
          method: "GET",
          url: "/api/institution/profile",
          headers: { host: domain, cookie: adminB },
        })
      ).statusCode,
    ).toBe(200);
  });

  it("is for administrators' sessions only", async () => {
    const teacher = await addDomain(freshHost(), await roleCookie(h, a, "teacher"));
    expect(teacher.statusCode).toBe(403);
    const key = await h.inject({
      method: "POST",
      url: "/api/institution/domains",
      headers: { host: a.host, ...json, ...bearer(await makeKey(h, a, [])) },
      payload: { host: freshHost() },
    });
    expect(key.statusCode).toBe(403);
    expect(key.json().error).toBe("session_required");
  });
});

describe("listing and reading domains", () => {
  it("pages the tenant's own domains, sorted as asked, with an exact total", async () => {
    const t = await makeTenant(h);
    const admin = await adminCookie(h, t);
    const base = uniqueSlug("s");
    const hosts = [`c.${base}.test`, `a.${base}.test`, `b.${base}.test`];
    for (const domain of hosts) expect((await addDomain(domain, admin, t.host)).statusCode).toBe(201);
    await addDomain(`other.${base}.test`, adminB, b.host);

    const newest = await call("GET", "/api/institution/domains?perPage=2", admin, undefined, t.host);
    expect(newest.statusCode).toBe(200);
    expect(newest.json().pagination).toEqual({ page: 1, perPage: 2, total: 3, totalPages: 2 });
    expect(newest.json().data.map((d: { host: string }) => d.host)).toEqual([hosts[2], hosts[1]]);

    const byHost = await call("GET", "/api/institution/domains?sort=host", admin, undefined, t.host);
    expect(byHost.json().data.map((d: { host: string }) => d.host)).toEqual([...hosts].sort());
    const byHostDesc = await call("GET", "/api/institution/domains?sort=-host", admin, undefined, t.host);
    expect(byHostDesc.json().data.map((d: { host: string }) => d.host)).toEqual([...hosts].sort().reverse());
    const oldest = await call("GET", "/api/institution/domains?sort=createdAt", admin, undefined, t.host);
    expect(oldest.json().data.map((d: { host: string }) => d.host)).toEqual(hosts);

    const bad = await call("GET", "/api/institution/domains?sort=verifiedAt", admin, undefined, t.host);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe("sort");
  });

  it("reads one domain by host, ignoring the case of the path, and 404s malformed and foreign hosts alike", async () => {
    const domain = freshHost();
    const created = (await addDomain(domain)).json();
    const got = await call("GET", `/api/institution/domains/${domain.toUpperCase()}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(created);

    const theirs = freshHost();
    await addDomain(theirs, adminB, b.host);
    const foreign = await call("GET", `/api/institution/domains/${theirs}`);
    const unknown = await call("GET", `/api/institution/domains/${freshHost()}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
    const badLabel = `${"a".repeat(64)}.example.org`;
    for (const malformed of ["not_a_host", "10.0.0.1", badLabel]) {
      const res = await call("GET", `/api/institution/domains/${malformed}`);
      expect(res.statusCode, malformed).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
  });
});

describe("verifying a domain", () => {
  const verify = (domain: string, cookie = adminA) =>
    call("POST", `/api/institution/domains/${domain}/verify`, cookie);

  it("fails without a record, with a wrong record and on a lookup error: 200, status failed, the reason kept", async () => {
    const domain = freshHost();
    await addDomain(domain);

    const missing = await verify(domain);
    expect(missing.statusCode).toBe(200);
    expect(missing.json()).toMatchObject({
      status: "failed",
      verifiedAt: null,
      lastCheckError: `No TXT record found at _aula-verification.${domain}.`,
    });
    expect(missing.json().lastCheckedAt).toMatch(/Z$/);

    txt.set(`_aula-verification.${domain}`, ["v=spf1 -all", "aula-verification=not-the-token"]);
    const wrong = await verify(domain);
    expect(wrong.json().status).toBe("failed");
    expect(wrong.json().lastCheckError).toMatch(/do not include aula-verification=[0-9a-f]{32}\.$/);

    const servfail = noTxtData(`_aula-verification.${domain}`);
    servfail.code = "ESERVFAIL";
    txt.set(`_aula-verification.${domain}`, servfail);
    const failed = await verify(domain);
    expect(failed.statusCode).toBe(200);
    expect(failed.json().lastCheckError).toBe(
      `The DNS lookup of _aula-verification.${domain} failed (ESERVFAIL).`,
    );
    const [row] = await domainRows(a.id, domain);
    expect(row?.verifiedAt).toBeNull();
    expect(row?.lastCheckError).toBe(failed.json().lastCheckError);
  });

  it("verifies a matching record, and the host then serves the institution at once", async () => {
    const domain = freshHost();
    const created = (await addDomain(domain)).json();
    const key = await makeKey(h, a, ["settings:read"]);
    const viaDomain = () =>
      h.inject({ method: "GET", url: "/api/institution/profile", headers: { host: domain, ...bearer(key) } });

    // Asked before verification: the resolver now caches "no tenant here" for the host.
    const before = await viaDomain();
    expect(before.statusCode).toBe(404);
    expect(before.json().error).toBe("tenant_not_found");

    txt.set(`_aula-verification.${domain}`, ["something else", created.verification.value]);
    const res = await verify(domain);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ host: domain, status: "verified", lastCheckError: null });
    expect(res.json().verifiedAt).toMatch(/Z$/);
    expect(txt.calls.get(`_aula-verification.${domain}`)).toBe(1);

    const after = await viaDomain();
    expect(after.statusCode).toBe(200);
    expect(after.json().id).toBe(a.id);
    expect(after.json().customDomains).toContainEqual({ host: domain, status: "verified" });
    // With the port a browser sends, too.
    const withPort = await h.inject({
      method: "GET",
      url: "/api/institution/profile",
      headers: { host: `${domain}:3000`, ...bearer(key) },
    });
    expect(withPort.json().id).toBe(a.id);

    // A later failed check keeps a live domain live.
    txt.set(`_aula-verification.${domain}`, noTxtData(domain, "ENODATA"));
    const recheck = await verify(domain);
    expect(recheck.json()).toMatchObject({ status: "verified", verifiedAt: res.json().verifiedAt });
    expect(recheck.json().lastCheckError).toMatch(/No TXT record/);
    expect((await viaDomain()).statusCode).toBe(200);
  });

  it("answers 404 for another institution's domain without looking it up", async () => {
    const theirs = freshHost();
    const created = (await addDomain(theirs, adminB, b.host)).json();
    txt.set(`_aula-verification.${theirs}`, [created.verification.value]);
    const res = await verify(theirs);
    expect(res.statusCode).toBe(404);
    expect(txt.calls.get(`_aula-verification.${theirs}`)).toBeUndefined();
    const [row] = await domainRows(b.id, theirs);
    expect(row?.verifiedAt).toBeNull();
    expect(row?.lastCheckedAt).toBeNull();
  });
});

describe("removing a domain", () => {
  it("answers 204 with no body, and a verified host stops serving the institution", async () => {
    const domain = freshHost();
    const created = (await addDomain(domain)).json();
    txt.set(`_aula-verification.${domain}`, [created.verification.value]);
    expect((await call("POST", `/api/institution/domains/${domain}/verify`)).json().status).toBe("verified");
    const key = await makeKey(h, a, ["settings:read"]);
    const viaDomain = () =>
      h.inject({ method: "GET", url: "/api/institution/profile", headers: { host: domain, ...bearer(key) } });
    expect((await viaDomain()).statusCode).toBe(200);

    const res = await call("DELETE", `/api/institution/domains/${domain}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect(await domainRows(a.id, domain)).toEqual([]);
    const gone = await viaDomain();
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe("tenant_not_found");
    expect((await call("DELETE", `/api/institution/domains/${domain}`)).statusCode).toBe(404);
    // The host is free again.
    expect((await addDomain(domain, adminB, b.host)).statusCode).toBe(201);
  });

  it("answers 404 for another institution's domain and leaves it in place", async () => {
    const theirs = freshHost();
    await addDomain(theirs, adminB, b.host);
    const res = await call("DELETE", `/api/institution/domains/${theirs}`);
    expect(res.statusCode).toBe(404);
    expect(await domainRows(b.id, theirs)).toHaveLength(1);
  });
});
