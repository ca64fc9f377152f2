import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { rollUpMonths } from "../../test-support/ai-usage.js";
import { callerFor, fieldsOf, useApi } from "../../test-support/api.js";
import { FAKE_KEY, FAKE_MODEL, type FakeOpenAi, startFakeOpenAi } from "../../test-support/fake-openai.js";
import { adminCookie, makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { promptBody, VALUES } from "../prompts/test-fixtures.js";
import { NONE } from "./ledger.js";
import { splitByMonths } from "./usage.js";

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

const { h, tenants } = useApi({ tenants: 2, env: () => ({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" }) });
const [a, b] = tenants;
let key: string;
let keyB: string;
let admin: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));
const U1 = randomUUID();
const U2 = randomUUID();
const COURSE = randomUUID();

/** A rollup row as the ledger writes them, on a day of the test's choosing. */
async function rollup(
  tenantId: string,
  day: string,
  row: {
    feature?: string;
    model?: string;
    course?: string;
    user?: string;
    requests: number;
    credits: number;
  },
) {
  await h.database.db.execute(sql`INSERT INTO ai_usage_daily (tenant_id, day, feature, model, course_id, user_id,
      requests, input_tokens, output_tokens, credits)
    VALUES (${tenantId}, ${day}, ${row.feature ?? "tutor_chat"}, ${row.model ?? "m1"}, ${row.course ?? NONE},
      ${row.user ?? NONE}, ${row.requests}, ${row.requests * 100}, ${row.requests * 10}, ${row.credits})`);
}

beforeAll(async () => {
  key = await makeKey(h, a, ["ai:read"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["ai:read"], UNLIMITED_KEY);
  admin = await adminCookie(h, a);
  // March 2025: Sunday the 2nd ends ISO week 9; Monday the 3rd starts week 10; the 31st is a Monday.
  await rollup(a.id, "2025-03-02", { user: U1, requests: 1, credits: 1 });
  await rollup(a.id, "2025-03-03", { user: U1, requests: 2, credits: 3, course: COURSE });
  await rollup(a.id, "2025-03-03", { user: U2, requests: 1, credits: 1, feature: "summarize", model: "m2" });
  await rollup(a.id, "2025-03-09", { user: U2, requests: 4, credits: 4, course: COURSE });
  await rollup(a.id, "2025-03-31", { requests: 6, credits: 6 });
  await rollup(a.id, "2025-04-01", { user: U1, requests: 1, credits: 2 });
  await rollup(b.id, "2025-03-03", { user: U1, requests: 100, credits: 100 });
  for (const t of [a, b]) await rollUpMonths(h.database.db, t.id);
});

const MARCH = "from=2025-03-01&to=2025-03-31";
const sums = (buckets: { requests: number }[]) => buckets.reduce((n, x) => n + x.requests, 0);

describe("GET /ai-analytics/usage", () => {
  it("groups by day, ISO week (clipped to the window) and month, counting distinct users", async () => {
    const days = (await call("GET", `/ai-analytics/usage?${MARCH}&groupBy=day`)).json();
    expect(days).toMatchObject({ from: "2025-03-01", to: "2025-03-31", groupBy: "day", truncated: false });
    expect(days.timezone).toBe("America/Sao_Paulo");
    expect(days.buckets.map((x: { periodStart: string }) => x.periodStart)).toEqual([
      "2025-03-02",
      "2025-03-03",
      "2025-03-09",
      "2025-03-31",
    ]);
    expect(days.buckets[1]).toEqual({
      periodStart: "2025-03-03",
      periodEnd: "2025-03-03",
      requests: 3,
      inputTokens: 300,
      outputTokens: 30,
      credits: 4,
      activeUsers: 2,
    });
    // Calls of no user count as requests, not as an active user.
    expect(days.buckets[3]).toMatchObject({ requests: 6, activeUsers: 0 });

    const weeks = (await call("GET", `/ai-analytics/usage?${MARCH}&groupBy=week`)).json().buckets;
    expect(
      weeks.map((x: Record<string, unknown>) => [x.periodStart, x.periodEnd, x.requests, x.activeUsers]),
    ).toEqual([
      ["2025-03-01", "2025-03-02", 1, 1],
      ["2025-03-03", "2025-03-09", 7, 2],
      ["2025-03-31", "2025-03-31", 6, 0],
    ]);

    const months = (
      await call("GET", "/ai-analytics/usage?from=2025-02-15&to=2025-04-30&groupBy=month")
    ).json().buckets;
    expect(
      months.map((x: Record<string, unknown>) => [x.periodStart, x.periodEnd, x.requests, x.activeUsers]),
    ).toEqual([
      ["2025-03-01", "2025-03-31", 14, 2],
      ["2025-04-01", "2025-04-30", 1, 1],
    ]);
  });

  it("reads whole months from the monthly rollup and the days around them from the daily one, each once", async () => {
    expect(splitByMonths({ from: "2025-02-20", to: "2025-04-01" })).toEqual({
      days: [
        { from: "2025-02-20", to: "2025-02-28" },
        { from: "2025-04-01", to: "2025-04-01" },
      ],
      months: { from: "2025-03-01", to: "2025-03-01" },
    });
    expect(splitByMonths({ from: "2025-03-01", to: "2025-12-31" })).toEqual({
      days: [],
      months: { from: "2025-03-01", to: "2025-12-01" },
    });
    expect(splitByMonths({ from: "2025-03-02", to: "2025-04-30" }).months).toEqual({
      from: "2025-04-01",
      to: "2025-04-01",
    });
    expect(splitByMonths({ from: "2025-03-02", to: "2025-03-30" })).toEqual({
      days: [{ from: "2025-03-02", to: "2025-03-30" }],
      months: undefined,
    });
    // U1: 1 + 2 requests in March (whole: the monthly rollup), 1 on 1 April (the daily one).
    const users = (await call("GET", "/ai-analytics/usage?from=2025-02-20&to=2025-04-01&groupBy=user")).json()
      .buckets;
    expect(users.find((x: { userId: string }) => x.userId === U1)).toMatchObject({ requests: 4, credits: 6 });
    expect(users.find((x: { userId: string }) => x.userId === U2)).toMatchObject({ requests: 5, credits: 5 });
  });

  it("groups by feature, model, course and user, largest first, and filters", async () => {
    const get = async (query: string) =>
      (await call("GET", `/ai-analytics/usage?${MARCH}&${query}`)).json().buckets;
    expect(await get("groupBy=feature")).toEqual([
      expect.objectContaining({ feature: "tutor_chat", requests: 13, credits: 14, activeUsers: 2 }),
      expect.objectContaining({ feature: "summarize", requests: 1, credits: 1, activeUsers: 1 }),
    ]);
    expect((await get("groupBy=model")).map((x: { model: string }) => x.model)).toEqual(["m1", "m2"]);
    expect(await get("groupBy=course")).toEqual([
      expect.objectContaining({ courseId: null, requests: 8, credits: 8, activeUsers: 2 }),
      expect.objectContaining({ courseId: COURSE, requests: 6, credits: 7, activeUsers: 2 }),
    ]);
    const users = await get("groupBy=user");
    expect(users.map((x: { userId: string | null }) => x.userId)).toEqual([null, U2, U1]);
    expect(users[0]).toMatchObject({ periodStart: "2025-03-01", periodEnd: "2025-03-31", activeUsers: 0 });
    expect(sums(await get(`groupBy=day&userId=${U1}`))).toBe(3);
    expect(sums(await get(`groupBy=day&courseId=${COURSE}`))).toBe(6);
    expect(sums(await get("groupBy=day&feature=summarize&model=m2"))).toBe(1);
    expect(await get("groupBy=day&model=nothing")).toEqual([]);
  });

  it("defaults to the last 30 days in the institution's time zone and sees a prompt run at once", async () => {
    const provider = { baseUrl: fake.baseUrl, apiKey: FAKE_KEY, defaultModel: FAKE_MODEL };
    expect((await call("PUT", "/ai/provider", provider, admin)).statusCode).toBe(200);
    const writer = await makeKey(h, a, ["ai:read", "ai:write"], UNLIMITED_KEY);
    const prompt = (await call("POST", "/prompts", promptBody({ status: "active" }), writer)).json();
    const student = await signedInUser(h, a, "student");
    expect((await call("POST", `/prompts/${prompt.id}/run`, VALUES, student.cookie)).statusCode).toBe(200);
    const report = (await call("GET", `/ai-analytics/usage?groupBy=user&userId=${student.id}`)).json();
    const [today] = await queryRows<{ today: string }>(
      h.database.db,
      sql`SELECT (now() AT TIME ZONE timezone)::date::text AS today FROM tenants WHERE id = ${a.id}`,
    );
    expect(report.to).toBe(today?.today);
    expect(Date.parse(report.to) - Date.parse(report.from)).toBe(29 * 86_400_000);
    expect(report.buckets).toEqual([
      expect.objectContaining({ userId: student.id, requests: 1, activeUsers: 1 }),
    ]);
    expect(report.buckets[0].inputTokens).toBeGreaterThan(0);
  });

  it("refuses a window over 366 days, reversed, or not a date, with 400 naming the field", async () => {
    expect((await call("GET", "/ai-analytics/usage?from=2024-01-01&to=2024-12-31")).statusCode).toBe(200);
    expect(fieldsOf(await call("GET", "/ai-analytics/usage?from=2024-01-01&to=2025-01-01"))).toEqual(["to"]);
    expect(fieldsOf(await call("GET", "/ai-analytics/usage?from=2025-03-02&to=2025-03-01"))).toEqual(["to"]);
    for (const bad of ["from=2025-02-30", "to=yesterday", "groupBy=year", "userId=nope", "extra=1"]) {
      const res = await call("GET", `/ai-analytics/usage?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toBe("validation_failed");
    }
  });

  it("is the institution's: admins' sessions and ai:read keys; teachers, students and other scopes are 403", async () => {
    expect((await call("GET", `/ai-analytics/usage?${MARCH}`, undefined, admin)).statusCode).toBe(200);
    for (const role of ["teacher", "student"] as const) {
      const user = await signedInUser(h, a, role);
      const res = await call("GET", `/ai-analytics/usage?${MARCH}`, undefined, user.cookie);
      expect(res.statusCode, role).toBe(403);
      expect(res.json().error).toBe("forbidden");
    }
    const other = await makeKey(h, a, ["reports:read"]);
    const res = await call("GET", `/ai-analytics/usage?${MARCH}`, undefined, other);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("insufficient_scope");
  });

  it("never shows another institution's usage", async () => {
    const theirs = (
      await call("GET", `/ai-analytics/usage?${MARCH}&groupBy=user`, undefined, keyB, b)
    ).json();
    expect(theirs.buckets).toEqual([expect.objectContaining({ userId: U1, requests: 100 })]);
    const ours = (await call("GET", `/ai-analytics/usage?${MARCH}&userId=${U1}`)).json();
    expect(sums(ours.buckets)).toBe(3);
    // Tenant A's key on B's host is no credential there.
    expect((await call("GET", `/ai-analytics/usage?${MARCH}`, undefined, key, b)).statusCode).toBe(401);
  });
});
