import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { courses } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import {
  bearer,
  type Harness,
  json,
  makeKey,
  makeTenant,
  startHarness,
  type TestTenant,
} from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;

const get = (harness: Harness, tenant: TestTenant, secret: string, extra: Partial<InjectOptions> = {}) =>
  harness.inject({
    method: "GET",
    url: "/api/institution/courses",
    ...extra,
    headers: { host: tenant.host, ...bearer(secret), ...(extra.headers ?? {}) },
  });

interface RateHeaders {
  limit: number;
  remaining: number;
  reset: number;
}

function rateHeaders(res: LightMyRequestResponse): RateHeaders {
  const read = (name: string) => {
    const value = res.headers[name];
    expect(value, name).toMatch(/^\d+$/);
    return Number(value);
  };
  return {
    limit: read("x-ratelimit-limit"),
    remaining: read("x-ratelimit-remaining"),
    reset: read("x-ratelimit-reset"),
  };
}

function expect429(res: LightMyRequestResponse, maxSeconds: number): number {
  expect(res.statusCode).toBe(429);
  const body = res.json();
  expect(body.error).toBe("rate_limit_exceeded");
  expect(Number.isInteger(body.retryAfter)).toBe(true);
  expect(body.retryAfter).toBeGreaterThanOrEqual(1);
  expect(body.retryAfter).toBeLessThanOrEqual(maxSeconds);
  expect(res.headers["retry-after"]).toBe(String(body.retryAfter));
  return body.retryAfter;
}

const nowSeconds = () => Date.now() / 1000;

describe("per-key rate limits", () => {
  it("counts a standard key per minute, with headers, and answers 429 past 100", async () => {
    const kA1 = await makeKey(h, a, ["courses:read"]);
    const kA2 = await makeKey(h, a, ["courses:read"]);
    const kB = await makeKey(h, b, ["courses:read"]);

    let previous: RateHeaders | undefined;
    const resets = new Set<number>();
    for (let i = 1; i <= 100; i++) {
      // Spread over several client addresses: the budget is the key's, not the address's.
      const res = await get(h, a, kA1, { remoteAddress: `10.200.${i % 7}.${i}` });
      expect(res.statusCode, `request ${i}`).toBe(200);
      const headers = rateHeaders(res);
      expect(headers.limit).toBe(100);
      expect(headers.remaining).toBe(100 - i);
      if (previous !== undefined) expect(headers.remaining).toBe(previous.remaining - 1);
      expect(headers.reset).toBeGreaterThan(nowSeconds());
      expect(headers.reset).toBeLessThanOrEqual(Math.ceil(nowSeconds()) + 60);
      resets.add(headers.reset);
      previous = headers;
    }
    // One window: the reset moment does not move (a second of rounding at most).
    expect(Math.max(...resets) - Math.min(...resets)).toBeLessThanOrEqual(1);

    const refused = await get(h, a, kA1);
    const retryAfter = expect429(refused, 60);
    const headers = rateHeaders(refused);
    expect(headers).toMatchObject({ limit: 100, remaining: 0 });
    expect(Math.abs(headers.reset - (nowSeconds() + retryAfter))).toBeLessThanOrEqual(2);

    // Neither another address nor X-Forwarded-For resets it.
    expect429(await get(h, a, kA1, { headers: { "x-forwarded-for": "203.0.113.9" } }), 60);
    expect429(
      await get(h, a, kA1, { remoteAddress: "10.201.0.1", headers: { "x-real-ip": "203.0.113.10" } }),
      60,
    );

    // Other keys, of the same tenant or another, keep their full budget.
    for (const [tenant, key] of [
      [a, kA2],
      [b, kB],
    ] as const) {
      const res = await get(h, tenant, key);
      expect(res.statusCode).toBe(200);
      expect(rateHeaders(res)).toMatchObject({ limit: 100, remaining: 99 });
    }
  });

  it("gives high keys 300 per minute", async () => {
    const key = await makeKey(h, a, [], { rateTier: "high" });
    const res = await get(h, a, key);
    expect(res.statusCode).toBe(200);
    expect(rateHeaders(res)).toMatchObject({ limit: 300, remaining: 299 });
  });

  it("enforces the hour window too, and the headers describe the tighter window", async () => {
    const key = await makeKey(h, a, [], { rateTier: "custom", customLimits: { perHour: 5, perMinute: 60 } });
    for (let i = 1; i <= 5; i++) {
      const res = await get(h, a, key);
      expect(res.statusCode).toBe(200);
      const headers = rateHeaders(res);
      expect(headers).toMatchObject({ limit: 5, remaining: 5 - i });
      // The hour window's reset, not the minute's.
      expect(headers.reset).toBeGreaterThan(nowSeconds() + 3000);
      expect(headers.reset).toBeLessThanOrEqual(Math.ceil(nowSeconds()) + 3600);
    }
    const refused = await get(h, a, key);
    const retryAfter = expect429(refused, 3600);
    // Only the hour window refuses, so the wait is the hour's.
    expect(retryAfter).toBeGreaterThan(3000);
    expect(rateHeaders(refused)).toMatchObject({ limit: 5, remaining: 0 });

    // When the minute is the tighter window, the headers describe it.
    const minuteBound = await makeKey(h, a, [], {
      rateTier: "custom",
      customLimits: { perHour: 100, perMinute: 3 },
    });
    const first = await get(h, a, minuteBound);
    expect(rateHeaders(first)).toMatchObject({ limit: 3, remaining: 2 });
    expect(rateHeaders(first).reset).toBeLessThanOrEqual(Math.ceil(nowSeconds()) + 60);
    await get(h, a, minuteBound);
    await get(h, a, minuteBound);
    expect429(await get(h, a, minuteBound), 60);
  });

  it("counts a key request that the scope check refuses, and says so in the headers", async () => {
    const key = await makeKey(h, a, ["users:read"], {
      rateTier: "custom",
      customLimits: { perHour: 100, perMinute: 2 },
    });
    const denied = await get(h, a, key);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe("insufficient_scope");
    expect(rateHeaders(denied)).toMatchObject({ limit: 2, remaining: 1 });
  });

  it("has no side effects when refusing with 429", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["courses:write"], { rateTier: "custom", customLimits: { perHour: 2 } });
    const create = (title: string) =>
      h.inject({
        method: "POST",
        url: "/api/institution/courses",
        headers: { host: t.host, ...json, ...bearer(key) },
        payload: { title },
      });
    expect((await create("one")).statusCode).toBe(201);
    expect((await create("two")).statusCode).toBe(201);
    const refused = await create("three");
    expect429(refused, 3600);
    expect(refused.headers["x-ratelimit-remaining"]).toBe("0");
    const rows = await h.database.db
      .select({ title: courses.title })
      .from(courses)
      .where(eq(courses.tenantId, t.id));
    expect(rows.map((r) => r.title).sort()).toEqual(["one", "two"]);
  });
});

