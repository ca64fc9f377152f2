import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { rollUpMonths } from "../../test-support/ai-usage.js";
import { useApi } from "../../test-support/api.js";
import { bearer, makeKey } from "../../test-support/harness.js";
import { captureStatements, explainPlan, planNodes, rowsRead } from "../../test-support/plans.js";

/**
 * Usage at three years of rollups for 60 users (65,700 rows): a 30-day report reads the window's rows through an
 * index and nothing before or after it, and a report filtered by one user reads that user's days only. What a
 * request costs follows its window, not the institution's history.
 */

const DAYS = 3 * 365;
const USERS = 60;
const WINDOW_DAYS = 30;

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, t, ["ai:read"]);
  await h.database.db.execute(sql`
    INSERT INTO ai_usage_daily (tenant_id, day, feature, model, course_id, user_id, requests, input_tokens,
                                output_tokens, credits)
    SELECT ${t.id}::uuid, date '2024-01-01' + d, 'tutor_chat', 'm1', '00000000-0000-0000-0000-000000000000'::uuid,
           md5('user' || u)::uuid, 1, 100, 10, 1
    FROM generate_series(0, ${DAYS - 1}) AS d, generate_series(1, ${USERS}) AS u`);
  await rollUpMonths(h.database.db, t.id);
  await h.database.db.execute(sql`VACUUM ANALYZE ai_usage_daily`);
  await h.database.db.execute(sql`VACUUM ANALYZE ai_usage_monthly`);
}, 240_000);

async function usagePlan(query: string) {
  let body: { buckets: { requests: number }[] } | undefined;
  const statements = await captureStatements(h, async () => {
    const res = await h.inject({
      method: "GET",
      url: `/api/institution/ai-analytics/usage?${query}`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect(res.statusCode, res.body).toBe(200);
    body = res.json();
  });
  const [statement] = statements.filter((s) => /from ai_usage_(daily|monthly)/i.test(s.sql));
  if (statement === undefined) throw new Error("no statement read the rollup");
  const plan = await explainPlan(h, statement.sql, statement.params, { analyze: true });
  const nodes = planNodes(plan);
  expect(nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"])).toEqual([]);
  // An aggregate sorts what it groups (count(DISTINCT …) needs it): the window's rows, never more.
  const sorted = nodes.filter((n) => n["Node Type"] === "Sort").map((n) => n["Actual Rows"] as number);
  return {
    body: body as { buckets: { requests: number }[] },
    read: rowsRead(plan, "ai_usage_daily"),
    readMonths: rowsRead(plan, "ai_usage_monthly"),
    sorted,
  };
}

describe(`usage at ${(DAYS * USERS).toLocaleString("en")} rollup rows`, () => {
  const window = "from=2025-06-01&to=2025-06-30";

  for (const groupBy of ["day", "week"]) {
    it(`groupBy=${groupBy} reads the window's daily rows only`, async () => {
      const { body, read, sorted } = await usagePlan(`${window}&groupBy=${groupBy}`);
      expect(body.buckets.reduce((n, b) => n + b.requests, 0)).toBe(WINDOW_DAYS * USERS);
      expect(read).toBe(WINDOW_DAYS * USERS);
      for (const rows of sorted) expect(rows).toBeLessThanOrEqual(WINDOW_DAYS * USERS);
    });
  }

  for (const groupBy of ["month", "user"]) {
    it(`groupBy=${groupBy} reads a whole month's monthly rows only, and the days around it`, async () => {
      const whole = await usagePlan(`${window}&groupBy=${groupBy}`);
      expect(whole.body.buckets.reduce((n, b) => n + b.requests, 0)).toBe(WINDOW_DAYS * USERS);
      expect([whole.read, whole.readMonths]).toEqual([0, USERS]);
      // 29 May to 1 July: June from the monthly rollup, three days from the daily one.
      const around = await usagePlan(`from=2025-05-30&to=2025-07-01&groupBy=${groupBy}`);
      expect(around.body.buckets.reduce((n, b) => n + b.requests, 0)).toBe((WINDOW_DAYS + 3) * USERS);
      expect([around.read, around.readMonths]).toEqual([3 * USERS, USERS]);
      for (const rows of around.sorted) expect(rows).toBeLessThanOrEqual((3 + 1) * USERS);
    });
  }

  it("a user's filter reads that user's days only", async () => {
    const [user] = await queryRows<{ id: string }>(h.database.db, sql`SELECT md5('user7')::uuid::text AS id`);
    const { body, read, sorted } = await usagePlan(`${window}&groupBy=day&userId=${user?.id}`);
    expect(body.buckets).toHaveLength(WINDOW_DAYS);
    expect(read).toBe(WINDOW_DAYS);
    for (const rows of sorted) expect(rows).toBeLessThanOrEqual(WINDOW_DAYS);
  });

  it("a user's year reads that user's twelve months", async () => {
    const [user] = await queryRows<{ id: string }>(h.database.db, sql`SELECT md5('user7')::uuid::text AS id`);
    const { body, read, readMonths } = await usagePlan(
      `from=2025-01-01&to=2025-12-31&groupBy=month&userId=${user?.id}`,
    );
    expect(body.buckets).toHaveLength(12);
    expect([read, readMonths]).toEqual([0, 12]);
  });
});
