/**
 * (r) The gradebook (issue 23), on PostgreSQL, through the real app listening on a loopback port in this process:
 *
 *   (r1) GET /courses/:id/gradebook?perPage=100: a course of 100 students × 50 grade items (every grade written,
 *        course grades included) in a tenant of SMALL enrollments and in one of LARGE (the rest of the tenant's
 *        students enrolled in another course), GRADEBOOK_REQUESTS sequential GETs per size, interleaved over
 *        GRADEBOOK_ROUNDS rounds after one unmeasured: r (requests/s) per size and r(LARGE)/r(SMALL) (target ≥ 0.8);
 *   (r2) POST /courses/:id/grades/bulk with 1,000 grades (20 students × 50 items of a fresh course, every one
 *        new), in the large tenant: seconds per request (median of BULK_REPEATS, after one unmeasured; target
 *        ≤ 1 s) and the SQL statements the request ran (captured from the driver);
 *   (r3) PUT /grade-items/:id/grades/:userId, one grade and its course grade, WRITE_REQUESTS sequential writes over
 *        the large tenant's course: p50 and p99 ms (target p50 ≤ 5 ms);
 *   (r4) GET /certificates/:id/pdf: PDF_REQUESTS renders of CERTIFICATES certificates, PDF_CONCURRENCY in flight:
 *        PDFs per second, and each answer checked to be a PDF.
 * Checks: every answer 200 (201 for the bulk), the page holds 100 rows of 50 grades, the bulk's 1,000 results are
 * `created`, each write's answer carries the score sent.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { request } from "undici";
import type { Config } from "../src/config/index.js";
import type { Database, Db } from "../src/db/client.js";
import { analyze, insertedId } from "../src/test-support/list-fixtures/types.js";
import { listenApp } from "./http.js";
import { summarise } from "./protocol.js";
import { type BenchTenant, makeKey, makeTenant } from "./seed.js";

export const GRADEBOOK_STUDENTS = 100;
export const GRADEBOOK_ITEMS = 50;
const GRADEBOOK_REQUESTS = 20;
const GRADEBOOK_ROUNDS = 3;
const BULK_STUDENTS = 20;
const BULK_REPEATS = 5;
const WRITE_REQUESTS = 300;
const CERTIFICATES = 20;
const PDF_REQUESTS = 60;
const PDF_CONCURRENCY = 4;
const SCOPES = ["grades:read", "grades:write", "courses:read", "courses:write"];

export interface GradebookResult {
  page: { sizes: number[]; rps: Record<string, number>; ratio: number };
  bulk: { items: number; seconds: number[]; medianSeconds: number; statements: number };
  write: { requests: number; p50Ms: number; p99Ms: number };
  pdf: { requests: number; concurrency: number; perSecond: number; bytesMedian: number };
  problems: string[];
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A published course of `students` new students, each enrolled, with `items` grade items; ids back. */
async function gradedCourse(db: Db, t: BenchTenant, students: number, items: number, graded: boolean) {
  const courseId = await insertedId(
    db,
    sql`INSERT INTO courses (tenant_id, title, status) VALUES (${t.id}::uuid, 'Graded course', 'published')
        RETURNING id`,
  );
  const tag = courseId.slice(0, 8);
  await db.execute(sql`
    WITH made AS (
      INSERT INTO users (tenant_id, name, email, role, status)
      SELECT ${t.id}::uuid, 'Student ' || i, ${tag} || '-' || i || '@' || ${t.slug} || '.test', 'student', 'active'
      FROM generate_series(1, ${students}) AS i RETURNING id)
    INSERT INTO enrollments (tenant_id, user_id, course_id, role, status)
    SELECT ${t.id}::uuid, id, ${courseId}::uuid, 'student', 'active' FROM made`);
  await db.execute(sql`
    INSERT INTO grade_items (tenant_id, course_id, title, max_points, position)
    SELECT ${t.id}::uuid, ${courseId}::uuid, 'Item ' || i, 10, i FROM generate_series(1, ${items}) AS i`);
  if (graded) {
    await db.execute(sql`
      INSERT INTO grades (tenant_id, grade_item_id, course_id, user_id, enrollment_id, score, status, posted_at)
      SELECT e.tenant_id, gi.id, e.course_id, e.user_id, e.id, (random() * 10)::numeric(6, 2), 'graded', now()
      FROM enrollments e JOIN grade_items gi ON gi.tenant_id = e.tenant_id AND gi.course_id = e.course_id
      WHERE e.tenant_id = ${t.id}::uuid AND e.course_id = ${courseId}::uuid`);
    await db.execute(sql`
      INSERT INTO course_grades (tenant_id, course_id, user_id, enrollment_id, current_score, final_score,
                                 unposted_current_score, unposted_final_score)
      SELECT e.tenant_id, e.course_id, e.user_id, e.id, 50, 50, 50, 50
      FROM enrollments e WHERE e.tenant_id = ${t.id}::uuid AND e.course_id = ${courseId}::uuid`);
  }
  const rows = (await db.execute(sql`
    SELECT (SELECT array_agg(id ORDER BY position) FROM grade_items
            WHERE tenant_id = ${t.id}::uuid AND course_id = ${courseId}::uuid) AS items,
           (SELECT array_agg(user_id ORDER BY user_id) FROM enrollments
            WHERE tenant_id = ${t.id}::uuid AND course_id = ${courseId}::uuid) AS users`)) as unknown as {
    rows: { items: string[]; users: string[] }[];
  };
  const ids = rows.rows[0] as { items: string[]; users: string[] };
  return { courseId, itemIds: ids.items, userIds: ids.users };
}

