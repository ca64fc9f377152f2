import { describe, expect, it } from "vitest";
import { SCOPES } from "../../platform/scopes/scopes.js";
import { useApi } from "../../test-support/api.js";
import { bearer, makeKey, makeTenant } from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;

interface Entry {
  scope: string;
  description: string;
  operations: string[];
}

describe("GET /api/institution/scopes", () => {
  it("lists every scope with what it allows and the operations it opens, without credentials", async () => {
    const res = await h.inject({ method: "GET", url: "/api/institution/scopes", headers: { host: t.host } });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: Entry[]; allScopes: string };
    expect(body.data.map((e) => e.scope)).toEqual([...SCOPES]);
    expect(body.allScopes).toContain("`scopes: []`");
    const courses = body.data.find((e) => e.scope === "courses:read") as Entry;
    expect(courses.description).toMatch(/^Read and list courses/);
    expect(courses.operations).toContain("GET /api/institution/courses");
    expect(courses.operations).not.toContain("POST /api/institution/courses");
    expect(body.data.find((e) => e.scope === "courses:write")?.operations).toContain(
      "POST /api/institution/courses",
    );
  });

  it("names exactly the routes the pipeline enforces: a key with the scope may call each, one without may not", async () => {
    const res = await h.inject({ method: "GET", url: "/api/institution/scopes", headers: { host: t.host } });
    const entry = (res.json().data as Entry[]).find((e) => e.scope === "tags:read") as Entry;
    expect(entry.operations).toContain("GET /api/institution/tags");
    const withScope = await makeKey(h, t, ["tags:read"]);
    const without = await makeKey(h, t, ["courses:read"]);
    const ok = await h.inject({
      method: "GET",
      url: "/api/institution/tags",
      headers: { host: t.host, ...bearer(withScope) },
    });
    const refused = await h.inject({
      method: "GET",
      url: "/api/institution/tags",
      headers: { host: t.host, ...bearer(without) },
    });
    expect(ok.statusCode).toBe(200);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("insufficient_scope");
    // Every operation that takes a key is in exactly one scope's list.
    const listed = (res.json().data as Entry[]).flatMap((e) => e.operations);
    const declared = h.app.routeDeclarations
      .filter((r) => r.access.kind === "authenticated" && r.access.auth.includes("key"))
      .map((r) => `${r.method} ${r.url}`);
    expect([...listed].sort()).toEqual([...declared].sort());
  });

  it("is the same on any host, a tenant's or none (it holds nothing of an institution)", async () => {
    const other = await makeTenant(h);
    const a = await h.inject({ method: "GET", url: "/api/institution/scopes", headers: { host: t.host } });
    const b = await h.inject({
      method: "GET",
      url: "/api/institution/scopes",
      headers: { host: other.host },
    });
    const none = await h.inject({
      method: "GET",
      url: "/api/institution/scopes",
      headers: { host: "nobody.localhost" },
    });
    expect(b.body).toBe(a.body);
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe(a.body);
  });
});
