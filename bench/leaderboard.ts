/**
 * (u) The gamification leaderboard (issue 24, part 3), on PostgreSQL, through the real app listening on a loopback
 * port in this process: GET /gamification/leaderboard?perPage=100 (the institution, all time) in a tenant of SMALL
 * learners with points and in one of LARGE, LEADERBOARD_REQUESTS sequential GETs per size, interleaved over
 * LEADERBOARD_ROUNDS rounds after one unmeasured: r (requests/s) per size and r(LARGE)/r(SMALL) (target ≥ 0.8).
 * The standings are seeded as the award transactions write them (one row per learner and window). Checks: every
 * answer 200 with 100 rows in rank order.
 */
import { sql } from "drizzle-orm";
import { request } from "undici";
import type { Config } from "../src/config/index.js";
import type { Database, Db } from "../src/db/client.js";
import { analyze } from "../src/test-support/list-fixtures/types.js";
import { listenApp } from "./http.js";
import { type BenchTenant, makeKey, makeTenant } from "./seed.js";

const LEADERBOARD_REQUESTS = 50;
const LEADERBOARD_ROUNDS = 3;

export interface LeaderboardResult {
  sizes: number[];
  rps: Record<string, number>;
  ratio: number;
  problems: string[];
}

/** `count` students of the tenant, each with points in the institution's all-time window. */
async function learners(db: Db, t: BenchTenant, count: number): Promise<void> {
  await db.execute(sql`
    WITH made AS (
      INSERT INTO users (tenant_id, name, email, role, status)
      SELECT ${t.id}::uuid, 'Learner ' || i, 'l' || i || '@' || ${t.slug} || '.test', 'student', 'active'
      FROM generate_series(1, ${count}) AS i RETURNING id)
    INSERT INTO gamification_standings (tenant_id, scope, scope_id, period, window_start, user_id, points)
    SELECT ${t.id}::uuid, 'institution', ${t.id}::uuid, 'all_time', DATE '1970-01-01', id,
      (random() * 100000)::bigint FROM made`);
}

export async function measureLeaderboard(
  database: Database,
  config: Config,
  sizes: { small: number; large: number },
  log: (line: string) => void,
): Promise<LeaderboardResult> {
  const db = database.db;
  const { app, base } = await listenApp(database, config);
  const problems: string[] = [];
  try {
    const targets: { size: number; headers: Record<string, string> }[] = [];
    for (const size of [sizes.small, sizes.large]) {
      const started = performance.now();
      const t = await makeTenant(db, config.plans, "leaderboard", "bench leaderboard administrator");
      await learners(db, t, size);
      const headers = {
        host: `${t.slug}.${config.baseDomain}`,
        authorization: `Bearer ${await makeKey(db, t, ["gamification:read"])}`,
      };
      targets.push({ size, headers });
      log(
        `(u) leaderboard: seeded ${size} learners in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    await analyze(db, "users", "gamification_standings");
    const elapsed = new Map<number, number>();
    for (let r = 0; r <= LEADERBOARD_ROUNDS; r++) {
      for (const target of targets) {
        const t0 = performance.now();
        for (let i = 0; i < LEADERBOARD_REQUESTS; i++) {
          const res = await request(`${base}/api/institution/gamification/leaderboard?perPage=100`, {
            headers: target.headers,
          });
          const page = (await res.body.json()) as { data?: { rank: number; points: number }[] };
          if (res.statusCode !== 200) problems.push(`leaderboard at ${target.size}: ${res.statusCode}`);
          else if (page.data?.length !== 100) problems.push(`leaderboard page: ${page.data?.length} rows`);
          else if (page.data.some((row, k) => k > 0 && row.points > (page.data?.[k - 1]?.points ?? 0))) {
            problems.push("leaderboard page out of order");
          }
        }
        if (r > 0) elapsed.set(target.size, (elapsed.get(target.size) ?? 0) + performance.now() - t0);
      }
    }
    const rps: Record<string, number> = {};
    for (const [size, ms] of elapsed)
      rps[size] = Math.round((LEADERBOARD_REQUESTS * LEADERBOARD_ROUNDS * 1000) / ms);
    const ratio = Math.round(((rps[sizes.large] ?? 0) / (rps[sizes.small] ?? 1)) * 100) / 100;
    log(`(u) leaderboard page: ${JSON.stringify(rps)} req/s, ratio ${ratio}`);
    return { sizes: [sizes.small, sizes.large], rps, ratio, problems: [...new Set(problems)] };
  } finally {
    await app.close();
  }
}