/** The statements every client of the driver sent while `work` ran (BEGIN and COMMIT included). */
async function countStatements(work: () => Promise<void>): Promise<number> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let count = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    count++;
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  return count;
}

/** The tenant's other students, enrolled in one course of their own, so the tenant holds `total` enrollments. */
async function fill(db: Db, t: BenchTenant, count: number): Promise<void> {
  if (count <= 0) return;
  await gradedCourse(db, t, count, 0, false);
}

export async function measureGradebook(
  database: Database,
  config: Config,
  sizes: { small: number; large: number },
  log: (line: string) => void,
): Promise<GradebookResult> {
  const db = database.db;
  const { app, base } = await listenApp(database, config);
  const problems: string[] = [];
  const send = async (method: "GET" | "PUT" | "POST", path: string, headers: object, body?: unknown) => {
    const res = await request(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: res.body };
  };
  try {
    const targets: { size: number; headers: Record<string, string>; courseId: string }[] = [];
    let large: {
      t: BenchTenant;
      headers: Record<string, string>;
      course: Awaited<ReturnType<typeof gradedCourse>>;
    };
    for (const size of [sizes.small, sizes.large]) {
      const started = performance.now();
      const t = await makeTenant(db, config.plans, "gradebook", "bench gradebook administrator");
      const course = await gradedCourse(db, t, GRADEBOOK_STUDENTS, GRADEBOOK_ITEMS, true);
      await fill(db, t, size - GRADEBOOK_STUDENTS);
      const headers = {
        host: `${t.slug}.${config.baseDomain}`,
        authorization: `Bearer ${await makeKey(db, t, SCOPES)}`,
      };
      targets.push({ size, headers, courseId: course.courseId });
      large = { t, headers, course };
      log(
        `(r) gradebook: seeded ${size} enrollments in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    await analyze(db, "users", "enrollments", "grade_items", "grades", "course_grades");

    // (r1) the page, interleaved.
    const elapsed = new Map<number, number>();
    for (let r = 0; r <= GRADEBOOK_ROUNDS; r++) {
      for (const target of targets) {
        const t0 = performance.now();
        for (let i = 0; i < GRADEBOOK_REQUESTS; i++) {
          const res = await send(
            "GET",
            `/api/institution/courses/${target.courseId}/gradebook?perPage=100`,
            target.headers,
          );
          const page = (await res.body.json()) as { data?: { grades: Record<string, unknown> }[] };
          if (res.status !== 200) problems.push(`gradebook page at ${target.size}: ${res.status}`);
          else if (page.data?.length !== GRADEBOOK_STUDENTS)
            problems.push(`gradebook page: ${page.data?.length} rows`);
          else if (Object.keys(page.data[0]?.grades ?? {}).length !== GRADEBOOK_ITEMS) {
            problems.push(`gradebook row: ${Object.keys(page.data[0]?.grades ?? {}).length} grades`);
          }
        }
        if (r > 0) elapsed.set(target.size, (elapsed.get(target.size) ?? 0) + performance.now() - t0);
      }
    }
    const rps: Record<string, number> = {};
    for (const [size, ms] of elapsed)
      rps[size] = Math.round((GRADEBOOK_REQUESTS * GRADEBOOK_ROUNDS * 1000) / ms);
    const ratio = round((rps[sizes.large] ?? 0) / (rps[sizes.small] ?? 1));
    log(`(r1) gradebook page: ${JSON.stringify(rps)} req/s, ratio ${ratio}`);

    // (r2) bulk of 1,000 new grades, each on a fresh course of the large tenant.
    const { t, headers, course } = large!;
    const seconds: number[] = [];
    let statements = 0;
    for (let r = 0; r <= BULK_REPEATS; r++) {
      const fresh = await gradedCourse(db, t, BULK_STUDENTS, GRADEBOOK_ITEMS, false);
      const items = fresh.userIds.flatMap((userId, u) =>
        fresh.itemIds.map((gradeItemId, i) => ({ gradeItemId, userId, score: (u + i) % 11 })),
      );
      let status = 0;
      let created = 0;
      const t0 = performance.now();
      const captured = await countStatements(async () => {
        const res = await send("POST", `/api/institution/courses/${fresh.courseId}/grades/bulk`, headers, {
          items,
        });
        status = res.status;
        const body = (await res.body.json()) as { results?: { status: string }[] };
        created = body.results?.filter((x) => x.status === "created").length ?? 0;
      });
      const took = (performance.now() - t0) / 1000;
      if (status !== 200 && status !== 201) problems.push(`bulk: ${status}`);
      if (created !== items.length) problems.push(`bulk: ${created} of ${items.length} created`);
      if (r > 0) seconds.push(round(took, 3));
      statements = captured;
    }
    // Seconds to the millisecond: summarise rounds to two decimals of its unit.
    const medianSeconds = summarise(seconds.map((x) => x * 1000)).p50 / 1000;
    log(
      `(r2) bulk of ${BULK_STUDENTS * GRADEBOOK_ITEMS} grades: median ${medianSeconds} s, ${statements} statements`,
    );

    // (r3) one grade write at a time.
    const latencies: number[] = [];
    for (let i = 0; i < WRITE_REQUESTS + 20; i++) {
      const userId = course.userIds[i % course.userIds.length] as string;
      const itemId = course.itemIds[(i * 7) % course.itemIds.length] as string;
      const score = (i % 20) / 2;
      const t0 = performance.now();
      const res = await send("PUT", `/api/institution/grade-items/${itemId}/grades/${userId}`, headers, {
        score,
      });
      const body = (await res.body.json()) as { score?: number };
      if (i >= 20) latencies.push(performance.now() - t0);
      if (res.status !== 200 && res.status !== 201) problems.push(`write: ${res.status}`);
      else if (body.score !== score) problems.push(`write: score ${body.score} for ${score}`);
    }
    const { p50, p99 } = summarise(latencies);
    const write = { requests: WRITE_REQUESTS, p50Ms: p50, p99Ms: p99 };
    log(`(r3) one grade write: p50 ${write.p50Ms} ms, p99 ${write.p99Ms} ms`);

    const pdf = await measurePdfs(db, config, send, problems, log);
    return {
      page: { sizes: [sizes.small, sizes.large], rps, ratio },
      bulk: { items: BULK_STUDENTS * GRADEBOOK_ITEMS, seconds, medianSeconds, statements },
      write,
      pdf,
      problems: [...new Set(problems)],
    };
  } finally {
    await app.close();
  }
}

type Send = (
  method: "GET" | "PUT" | "POST",
  path: string,
  headers: object,
  body?: unknown,
) => Promise<{ status: number; body: { json(): Promise<unknown>; arrayBuffer(): Promise<ArrayBuffer> } }>;

/** (r4) CERTIFICATES issued through the API in a tenant of their own, then their PDFs rendered on request. */
async function measurePdfs(
  db: Db,
  config: Config,
  send: Send,
  problems: string[],
  log: (line: string) => void,
) {
  const t = await makeTenant(db, config.plans, "certificates", "bench certificates administrator");
  const headers = {
    host: `${t.slug}.${config.baseDomain}`,
    authorization: `Bearer ${await makeKey(db, t, ["courses:read", "courses:write"])}`,
  };
  const course = await gradedCourse(db, t, CERTIFICATES, 0, false);
  const template = await send("POST", "/api/institution/certificate-templates", headers, {
    name: "Conclusão",
    layout: {
      title: "Certificado de conclusão",
      body: "Certificamos que {{student.name}} concluiu o curso {{course.title}} em {{issuedAt}}.",
      footer: "Código de verificação: {{serial}}",
      locale: "pt-BR",
    },
  });
  const templateId = ((await template.body.json()) as { id: string }).id;
  const ids: string[] = [];
  for (const userId of course.userIds) {
    const res = await send("POST", "/api/institution/certificates", headers, {
      templateId,
      userId,
      courseId: course.courseId,
    });
    const body = (await res.body.json()) as { id?: string };
    if (res.status !== 201 || body.id === undefined) problems.push(`certificate: ${res.status}`);
    else ids.push(body.id);
  }
  const sizes: number[] = [];
  let next = 0;
  const render = async () => {
    while (next < PDF_REQUESTS + PDF_CONCURRENCY) {
      const n = next++;
      const res = await send("GET", `/api/institution/certificates/${ids[n % ids.length]}/pdf`, headers);
      const bytes = Buffer.from(await res.body.arrayBuffer());
      if (res.status !== 200 || bytes.subarray(0, 5).toString() !== "%PDF-")
        problems.push(`pdf: ${res.status}`);
      sizes.push(bytes.length);
    }
  };
  // One unmeasured pass starts the render pool's threads and loads the fonts.
  await send("GET", `/api/institution/certificates/${ids[0]}/pdf`, headers).then((r) => r.body.arrayBuffer());
  const t0 = performance.now();
  await Promise.all(Array.from({ length: PDF_CONCURRENCY }, render));
  const perSecond = round(((PDF_REQUESTS + PDF_CONCURRENCY) * 1000) / (performance.now() - t0), 1);
  log(`(r4) certificate PDFs: ${perSecond}/s at ${PDF_CONCURRENCY} in flight`);
  return {
    requests: PDF_REQUESTS,
    concurrency: PDF_CONCURRENCY,
    perSecond,
    bytesMedian: summarise(sizes).p50,
  };
}
