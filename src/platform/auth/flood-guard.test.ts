/**
 * The flood guard on unusable credentials (SECURITY.md API4 10) counts per institution and client address: it
 * stops a lookup flood without locking other institutions' valid keys out of the same address (issue 10 item 9).
 */
import { randomBytes } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { bearer, makeKey, startHarness, type TestTenant } from "../../test-support/harness.js";

const BUDGET = 5;
const lines: string[] = [];
const { h, tenants } = useApi({
  env: { BAD_CREDENTIALS_PER_IP_PER_MINUTE: String(BUDGET) },
  harness: { onLog: (line) => void lines.push(line), logLevel: "warn" },
  tenants: 2,
});
const [a, b] = tenants;

const list = (t: TestTenant, secret: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
  h.inject({
    method: "GET",
    url: "/api/institution/courses",
    headers: { host: t.host, ...bearer(secret), ...headers },
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });

const unknownKey = () => `mia_${randomBytes(20).toString("hex")}`;

function expect429(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toMatchObject({ error: "rate_limit_exceeded", retryAfter: expect.any(Number) });
}

describe("unusable credentials from one address", () => {
  it("stop lookups for that institution only: another institution's valid key from the address still works", async () => {
    // Fresh keys, never looked up, so no cache answers for them.
    const validA = await makeKey(h, a, ["courses:read"]);
    const validB = await makeKey(h, b, ["courses:read"]);
    for (let i = 0; i < BUDGET; i++) expect((await list(a, unknownKey())).statusCode).toBe(401);
    expect429(await list(a, unknownKey()));
    // The flood is still stopped where it lands: A's uncached keys from this address wait.
    expect429(await list(a, validA));

    const other = await list(b, validB);
    expect(other.statusCode, other.body).toBe(200);
    expect((await list(b, unknownKey())).statusCode).toBe(401);
    // And A from another address is unaffected.
    expect((await list(a, validA, {}, "192.0.2.77")).statusCode).toBe(200);
  });
});

describe("forwarding headers without TRUST_PROXY", () => {
  it("are reported once per process, with what to set", async () => {
    const warnings = () => lines.filter((line) => line.includes("TRUST_PROXY"));
    const key = await makeKey(h, b, ["courses:read"]);
    expect((await list(b, key)).statusCode).toBe(200);
    expect(warnings()).toEqual([]);
    expect((await list(b, key, { "x-forwarded-for": "203.0.113.5" })).statusCode).toBe(200);
    expect((await list(b, key, { forwarded: "for=203.0.113.6" })).statusCode).toBe(200);
    expect(warnings()).toHaveLength(1);
    expect(JSON.parse(warnings()[0] as string)).toMatchObject({ level: 40, header: "x-forwarded-for" });
  });

  it("are not reported when TRUST_PROXY is set", async () => {
    const seen: string[] = [];
    const trusted = await startHarness(
      { TRUST_PROXY: "1" },
      { onLog: (line) => void seen.push(line), logLevel: "warn" },
    );
    try {
      const res = await trusted.inject({
        method: "GET",
        url: "/healthz",
        headers: { "x-forwarded-for": "203.0.113.5" },
      });
      expect(res.statusCode).toBe(200);
      expect(seen.filter((line) => line.includes("TRUST_PROXY"))).toEqual([]);
    } finally {
      await trusted.close();
    }
  });
});
