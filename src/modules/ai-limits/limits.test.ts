import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { callerFor, fieldsOf, useApi } from "../../test-support/api.js";
import { FAKE_KEY, FAKE_MODEL, type FakeOpenAi, startFakeOpenAi } from "../../test-support/fake-openai.js";
import { adminCookie, makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { promptBody, VALUES } from "../prompts/test-fixtures.js";

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

const { h, tenants } = useApi({ tenants: 2, env: () => ({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" }) });
const [a, b] = tenants;
let key: string;
let keyB: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));
let promptId: string;

beforeAll(async () => {
  key = await makeKey(h, a, ["ai:read", "ai:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["ai:read", "ai:write"], UNLIMITED_KEY);
  const admin = await adminCookie(h, a);
  await call(
    "PUT",
    "/ai/provider",
    { baseUrl: fake.baseUrl, apiKey: FAKE_KEY, defaultModel: FAKE_MODEL },
    admin,
  );
  promptId = (await call("POST", "/prompts", promptBody({ status: "active" }))).json().id;
});

const events = (tenantId: string) =>
  queryRows<{ data: { userId: string } }>(
    h.database.db,
    sql`SELECT data FROM platform_events WHERE tenant_id = ${tenantId} AND type = 'ai_limit_reached'`,
  );

describe("AI limits", () => {
  it("reads the default policy and writes one, keeping the institution's time zone", async () => {
    expect((await call("GET", "/ai-limits")).json()).toMatchObject({
      enabled: false,
      unit: "credits",
      period: "month",
    });
    const put = await call("PUT", "/ai-limits", {
      enabled: true,
      unit: "requests",
      period: "day",
      perUserLimit: 2,
    });
    expect(put.json()).toMatchObject({ enabled: true, unit: "requests", period: "day", perUserLimit: 2 });
    expect(put.json().resetTimezone).toBe("America/Sao_Paulo");
    expect((await call("PUT", "/ai-limits", { enabled: true, unit: "coins" })).statusCode).toBe(400);
  });

  it("refuses the call over the user's limit with 429 and retryAfter at the reset, emitting the event once", async () => {
    const student = await signedInUser(h, a, "student");
    const run = () => call("POST", `/prompts/${promptId}/run`, VALUES, student.cookie);
    expect((await run()).statusCode).toBe(200);
    expect((await run()).statusCode).toBe(200);
    const refused = await run();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe("rate_limit_exceeded");
    const usage = (await call("GET", `/ai-limits/usage?userId=${student.id}`)).json();
    expect(usage).toMatchObject({ used: 2, limit: 2, remaining: 0, limitSource: "institution" });
    const reset = Math.ceil((Date.parse(usage.resetsAt) - Date.now()) / 1000);
    expect(Math.abs(refused.json().retryAfter - reset)).toBeLessThanOrEqual(2);
    expect(refused.headers["retry-after"]).toBe(String(refused.json().retryAfter));
    expect((await run()).statusCode).toBe(429);
    expect((await events(a.id)).filter((e) => e.data.userId === student.id)).toHaveLength(1);
    const again = await call("POST", `/ai-limits/usage/${student.id}/reset`);
    expect(again.json()).toMatchObject({ used: 0, remaining: 2 });
    expect((await run()).statusCode).toBe(200);
  });

  it("takes the most specific override: user > class group > course > role > institution", async () => {
    const teacher = await signedInUser(h, a, "teacher");
    const usage = () => call("GET", `/ai-limits/usage?userId=${teacher.id}`).then((r) => r.json());
    expect((await call("PUT", "/ai-limits/overrides/role/teacher", { limit: 7 })).statusCode).toBe(201);
    expect(await usage()).toMatchObject({ limit: 7, limitSource: "role" });
    const put = await call("PUT", `/ai-limits/overrides/user/${teacher.id}`, { limit: 9, reason: "Monitor" });
    expect(put.json()).toMatchObject({ subjectType: "user", limit: 9, reason: "Monitor" });
    expect((await call("PUT", `/ai-limits/overrides/user/${teacher.id}`, { limit: 11 })).statusCode).toBe(
      200,
    );
    expect(await usage()).toMatchObject({ limit: 11, limitSource: "user" });
    expect((await call("DELETE", `/ai-limits/overrides/user/${teacher.id}`)).statusCode).toBe(204);
    expect(await usage()).toMatchObject({ limit: 7, limitSource: "role" });
    const list = (await call("GET", "/ai-limits/overrides?subjectType=role")).json();
    expect(list.data.map((o: { subjectId: string }) => o.subjectId)).toEqual(["teacher"]);
    // The total is the counter of migration 0066, which the user override's PUT and DELETE moved and put back.
    expect(list.pagination).toMatchObject({ total: 1, totalRelation: "eq" });
    expect((await call("PUT", "/ai-limits/overrides/role/owner", { limit: 1 })).statusCode).toBe(404);
    const past = await call("PUT", "/ai-limits/overrides/role/student", {
      limit: 1,
      expiresAt: "2020-01-01T00:00:00Z",
    });
    expect(fieldsOf(past)).toEqual(["expiresAt"]);
  });

  it("never spends past the limit under 50 concurrent calls", async () => {
    const student = await signedInUser(h, a, "student");
    await call("PUT", `/ai-limits/overrides/user/${student.id}`, { limit: 7 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => call("POST", `/prompts/${promptId}/run`, VALUES, student.cookie)),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(7);
    expect(codes.filter((c) => c === 429)).toHaveLength(43);
    expect((await call("GET", `/ai-limits/usage?userId=${student.id}`)).json().used).toBe(7);
  });

  it("answers 404 for another tenant's subjects", async () => {
    const foreign = await signedInUser(h, b, "student");
    expect((await call("PUT", `/ai-limits/overrides/user/${foreign.id}`, { limit: 1 })).statusCode).toBe(404);
    expect((await call("GET", `/ai-limits/usage?userId=${foreign.id}`)).statusCode).toBe(404);
    expect((await call("POST", `/ai-limits/usage/${foreign.id}/reset`)).statusCode).toBe(404);
    expect((await call("DELETE", `/ai-limits/overrides/user/${randomUUID()}`)).statusCode).toBe(404);
    expect((await call("GET", "/ai-limits", undefined, keyB, b)).json().enabled).toBe(false);
  });
});
