/**
 * The learning catalogue (issue 5): bulk enrollment and the progress read of a large course, on PostgreSQL, each
 * against the real app (`buildApp`, as (c)) in a server child of its own (bench/server.ts) with a key of scopes
 * enrollments:read and enrollments:write whose custom limits no run reaches (seed.ts makeKey).
 *
 *   (i) POST /api/institution/enrollments/bulk with BULK_ITEMS items (existing users by `userId`, one course):
 *       each run on a course of its own (the OUTLINE's lessons, so the created records' progress has lessons to
 *       count) and BULK_ITEMS users inserted just before, so every item is `created`. One unmeasured run first
 *       (with BENCH_WARMUP > 0), then BULK_RUNS measured: seconds per request (request sent → response read, in
 *       this process), median and spread. The server child records every statement the `pg` driver executes
 *       during each request (ServerConfig.queryLog: pg.Client.prototype.query wrapped, BEGIN and COMMIT
 *       included): statements per request and per item, split into the service's transaction and the rest (the
 *       pipeline's tenant and key lookups when their caches are cold, the key's last-used write at most once a
 *       minute). A request of SMALL_ITEMS items on a fresh course is counted the same way, for "a fixed number
 *       of statements whatever the number of items" (bulk-enroll.ts). Checks per request: HTTP 200, every result
 *       `created` with its enrollment, the summary, and in the database BULK_ITEMS enrollments of the course and
 *       one enrollment_created row in platform_events for each of them.
 *   (j) GET /api/institution/enrollments?courseId=…&perPage=100, page 1 (j1) and page DEEP_PAGE (j50), under
 *       autocannon (BENCH_CONNECTIONS, BENCH_WARMUP, BENCH_DURATION) as (c) is: requests/s, p50/p99. The course
 *       has the OUTLINE (REQUIRED_LESSONS published required lessons in 4 modules, plus a draft lesson and an
 *       optional one, which progress must not count) and PROGRESS_ENROLLMENTS enrolled users; the user enrolled
 *       n-th has completed the first n mod (REQUIRED_LESSONS + 1) required lessons in outline order (so progress
 *       runs 0 %…100 %), every 2nd the optional lesson and every 3rd the draft one — all written set-based
 *       (INSERT … SELECT), then VACUUM (ANALYZE). Before each load the page is read once and each of its items'
 *       progressPercent, lessonsCompleted and lessonsTotal compared with a direct SQL computation (a GROUP BY
 *       over the completions, not the app's correlated subqueries); the page has 100 items, newest first, and
 *       the total is PROGRESS_ENROLLMENTS. The page query is EXPLAINed (ANALYZE, BUFFERS) with a custom plan at
 *       both pages and with the generic plan its prepared statement may switch to at the deep page, and the
 *       count beside it.
 */
import autocannon from "autocannon";
import { and, eq, sql } from "drizzle-orm";
import pg from "pg";
import { loadPlanConfig } from "../src/config/plans.js";
import type { Database, Db } from "../src/db/client.js";
import { rowsOf } from "../src/db/rows.js";
import { courseModules, courses, enrollments, lessons } from "../src/db/schema/index.js";
import { pageQuery } from "../src/modules/enrollments/repo.js";
import { requestJson } from "./http.js";
import {
  type LatencySummary,
  type LoggedQuery,
  type ServerConfig,
  summarise,
  type Variant,
} from "./protocol.js";
import { type BenchTenant, makeKey, makeTenant } from "./seed.js";

/** Items per bulk request (the route's maximum), measured requests, and the small request's items. */
export const BULK_ITEMS = 1000;
const BULK_RUNS = 5;
const SMALL_ITEMS = 5;
/** (j): enrollments of the course, items per page, the deep page. */
export const PROGRESS_ENROLLMENTS = 10_000;
const PER_PAGE = 100;
export const DEEP_PAGE = 50;
/** Required published lessons per module of the outline (4 modules); the outline adds 2 that do not count. */
const LESSONS_PER_MODULE = 5;
const MODULES = 4;
const REQUIRED_LESSONS = LESSONS_PER_MODULE * MODULES;

const BULK_PATH = "/api/institution/enrollments/bulk";

export type CatalogueScenario = "i" | "j1" | "j50";

