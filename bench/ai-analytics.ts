/**
 * (y) AI analytics (issue 25) over a ledger of BENCH_AI_LEDGER calls, on PostgreSQL, through the real app listening
 * on a loopback port in this process. The calls (USERS users in COURSES courses, some far busier than others,
 * FEATURES features, two models, spread over the last 365 days) are inserted into ai_ledger by one INSERT … SELECT
 * FROM generate_series per batch, and the daily rollup is made from the ledger by the same arithmetic every call's
 * recordCall applies (the day in the institution's time zone, one credit per 1,000 tokens rounded up), the monthly
 * one from the daily. Then GET
 * /ai-analytics/usage, REQUESTS times each after one unmeasured, for the queries an administrator's screen makes:
 * the last 30 days by day, the year by month, the year by user, the year by feature, and one user's year by week.
 * p50 and p99 per query. Checks: the year's totals by month equal the ledger's own sums over the year; every
 * answer 200.
 */
import { sql } from "drizzle-orm";
import { request } from "undici";
import type { Config } from "../src/config/index.js";
import type { Database } from "../src/db/client.js";
import { queryRows } from "../src/db/rows.js";
import { rollUpMonths } from "../src/test-support/ai-usage.js";
import { analyze } from "../src/test-support/list-fixtures/types.js";
import { listenApp } from "./http.js";
import { makeKey, makeTenant } from "./seed.js";

const USERS = 2_000;
const COURSES = 40;
const FEATURES = ["prompt_run", "rag_answer", "rag_search", "rag_indexing"];
const BATCH = 250_000;
const REQUESTS = 30;

export interface AiAnalyticsResult {
  calls: number;
  rollupRows: number;
  seedSeconds: number;
  queries: Record<string, { p50: number; p99: number }>;
  problems: string[];
}

interface Report {
  buckets: { requests: number; credits: number; inputTokens: number; outputTokens: number }[];
}

