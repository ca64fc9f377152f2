/**
 * (t) Reports and jobs (issue 24, part 2), on PostgreSQL, through the real app listening on a loopback port in this
 * process (which is therefore the server whose memory is measured):
 *
 *   (t1) POST /reports {type: "enrollments"} over a tenant of BENCH_REPORTS enrollments, run by the job loop's own
 *        code (drainJobs, as a worker runs it), its file fetched through the signed URL and its lines counted as
 *        they stream: seconds from the POST to `completed` (target < 60 s at 1,000,000), rows per second, the
 *        process's peak RSS during the run (sampled every 50 ms; target < 250 MB) and at rest before it;
 *   (t2) the queue itself: CLAIMS jobs queued at once, claimed one at a time (claimJobs, db/lease.ts) and ended,
 *        as a worker does: jobs claimed per second.
 * Checks: the run completes with BENCH_REPORTS rows, the file holds a header and that many lines, every claim
 * takes a distinct job.
 */
import { sql } from "drizzle-orm";
import { request } from "undici";
import type { Config } from "../src/config/index.js";
import type { Database } from "../src/db/client.js";
import { claimJobs } from "../src/modules/jobs/run.js";
import { drainJobs } from "../src/modules/jobs/service.js";
import { reportJobHandler } from "../src/modules/reports/service.js";
import { analyze, insertedId } from "../src/test-support/list-fixtures/types.js";
import { listenApp } from "./http.js";
import { makeKey, makeTenant } from "./seed.js";

const CLAIMS = 2000;
const SEED_BATCH = 100_000;

export interface ReportsResult {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  fileBytes: number;
  rssBeforeMB: number;
  rssPeakMB: number;
  claims: { jobs: number; perSecond: number };
  problems: string[];
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

export async function measureReports(
  database: Database,
  config: Config,
  rows: number,
  log: (line: string) => void,
): Promise<ReportsResult> {
  const db = database.db;
  const { app, ctx, base } = await listenApp(database, config);
  const problems: string[] = [];
  try {
    const started = performance.now();
    const t = await makeTenant(db, config.plans, "reports");
    const courseId = await insertedId(
      db,
      sql`INSERT INTO courses (tenant_id, title, status) VALUES (${t.id}::uuid, 'Report course', 'published')
          RETURNING id`,
    );
    for (let from = 1; from <= rows; from += SEED_BATCH) {
      const to = Math.min(rows, from + SEED_BATCH - 1);
      await db.execute(sql`
        WITH made AS (
          INSERT INTO users (tenant_id, name, email, role, status)
          SELECT ${t.id}::uuid, 'Student ' || i, 's' || i || '@' || ${t.slug} || '.test', 'student', 'active'
          FROM generate_series(${from}::int, ${to}::int) AS i RETURNING id)
        INSERT INTO enrollments (tenant_id, user_id, course_id, role, status)
        SELECT ${t.id}::uuid, id, ${courseId}::uuid, 'student', 'active' FROM made`);
    }
    await analyze(db, "users", "enrollments");
    log(`(t) reports: seeded ${rows} enrollments in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const headers = {
      host: `${t.slug}.${config.baseDomain}`,
      authorization: `Bearer ${await makeKey(db, t, ["reports:read"])}`,
    };

    // (t1) one report, sampled for memory from the POST to the end of the run.
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 50);
    const t0 = performance.now();
    const posted = await request(`${base}/api/institution/reports`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ type: "enrollments", format: "csv" }),
    });
    const run = (await posted.body.json()) as { id: string };
    if (posted.statusCode !== 202) problems.push(`POST /reports answered ${posted.statusCode}`);
    const outcomes = await drainJobs(ctx, { report: reportJobHandler }, { tenantIds: [t.id] });
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    if (outcomes.join() !== "succeeded") problems.push(`the run ended ${outcomes.join()}`);
    const got = await request(`${base}/api/institution/reports/${run.id}`, { headers });
    const record = (await got.body.json()) as {
      status: string;
      rowCount: number;
      file: { sizeBytes: number };
    };
    if (record.status !== "completed" || record.rowCount !== rows) {
      problems.push(`run ${record.status} with ${record.rowCount} rows`);
    }
    // The file, through its signed URL, counted as it streams.
    const signed = await request(`${base}/api/institution/reports/${run.id}/download?redirect=false`, {
      headers,
    });
    const { url } = (await signed.body.json()) as { url: string };
    const file = await request(`${base}${new URL(url).pathname}${new URL(url).search}`, {
      headers: { host: headers.host },
    });
    let lines = 0;
    let bytes = 0;
    for await (const chunk of file.body) {
      bytes += (chunk as Buffer).length;
      for (const byte of chunk as Buffer) if (byte === 10) lines++;
    }
    if (lines !== rows + 1) problems.push(`the file holds ${lines} lines, not ${rows + 1}`);
    if (bytes !== record.file?.sizeBytes)
      problems.push(`the file holds ${bytes} bytes, not ${record.file?.sizeBytes}`);
    log(
      `(t1) ${rows} rows in ${seconds.toFixed(1)} s, peak RSS ${mb(rssPeak)} MB (before ${mb(rssBefore)} MB)`,
    );

    // (t2) the queue: jobs queued at once, claimed one by one and ended, as a worker does.
    const q = await makeTenant(db, config.plans, "claims");
    await db.execute(sql`
      INSERT INTO jobs (tenant_id, type, subtype, payload)
      SELECT ${q.id}::uuid, 'report', 'users', '{"format": "csv", "parameters": {}}'::jsonb
      FROM generate_series(1, ${CLAIMS})`);
    const seen = new Set<string>();
    const c0 = performance.now();
    for (;;) {
      const [job] = await claimJobs(db, { limit: 1, leaseSeconds: 60, perTenant: CLAIMS, tenantIds: [q.id] });
      if (job === undefined) break;
      seen.add(job.id);
      await db.execute(sql`UPDATE jobs SET status = 'succeeded', finished_at = now(), lease_until = NULL
                            WHERE tenant_id = ${q.id}::uuid AND id = ${job.id}::uuid AND attempts = ${job.attempt}`);
    }
    const claimSeconds = (performance.now() - c0) / 1000;
    if (seen.size !== CLAIMS) problems.push(`claimed ${seen.size} distinct jobs of ${CLAIMS}`);
    return {
      rows,
      seconds: round(seconds),
      rowsPerSecond: Math.round(rows / seconds),
      fileBytes: bytes,
      rssBeforeMB: mb(rssBefore),
      rssPeakMB: mb(rssPeak),
      claims: { jobs: CLAIMS, perSecond: Math.round(CLAIMS / claimSeconds) },
      problems,
    };
  } finally {
    await app.close();
  }
}