export const CATALOGUE_SCENARIO_NAMES: Record<CatalogueScenario, string> = {
  i: `(i) POST enrollments/bulk, ${BULK_ITEMS} items`,
  j1: "(j) GET enrollments?courseId, page 1",
  j50: `(j) GET enrollments?courseId, page ${DEEP_PAGE}`,
};

/** (i): the measured requests. */
export interface BulkCheck {
  items: number;
  /** Seconds of each measured request, in order, and their median. */
  seconds: number[];
  medianSeconds: number;
  /** Statements the driver executed during each measured request, and the split of each. */
  statements: number[];
  inTransaction: number[];
  outside: number[];
  /** Statements per item at BULK_ITEMS items (the median request's). */
  perItem: number;
  /** The SMALL_ITEMS-item request: its statements, and those in its transaction. */
  small: { items: number; statements: number; inTransaction: number };
  /** The statements of the median request, in order. */
  medianRequestQueries: LoggedQuery[];
  /** Item outcomes over the measured requests. */
  outcomes: Record<string, number>;
  /** enrollment_created rows in platform_events for each measured request's enrollments. */
  eventsPerRequest: number[];
}

/** (j): what the page read before the load said, against SQL. */
export interface ProgressCheck {
  enrollments: number;
  requiredLessons: number;
  completions: number;
  page: number;
  perPage: number;
  /** pagination.total of the page. */
  total: number;
  itemsChecked: number;
  mismatches: number;
  /** Distinct lessonsCompleted values on the page (progress varies). */
  distinctProgress: number;
  /** The first item, as the app and as SQL computed it. */
  sample: { id: string; app: ProgressFigures; sql: ProgressFigures } | null;
}

interface ProgressFigures {
  progressPercent: number;
  lessonsCompleted: number;
  lessonsTotal: number;
}

export interface CatalogueCheck {
  bulk?: BulkCheck;
  progress?: ProgressCheck;
  /** Failed checks (the warm-up's too); empty when everything held. */
  problems: string[];
}

/** Shaped like run.ts's Measurement, which it joins. */
export interface CatalogueMeasurement {
  scenario: CatalogueScenario;
  name: string;
  db: "postgres";
  /** (i): items per request; (j): enrollments of the course. */
  rows: number;
  /** (i): items enrolled per second (BULK_ITEMS / median seconds); (j): requests/s. */
  reqPerSec: number;
  /** (i): per request over the measured runs (p50 = median, p99 = max); (j): autocannon's. */
  latencyMs: LatencySummary;
  requests: { total: number; non2xx: number; errors: number; timeouts: number };
  otherCpuCores: number | null;
  stealCores: number | null;
  catalogue: CatalogueCheck;
}

export interface CataloguePlan {
  query: string;
  executionMs: number | null;
  planningMs: number | null;
  plan: string[];
}

/** What run.ts's startServer answers, as far as this file needs it. */
export interface CatalogueServer {
  pid: number | undefined;
  ports: Partial<Record<Variant, number>>;
  queryLog(action: "start" | "take"): Promise<LoggedQuery[]>;
  stop(): Promise<void>;
}

export interface CatalogueBenchOptions {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  log(message: string): void;
  /** Starts CPU accounting with the server child as one of ours; the function returned ends it. */
  cpuMeter(childPid: number | undefined): () => { other: number | null; steal: number | null };
  startServer(config: ServerConfig, tag: string): Promise<CatalogueServer>;
}

