import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { bearer, makeKey } from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, t, []);
});

const PREFLIGHT = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers":
    "Content-Type, Authorization, Accept-Language, Idempotency-Key, If-None-Match",
  "access-control-max-age": "86400",
};

const EXPOSED =
  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id, Idempotent-Replayed, " +
  "Content-Language, ETag";

describe("CORS", () => {
  it.each([
    "/api/institution/courses",
    "/api/institution/courses/123",
    "/api/institution/anything/at/all",
    "/api/institution/users?x=1",
  ])("answers a preflight to %s with 204 and exactly the contract's headers", async (url) => {
    const res = await h.inject({
      method: "OPTIONS",
      url,
      headers: {
        host: t.host,
        origin: "https://evil.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization",
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    for (const [name, value] of Object.entries(PREFLIGHT)) expect(res.headers[name]).toBe(value);
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
  });

  it("answers a preflight even on a host that serves no tenant (it carries no credentials)", async () => {
    const res = await h.inject({
      method: "OPTIONS",
      url: "/api/institution/courses",
      headers: { host: "nobody.localhost" },
    });
    expect(res.statusCode).toBe(204);
  });

  it("puts Access-Control-Allow-Origin: * on successes and errors, never echoing the origin or allowing credentials", async () => {
    const ok = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: t.host, origin: "https://evil.example", ...bearer(key) },
    });
    const denied = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: t.host, origin: "https://evil.example" },
    });
    const missing = await h.inject({
      method: "GET",
      url: "/api/institution/nothing",
      headers: { host: "nobody.localhost" },
    });
    for (const res of [ok, denied, missing]) {
      expect(res.headers["access-control-allow-origin"]).toBe("*");
      expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
      expect(res.headers["access-control-expose-headers"]).toBe(EXPOSED);
    }
    expect(ok.statusCode).toBe(200);
    expect(denied.statusCode).toBe(401);
    expect(missing.statusCode).toBe(404);
  });

  it("exposes every header it names that a browser client reads, on the answers that carry them", async () => {
    const ok = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: t.host, origin: "https://app.example", ...bearer(key) },
    });
    const exposed = new Set(EXPOSED.toLowerCase().split(", "));
    for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "x-request-id"]) {
      expect(ok.headers[name], name).toBeDefined();
      expect(exposed.has(name), name).toBe(true);
    }
  });

  it("leaves paths outside the institution API alone: no CORS headers, and OPTIONS there is 404", async () => {
    const health = await h.inject({
      method: "GET",
      url: "/healthz",
      headers: { origin: "https://x.example" },
    });
    expect(health.headers["access-control-allow-origin"]).toBeUndefined();
    const preflight = await h.inject({
      method: "OPTIONS",
      url: "/api/automations/webhook/abc",
      headers: { origin: "https://x.example", "access-control-request-method": "POST" },
    });
    expect(preflight.statusCode).toBe(404);
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
