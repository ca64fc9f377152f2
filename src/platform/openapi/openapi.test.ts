import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../test-support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

interface Operation {
  security?: Record<string, string[]>[];
  responses?: Record<string, unknown>;
  description?: string;
  "x-scope"?: string;
}

describe("the API reference", () => {
  it("is OpenAPI 3.1 and documents every live /api route with its access, and nothing else", async () => {
    const res = await h.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, Operation>> };
    expect(doc.openapi).toBe("3.1.0");
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops))
        documented.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`);
    }
    const live = h.app.routeDeclarations
      .filter((r) => r.url.startsWith("/api/") && r.method !== "OPTIONS")
      .map((r) => `${r.method} ${r.url}`);
    expect([...documented].filter((d) => d.includes("/api/")).sort()).toEqual([...new Set(live)].sort());

    for (const r of h.app.routeDeclarations.filter((d) => d.access.kind === "authenticated")) {
      const op = doc.paths[r.url.replace(/:(\w+)/g, "{$1}")]?.[r.method.toLowerCase()] as Operation;
      expect(op.security, `${r.method} ${r.url}`).toBeDefined();
      expect(op.description).toContain("**Access:**");
      expect(op.responses?.["4XX"]).toBeDefined();
      if (r.access.kind === "authenticated" && r.access.auth.includes("key"))
        expect(op["x-scope"]).toBe(r.access.scope);
    }
  });

  it("serves an interactive reference page at /docs", async () => {
    const res = await h.inject({ method: "GET", url: "/docs/" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain("/openapi.json");
  });
});
