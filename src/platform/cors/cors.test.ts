import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  type Harness,
  makeKey,
  makeTenant,
  startHarness,
  type TestTenant,
} from "../../test-support/harness.js";

let h: Harness;
let t: TestTenant;
let key: string;

beforeAll(async () => {
  h = await startHarness();
  t = await makeTenant(h);
  key = await makeKey(h, t, []);
});
afterAll(() => h.close());

const PREFLIGHT = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers": "Content-Type, Authorization, Accept-Language, Idempotency-Key",
  "access-control-max-age": "86400",
};

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
    }
    expect(ok.statusCode).toBe(200);
    expect(denied.statusCode).toBe(401);
    expect(missing.statusCode).toBe(404);
  });
});