describe("across processes", () => {
  it.runIf(process.env.REDIS_URL && process.env.DATABASE_URL)(
    "shares one budget between two app instances",
    async () => {
      const h2 = await startHarness();
      try {
        // Both limiters must be talking to Redis before counting (the memory fallback covers a cold connection).
        const probe = randomUUID();
        for (let i = 0; ; i++) {
          await h.ctx.limiters.consume("probe", probe, 1000, 60).catch(() => undefined);
          const seen = await h2.ctx.limiters.peek("probe", probe, 1000, 60).catch(() => undefined);
          if (seen !== undefined && seen.remaining < 1000) break;
          if (i > 50) throw new Error("the two limiters do not share a store");
          await new Promise((r) => setTimeout(r, 100));
        }

        const t = await makeTenant(h);
        const key = await makeKey(h, t, ["courses:read"], {
          rateTier: "custom",
          customLimits: { perHour: 1000, perMinute: 10 },
        });
        const apps = [h, h2];
        const responses = await Promise.all(
          Array.from({ length: 16 }, (_, i) => get(apps[i % 2] as Harness, t, key)),
        );
        const statuses = responses.map((r) => r.statusCode);
        expect(statuses.filter((s) => s === 200)).toHaveLength(10);
        expect(statuses.filter((s) => s === 429)).toHaveLength(6);
        // Both instances refuse from now on.
        for (const app of apps) expect429(await get(app, t, key), 60);
        const remaining = responses
          .filter((r) => r.statusCode === 200)
          .map((r) => Number(r.headers["x-ratelimit-remaining"]))
          .sort((x, y) => x - y);
        expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      } finally {
        await h2.close();
      }
    },
  );
});