export async function measureAiAnalytics(
  database: Database,
  config: Config,
  calls: number,
  log: (line: string) => void,
): Promise<AiAnalyticsResult> {
  const db = database.db;
  const { app, base } = await listenApp(database, config);
  const problems: string[] = [];
  try {
    const s0 = performance.now();
    const t = await makeTenant(db, config.plans, "ai-analytics");
    const users = await queryRows<{ id: string }>(
      db,
      sql`INSERT INTO users (tenant_id, name, email, role, status)
      SELECT ${t.id}::uuid, 'Learner ' || i, 'l' || i || '@' || ${t.slug} || '.test', 'student', 'active'
      FROM generate_series(1, ${USERS}::int) AS i RETURNING id`,
    );
    const userIds = users.map((r) => r.id);
    const courses = await queryRows<{ id: string }>(
      db,
      sql`INSERT INTO courses (tenant_id, title, status)
      SELECT ${t.id}::uuid, 'Course ' || i, 'published' FROM generate_series(1, ${COURSES}::int) AS i
      RETURNING id`,
    );
    const courseIds = courses.map((r) => r.id);
    const features = `{${FEATURES.join(",")}}`;
    for (let from = 1; from <= calls; from += BATCH) {
      const to = Math.min(calls, from + BATCH - 1);
      // A call's user is one of the institution's (some of them far busier: squared), its course the user's own.
      await db.execute(sql`INSERT INTO ai_ledger (tenant_id, occurred_at, user_id, course_id, feature, model,
          outcome, input_tokens, output_tokens, credits)
        SELECT ${t.id}::uuid, now() - (i % 365) * interval '1 day' - (i % 86400) * interval '1 second',
          u.id, c.id, (${features}::text[])[1 + i % ${FEATURES.length}], CASE WHEN i % 7 = 0 THEN 'large' ELSE 'small' END,
          CASE WHEN i % 50 = 0 THEN 'failed' ELSE 'completed' END, 200 + i % 1800, 50 + i % 700,
          ceil((250 + i % 1800 + i % 700) / 1000.0)::int
        FROM generate_series(${from}::int, ${to}::int) AS i,
          LATERAL (SELECT (${`{${userIds.join(",")}}`}::uuid[])[1 + floor(${USERS} * power(((i * 2654435761::bigint) % 1000003) / 1000003.0, 2))::int] AS id) u,
          LATERAL (SELECT (${`{${courseIds.join(",")}}`}::uuid[])[1 + abs(hashtext(u.id::text)) % ${COURSES}] AS id) c`);
    }
    await db.execute(sql`INSERT INTO ai_usage_daily (tenant_id, day, feature, model, course_id, user_id, requests,
        input_tokens, output_tokens, credits)
      SELECT l.tenant_id, (l.occurred_at AT TIME ZONE t.timezone)::date, l.feature, l.model,
        coalesce(l.course_id, '00000000-0000-0000-0000-000000000000'), coalesce(l.user_id, '00000000-0000-0000-0000-000000000000'),
        count(*), sum(l.input_tokens), sum(l.output_tokens), sum(l.credits)
      FROM ai_ledger l JOIN tenants t ON t.id = l.tenant_id WHERE l.tenant_id = ${t.id}
      GROUP BY 1, 2, 3, 4, 5, 6`);
    await rollUpMonths(db, t.id);
    await analyze(db, "ai_ledger", "ai_usage_daily", "ai_usage_monthly");
    const seedSeconds = (performance.now() - s0) / 1000;
    const [facts] = await queryRows<{ rollups: number; months: number; credits: number; calls: number }>(
      db,
      sql`SELECT
        (SELECT count(*) FROM ai_usage_daily WHERE tenant_id = ${t.id})::int AS rollups,
        (SELECT count(*) FROM ai_usage_monthly WHERE tenant_id = ${t.id})::int AS months,
        (SELECT sum(credits) FROM ai_ledger WHERE tenant_id = ${t.id})::float8 AS credits,
        (SELECT count(*) FROM ai_ledger WHERE tenant_id = ${t.id})::int AS calls`,
    );
    if (facts === undefined) throw new Error("no counts");
    log(
      `(y) ai analytics: ${facts.calls} calls, ${facts.rollups} daily and ${facts.months} monthly rollup rows, ` +
        `seeded in ${seedSeconds.toFixed(1)} s`,
    );
    const headers = {
      host: `${t.slug}.${config.baseDomain}`,
      authorization: `Bearer ${await makeKey(db, t, ["ai:read"])}`,
    };
    // The year to today in the institution's time zone, and what the ledger holds of it: the oldest calls may be
    // on a day before the window's first.
    const [span] = await queryRows<{ from: string; to: string; calls: number; credits: number }>(
      db,
      sql`WITH w AS (SELECT (now() AT TIME ZONE timezone)::date AS today, timezone FROM tenants WHERE id = ${t.id})
        SELECT (w.today - 364)::text AS from, w.today::text AS to, count(*)::int AS calls,
               sum(l.credits)::float8 AS credits
          FROM w, ai_ledger l WHERE l.tenant_id = ${t.id}
           AND (l.occurred_at AT TIME ZONE w.timezone)::date BETWEEN w.today - 364 AND w.today
         GROUP BY w.today`,
    );
    if (span === undefined) throw new Error("no calls in the year");
    const year = `from=${span.from}&to=${span.to}`;
    const queries: Record<string, string> = {
      "30 days by day": "groupBy=day",
      "year by month": `${year}&groupBy=month`,
      "year by user": `${year}&groupBy=user`,
      "year by feature": `${year}&groupBy=feature`,
      "a user's year by week": `${year}&groupBy=week&userId=${userIds[0]}`,
    };
    const result: Record<string, { p50: number; p99: number }> = {};
    for (const [name, query] of Object.entries(queries)) {
      const times: number[] = [];
      for (let i = 0; i <= REQUESTS; i++) {
        const t0 = performance.now();
        const res = await request(`${base}/api/institution/ai-analytics/usage?${query}`, { headers });
        const body = (await res.body.json()) as Report;
        if (i > 0) times.push(performance.now() - t0);
        if (res.statusCode !== 200) problems.push(`${name}: ${res.statusCode}`);
        else if (name === "year by month") {
          const credits = body.buckets.reduce((n, b) => n + b.credits, 0);
          const requests = body.buckets.reduce((n, b) => n + b.requests, 0);
          if (credits !== span.credits || requests !== span.calls) {
            problems.push(
              `year by month: ${requests} calls, ${credits} credits; the ledger's year: ${span.calls}, ${span.credits}`,
            );
          }
        }
      }
      times.sort((x, y) => x - y);
      const at = (q: number) => Math.round((times[Math.floor(q * (times.length - 1))] ?? 0) * 10) / 10;
      result[name] = { p50: at(0.5), p99: at(0.99) };
    }
    log(`(y) ai analytics: ${JSON.stringify(result)} ms`);
    return {
      calls: facts.calls,
      rollupRows: facts.rollups,
      seedSeconds: Math.round(seedSeconds),
      queries: result,
      problems: [...new Set(problems)],
    };
  } finally {
    await app.close();
  }
}