export interface CatalogueResult {
  measurements: CatalogueMeasurement[];
  plans: CataloguePlan[];
  seedSeconds: Record<string, number>;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------------- seeding

interface Setup {
  tenant: BenchTenant;
  secret: string;
}

async function seedTenant(db: Db): Promise<Setup> {
  const tenant = await makeTenant(db, loadPlanConfig({}), "catalogue");
  const secret = await makeKey(db, tenant, ["enrollments:read", "enrollments:write"]);
  return { tenant, secret };
}

/**
 * A published course of MODULES modules of LESSONS_PER_MODULE published required lessons, plus a draft lesson in
 * module 2 and a published optional one in module 3 (neither counts towards progress): 4 + 4 statements.
 */
async function makeOutlineCourse(db: Db, tenantId: string, title: string): Promise<string> {
  const [course] = await db
    .insert(courses)
    .values({ tenantId, title, status: "published" })
    .returning({ id: courses.id });
  const courseId = (course as { id: string }).id;
  for (let m = 1; m <= MODULES; m++) {
    const [module] = await db
      .insert(courseModules)
      .values({ tenantId, courseId, title: `Module ${m}`, position: m, status: "published" })
      .returning({ id: courseModules.id });
    const moduleId = (module as { id: string }).id;
    const specs = Array.from({ length: LESSONS_PER_MODULE }, () => ({ status: "published", required: true }));
    if (m === 2) specs.push({ status: "draft", required: true });
    if (m === 3) specs.push({ status: "published", required: false });
    await db.insert(lessons).values(
      specs.map((spec, l) => ({
        tenantId,
        courseId,
        moduleId,
        title: `Lesson ${m}.${l + 1}`,
        type: "text",
        position: l + 1,
        status: spec.status,
        requiredForCompletion: spec.required,
      })),
    );
  }
  return courseId;
}

/** `count` students named `<label>-<n>`, created a minute apart from `from`, in one statement; their ids. */
async function insertLearners(
  db: Db,
  tenant: BenchTenant,
  label: string,
  count: number,
  from = "2025-01-01T00:00:00Z",
): Promise<string[]> {
  const result = await db.execute(sql`
    INSERT INTO users (tenant_id, name, email, role, created_at, updated_at)
    SELECT ${tenant.id}::uuid, 'Learner ' || ${label}::text || ' ' || g,
      ${label}::text || '-' || g || '@' || ${tenant.slug}::text || '.test', 'student', ts, ts
    FROM generate_series(1, ${count}::int) AS g,
      LATERAL (SELECT ${from}::timestamptz + g * interval '1 minute' AS ts) AS t
    RETURNING id::text AS id`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

interface ProgressCourse {
  courseId: string;
  enrollments: number;
  completions: number;
}

/**
 * (j)'s course: PROGRESS_ENROLLMENTS users, each enrolled (enrolled and created a minute apart, in the users'
 * order), and the completions described at the top, in four set-based statements.
 */
async function seedProgressCourse(db: Db, tenant: BenchTenant): Promise<ProgressCourse> {
  const courseId = await makeOutlineCourse(db, tenant.id, "Bench progress course");
  await insertLearners(db, tenant, "progress", PROGRESS_ENROLLMENTS);
  await db.execute(sql`
    INSERT INTO enrollments (tenant_id, user_id, course_id, role, status, source, enrolled_at, created_at,
      updated_at)
    SELECT u.tenant_id, u.id, ${courseId}::uuid, 'student', 'active', 'bulk', ts, ts, ts
    FROM users AS u, LATERAL (SELECT u.created_at + interval '1 day' AS ts) AS t
    WHERE u.tenant_id = ${tenant.id}::uuid AND u.email LIKE 'progress-%'`);
  // n: the enrollment's rank (1 = enrolled first); k: the required published lesson's rank in outline order.
  const numbered = sql`
    e AS (
      SELECT e.id, e.user_id, row_number() OVER (ORDER BY e.created_at, e.id) AS n
      FROM enrollments AS e WHERE e.tenant_id = ${tenant.id}::uuid AND e.course_id = ${courseId}::uuid),
    l AS (
      SELECT l.id, l.module_id, l.status, l.required_for_completion,
        row_number() OVER (PARTITION BY l.status = 'published' AND l.required_for_completion
          ORDER BY m.position, l.position) AS k
      FROM lessons AS l
      JOIN course_modules AS m ON m.tenant_id = l.tenant_id AND m.id = l.module_id
      WHERE l.tenant_id = ${tenant.id}::uuid AND l.course_id = ${courseId}::uuid)`;
  await db.execute(sql`
    WITH ${numbered}
    INSERT INTO lesson_completions (tenant_id, lesson_id, user_id, course_id, module_id, enrollment_id,
      completed_at, time_spent_seconds, source)
    SELECT ${tenant.id}::uuid, l.id, e.user_id, ${courseId}::uuid, l.module_id, e.id,
      timestamptz '2025-03-01 00:00:00+00' + (e.n * 30 + l.k) * interval '1 minute', 300, 'api'
    FROM e JOIN l ON
      CASE
        WHEN l.status = 'published' AND l.required_for_completion THEN l.k <= e.n % ${REQUIRED_LESSONS + 1}
        WHEN l.status = 'published' THEN e.n % 2 = 0
        ELSE e.n % 3 = 0
      END`);
  await db.execute(
    sql`VACUUM (ANALYZE) users, enrollments, lesson_completions, lessons, course_modules, tenant_counters`,
  );
  const counts = rowsOf<{ enrollments: number; completions: number }>(
    await db.execute(sql`
      SELECT (SELECT count(*)::int FROM enrollments
          WHERE tenant_id = ${tenant.id}::uuid AND course_id = ${courseId}::uuid) AS enrollments,
        (SELECT count(*)::int FROM lesson_completions
          WHERE tenant_id = ${tenant.id}::uuid AND course_id = ${courseId}::uuid) AS completions`),
  )[0];
  return { courseId, enrollments: counts?.enrollments ?? 0, completions: counts?.completions ?? 0 };
}

// ---------------------------------------------------------------------------------------------- (i)

interface BulkRun {
  status: number;
  seconds: number;
  queries: LoggedQuery[];
  inTransaction: number;
  outcomes: Record<string, number>;
  events: number;
  problems: string[];
}

interface BulkBody {
  results: { index: number; status: string; enrollment?: { id: string; userId: string; courseId: string } }[];
  summary: { total: number; created: number; skipped: number; failed: number };
}

function isBulkBody(body: unknown): body is BulkBody {
  if (typeof body !== "object" || body === null) return false;
  const { results, summary } = body as Record<string, unknown>;
  return Array.isArray(results) && typeof summary === "object" && summary !== null;
}

/** Statements on a connection from its BEGIN to its COMMIT or ROLLBACK, both included. */
function transactionStatements(queries: readonly LoggedQuery[]): number {
  const open = new Set<number>();
  let n = 0;
  for (const q of queries) {
    if (/^begin\b/i.test(q.text)) open.add(q.client);
    if (open.has(q.client)) n++;
    if (/^(commit|rollback)\b/i.test(q.text)) open.delete(q.client);
  }
  return n;
}

function keyHeaders(setup: Setup, port: number): Record<string, string> {
  return { host: `${setup.tenant.slug}.localhost:${port}`, authorization: `Bearer ${setup.secret}` };
}

/** One bulk request on a fresh course and `items` fresh users, with its statements and its checks. */
async function bulkRun(
  db: Db,
  server: CatalogueServer,
  port: number,
  setup: Setup,
  label: string,
  items: number,
): Promise<BulkRun> {
  const { tenant } = setup;
  const courseId = await makeOutlineCourse(db, tenant.id, `Bench bulk ${label}`);
  const userIds = await insertLearners(db, tenant, label, items);
  const body = JSON.stringify({ items: userIds.map((userId) => ({ userId, courseId })) });
  const headers = { ...keyHeaders(setup, port), "content-type": "application/json" };
  await server.queryLog("start");
  const started = performance.now();
  const res = await requestJson(port, BULK_PATH, headers, body);
  const seconds = (performance.now() - started) / 1000;
  const queries = await server.queryLog("take");

  const problems: string[] = [];
  const outcomes: Record<string, number> = {};
  if (res.status !== 200 || !isBulkBody(res.body)) {
    problems.push(`HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  } else {
    const { results, summary } = res.body;
    for (const r of results) outcomes[r.status] = (outcomes[r.status] ?? 0) + 1;
    if (summary.total !== items || summary.created !== items) {
      problems.push(`summary ${JSON.stringify(summary)}, expected ${items} created`);
    }
    const users = new Set(userIds);
    const wrong = results.filter(
      (r, i) =>
        r.index !== i ||
        r.status !== "created" ||
        r.enrollment?.courseId !== courseId ||
        !users.has(r.enrollment.userId),
    ).length;
    if (results.length !== items || wrong > 0) {
      problems.push(`${results.length} results, ${wrong} of them not "created" with this item's enrollment`);
    }
  }
  const counts = rowsOf<{ enrollments: number; events: number }>(
    await db.execute(sql`
      SELECT count(*)::int AS enrollments,
        (SELECT count(*)::int FROM platform_events AS p
          WHERE p.tenant_id = ${tenant.id}::uuid AND p.type = 'enrollment_created'
            AND p.data ->> 'courseId' = ${courseId}
            AND (p.data ->> 'enrollmentId')::uuid IN (SELECT e.id FROM enrollments AS e
              WHERE e.tenant_id = ${tenant.id}::uuid AND e.course_id = ${courseId}::uuid)) AS events
      FROM enrollments
      WHERE tenant_id = ${tenant.id}::uuid AND course_id = ${courseId}::uuid`),
  )[0] ?? { enrollments: 0, events: 0 };
  if (counts.enrollments !== items) problems.push(`${counts.enrollments} enrollments in the course`);
  if (counts.events !== items) problems.push(`${counts.events} enrollment_created events in platform_events`);
  return {
    status: res.status,
    seconds,
    queries,
    inTransaction: transactionStatements(queries),
    outcomes,
    events: counts.events,
    problems,
  };
}

async function measureBulk(
  database: Database,
  databaseUrl: string,
  setup: Setup,
  options: CatalogueBenchOptions,
): Promise<CatalogueMeasurement> {
  const db = database.db;
  const server = await options.startServer(
    {
      db: { kind: "postgres", url: databaseUrl },
      tenantId: setup.tenant.id,
      variants: ["c"],
      queryLog: true,
    },
    "postgres-catalogue-bulk",
  );
  try {
    const port = server.ports.c;
    if (port === undefined) throw new Error("the server did not start the app");
    const problems: string[] = [];
    if (options.warmupSeconds > 0) {
      const warm = await bulkRun(db, server, port, setup, "bulk-warm", BULK_ITEMS);
      problems.push(...warm.problems.map((p) => `warm-up: ${p}`));
      options.log(`(i) warm-up request: ${warm.seconds.toFixed(3)} s, ${warm.queries.length} statements`);
    }
    const small = await bulkRun(db, server, port, setup, "bulk-small", SMALL_ITEMS);
    problems.push(...small.problems.map((p) => `${SMALL_ITEMS} items: ${p}`));
    const runs: BulkRun[] = [];
    const meter = options.cpuMeter(server.pid);
    for (let r = 0; r < BULK_RUNS; r++) {
      const run = await bulkRun(db, server, port, setup, `bulk-${r}`, BULK_ITEMS);
      problems.push(...run.problems.map((p) => `run ${r + 1}: ${p}`));
      options.log(
        `(i) run ${r + 1}/${BULK_RUNS}: ${run.seconds.toFixed(3)} s, ${run.queries.length} statements ` +
          `(${run.inTransaction} in the transaction), outcomes ${JSON.stringify(run.outcomes)}, ` +
          `enrollment_created events ${run.events}`,
      );
      runs.push(run);
    }
    const cpu = meter();
    const byTime = [...runs].sort((x, y) => x.seconds - y.seconds);
    const median = byTime[Math.floor((byTime.length - 1) / 2)] as BulkRun;
    const outcomes: Record<string, number> = {};
    for (const run of runs) {
      for (const [k, v] of Object.entries(run.outcomes)) outcomes[k] = (outcomes[k] ?? 0) + v;
    }
    const statements = runs.map((run) => run.queries.length);
    if (new Set(statements).size > 1) {
      // Not a failure: the pipeline's lookups run whenever their few-second caches have expired.
      options.log(`(i) statements per request differ between runs: ${statements.join(", ")}`);
    }
    const latency = summarise(runs.map((run) => run.seconds * 1000));
    return {
      scenario: "i",
      name: CATALOGUE_SCENARIO_NAMES.i,
      db: "postgres",
      rows: BULK_ITEMS,
      reqPerSec: round(BULK_ITEMS / median.seconds, 1),
      latencyMs: { ...latency, p50: round(median.seconds * 1000, 2) },
      requests: {
        total: runs.length,
        non2xx: runs.filter((run) => run.status !== 200).length,
        errors: 0,
        timeouts: 0,
      },
      otherCpuCores: cpu.other,
      stealCores: cpu.steal,
      catalogue: {
        bulk: {
          items: BULK_ITEMS,
          seconds: runs.map((run) => round(run.seconds, 4)),
          medianSeconds: round(median.seconds, 4),
          statements,
          inTransaction: runs.map((run) => run.inTransaction),
          outside: runs.map((run) => run.queries.length - run.inTransaction),
          perItem: round(median.queries.length / BULK_ITEMS, 4),
          small: { items: SMALL_ITEMS, statements: small.queries.length, inTransaction: small.inTransaction },
          medianRequestQueries: median.queries,
          outcomes,
          eventsPerRequest: runs.map((run) => run.events),
        },
        problems,
      },
    };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------- (j)

interface EnrollmentItem extends ProgressFigures {
  id: string;
  courseId: string;
  createdAt: string;
}

interface EnrollmentPageBody {
  data: EnrollmentItem[];
  pagination: { total: number; page: number; perPage: number };
}

function isEnrollmentPage(body: unknown): body is EnrollmentPageBody {
  if (typeof body !== "object" || body === null) return false;
  const { data, pagination } = body as Record<string, unknown>;
  return Array.isArray(data) && typeof pagination === "object" && pagination !== null;
}

function pagePath(courseId: string, page: number): string {
  return `/api/institution/enrollments?courseId=${courseId}&perPage=${PER_PAGE}&page=${page}`;
}

/**
 * The progress of these enrollments computed apart from the app: required published lessons of the course, and
 * the user's completions among them by a join and GROUP BY; the percentage rounded as percentOf does.
 */
async function progressBySql(
  db: Db,
  tenantId: string,
  courseId: string,
  ids: string[],
): Promise<Map<string, ProgressFigures>> {
  const rows = rowsOf<{ id: string; done: number; total: number; percent: number }>(
    await db.execute(sql`
      WITH required AS (
        SELECT id FROM lessons
        WHERE tenant_id = ${tenantId}::uuid AND course_id = ${courseId}::uuid
          AND status = 'published' AND required_for_completion),
      done AS (
        SELECT e.id, count(r.id)::int AS done
        FROM enrollments AS e
        LEFT JOIN lesson_completions AS c
          ON c.tenant_id = e.tenant_id AND c.user_id = e.user_id AND c.course_id = e.course_id
        LEFT JOIN required AS r ON r.id = c.lesson_id
        WHERE e.tenant_id = ${tenantId}::uuid
          AND e.id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)
        GROUP BY e.id)
      SELECT d.id::text AS id, d.done, t.total,
        CASE WHEN t.total = 0 THEN 0 ELSE round(100.0 * d.done / t.total, 2) END::float8 AS percent
      FROM done AS d, (SELECT count(*)::int AS total FROM required) AS t`),
  );
  return new Map(
    rows.map((r) => [
      r.id,
      { progressPercent: Number(r.percent), lessonsCompleted: r.done, lessonsTotal: r.total },
    ]),
  );
}

async function checkProgressPage(
  db: Db,
  port: number,
  setup: Setup,
  course: ProgressCourse,
  page: number,
): Promise<{ check: ProgressCheck; firstId: string | undefined; problems: string[] }> {
  const problems: string[] = [];
  const res = await requestJson(port, pagePath(course.courseId, page), keyHeaders(setup, port));
  const check: ProgressCheck = {
    enrollments: course.enrollments,
    requiredLessons: REQUIRED_LESSONS,
    completions: course.completions,
    page,
    perPage: PER_PAGE,
    total: 0,
    itemsChecked: 0,
    mismatches: 0,
    distinctProgress: 0,
    sample: null,
  };
  if (res.status !== 200 || !isEnrollmentPage(res.body)) {
    problems.push(`HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return { check, firstId: undefined, problems };
  }
  const { data, pagination } = res.body;
  check.total = pagination.total;
  if (pagination.total !== PROGRESS_ENROLLMENTS) {
    problems.push(`pagination.total ${pagination.total}, expected ${PROGRESS_ENROLLMENTS}`);
  }
  if (data.length !== PER_PAGE) problems.push(`${data.length} items, expected ${PER_PAGE}`);
  for (let i = 1; i < data.length; i++) {
    if ((data[i - 1]?.createdAt ?? "") < (data[i]?.createdAt ?? "")) {
      problems.push("not newest first");
      break;
    }
  }
  if (data.some((item) => item.courseId !== course.courseId)) problems.push("items of another course");
  const expected = await progressBySql(db, setup.tenant.id, course.courseId, [...data.map((d) => d.id)]);
  for (const item of data) {
    const want = expected.get(item.id);
    check.itemsChecked++;
    if (
      want === undefined ||
      want.progressPercent !== item.progressPercent ||
      want.lessonsCompleted !== item.lessonsCompleted ||
      want.lessonsTotal !== item.lessonsTotal
    ) {
      check.mismatches++;
    }
  }
  if (check.mismatches > 0) {
    problems.push(`${check.mismatches} of ${check.itemsChecked} items' progress differs from SQL's`);
  }
  check.distinctProgress = new Set(data.map((d) => d.lessonsCompleted)).size;
  if (check.distinctProgress < 2) problems.push("progress does not vary on the page");
  const first = data[0];
  const want = first === undefined ? undefined : expected.get(first.id);
  if (first !== undefined && want !== undefined) {
    check.sample = {
      id: first.id,
      app: {
        progressPercent: first.progressPercent,
        lessonsCompleted: first.lessonsCompleted,
        lessonsTotal: first.lessonsTotal,
      },
      sql: want,
    };
  }
  return { check, firstId: first?.id, problems };
}

async function loadPage(
  port: number,
  path: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
): Promise<autocannon.Result> {
  return autocannon({ url: `http://127.0.0.1:${port}${path}`, connections, duration: seconds, headers });
}

async function measureProgress(
  database: Database,
  databaseUrl: string,
  setup: Setup,
  course: ProgressCourse,
  options: CatalogueBenchOptions,
): Promise<CatalogueMeasurement[]> {
  const server = await options.startServer(
    { db: { kind: "postgres", url: databaseUrl }, tenantId: setup.tenant.id, variants: ["c"] },
    "postgres-catalogue-progress",
  );
  try {
    const port = server.ports.c;
    if (port === undefined) throw new Error("the server did not start the app");
    const out: CatalogueMeasurement[] = [];
    let firstPageId: string | undefined;
    for (const [scenario, page] of [
      ["j1", 1],
      ["j50", DEEP_PAGE],
    ] as const) {
      const { check, firstId, problems } = await checkProgressPage(database.db, port, setup, course, page);
      if (page === 1) firstPageId = firstId;
      else if (firstId !== undefined && firstId === firstPageId) problems.push("the same items as page 1");
      const path = pagePath(course.courseId, page);
      const headers = keyHeaders(setup, port);
      if (options.warmupSeconds > 0) {
        await loadPage(port, path, headers, options.warmupSeconds, options.connections);
      }
      const meter = options.cpuMeter(server.pid);
      const r = await loadPage(port, path, headers, options.durationSeconds, options.connections);
      const cpu = meter();
      if (r.non2xx + r.errors + r.timeouts > 0) {
        problems.push(`${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts under load`);
      }
      const m: CatalogueMeasurement = {
        scenario,
        name: CATALOGUE_SCENARIO_NAMES[scenario],
        db: "postgres",
        rows: course.enrollments,
        reqPerSec: r.requests.average,
        latencyMs: { p50: r.latency.p50, p99: r.latency.p99, average: r.latency.average, max: r.latency.max },
        requests: { total: r.requests.total, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts },
        otherCpuCores: cpu.other,
        stealCores: cpu.steal,
        catalogue: { progress: check, problems },
      };
      out.push(m);
      logMeasurement(options.log, m);
    }
    return out;
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------- EXPLAIN

function planSummary(query: string, plan: string[]): CataloguePlan {
  const number = (re: RegExp) => {
    const hit = plan.map((line) => re.exec(line)).find((m) => m !== null);
    return hit?.[1] === undefined ? null : Number(hit[1]);
  };
  return {
    query,
    executionMs: number(/Execution Time: ([\d.]+) ms/),
    planningMs: number(/Planning Time: ([\d.]+) ms/),
    plan,
  };
}

/**
 * (j)'s statements planned as the server runs them: the page query of repo.ts (custom plans at page 1 and the
 * deep page; the generic plan at the deep page, which its prepared statement may switch to after five
 * executions) and the count countEnrollments runs beside it. Each run three times, the last kept.
 */
async function explainProgress(
  database: Database,
  databaseUrl: string,
  tenantId: string,
  courseId: string,
): Promise<CataloguePlan[]> {
  const client = new pg.Client({ connectionString: databaseUrl, options: "-c TimeZone=UTC" });
  await client.connect();
  const planOf = (result: pg.QueryResult) =>
    result.rows.map((r: Record<string, string>) => r["QUERY PLAN"] ?? "");
  const thrice = async (text: string, params: unknown[]) => {
    let plan: string[] = [];
    for (let i = 0; i < 3; i++)
      plan = planOf(await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params));
    return plan;
  };
  try {
    const plans: CataloguePlan[] = [];
    for (const page of [1, DEEP_PAGE]) {
      const q = pageQuery(
        database.db,
        { tenantId, courseId, limit: PER_PAGE, offset: (page - 1) * PER_PAGE },
        "-createdAt",
      ).toSQL();
      plans.push(planSummary(`page query, page ${page}, custom plan`, await thrice(q.sql, q.params)));
    }
    const prepared = pageQuery(
      database.db,
      {
        tenantId: sql.placeholder("tenantId"),
        courseId: sql.placeholder("courseId"),
        limit: sql.placeholder("limit"),
        offset: sql.placeholder("offset"),
      },
      "-createdAt",
    ).toSQL();
    const values: Record<string, string> = {
      tenantId: `'${tenantId}'`,
      courseId: `'${courseId}'`,
      limit: String(PER_PAGE),
      offset: String((DEEP_PAGE - 1) * PER_PAGE),
    };
    const args = prepared.params.map((p) => {
      const name = (p as { name?: string }).name;
      const value = name === undefined ? undefined : values[name];
      if (value === undefined) throw new Error(`EXPLAIN: no value for parameter ${String(name)}`);
      return value;
    });
    await client.query("SET plan_cache_mode = force_generic_plan");
    await client.query(`PREPARE bench_enrollments AS ${prepared.sql}`);
    plans.push(
      planSummary(
        `page query, page ${DEEP_PAGE}, generic plan`,
        await thrice(`EXECUTE bench_enrollments(${args.join(", ")})`, []),
      ),
    );
    await client.query("DEALLOCATE bench_enrollments");
    await client.query("RESET plan_cache_mode");
    const count = database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(enrollments)
      .where(and(eq(enrollments.tenantId, tenantId), eq(enrollments.courseId, courseId)))
      .toSQL();
    plans.push(planSummary("count (countEnrollments, courseId)", await thrice(count.sql, count.params)));
    return plans;
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------- entry

/** (i) then (j) on the PostgreSQL database `database` (at `databaseUrl`, which the server children open too). */
export async function measureCatalogue(
  database: Database,
  databaseUrl: string,
  options: CatalogueBenchOptions,
): Promise<CatalogueResult> {
  const seedSeconds: Record<string, number> = {};
  const setup = await seedTenant(database.db);
  const bulk = await measureBulk(database, databaseUrl, setup, options);
  logMeasurement(options.log, bulk);

  const t0 = performance.now();
  const course = await seedProgressCourse(database.db, setup.tenant);
  seedSeconds[`postgres catalogue: ${PROGRESS_ENROLLMENTS} enrollments, completions, VACUUM (ANALYZE)`] =
    (performance.now() - t0) / 1000;
  options.log(
    `postgres: (j)'s course, ${course.enrollments} enrollments, ${course.completions} completions ` +
      `(${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  const plans = await explainProgress(database, databaseUrl, setup.tenant.id, course.courseId);
  for (const p of plans) options.log(`EXPLAIN ${p.query}: ${p.executionMs} ms`);
  const progress = await measureProgress(database, databaseUrl, setup, course, options);
  return { measurements: [bulk, ...progress], plans, seedSeconds };
}

function logMeasurement(log: (message: string) => void, m: CatalogueMeasurement): void {
  const b = m.catalogue.bulk;
  const what =
    b === undefined
      ? `${Math.round(m.reqPerSec)} req/s, p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms`
      : `median ${b.medianSeconds} s per request (${Math.round(m.reqPerSec)} items/s), ` +
        `${b.statements.join("/")} statements per request (${b.perItem} per item)`;
  log(
    `${m.name.padEnd(40)} ${String(m.rows).padStart(6)} ${m.db.padEnd(8)} ${what}, other cpu ${m.otherCpuCores ?? "?"}`,
  );
  for (const problem of m.catalogue.problems) log(`CHECK FAILED ${m.name}: ${problem}`);
}
