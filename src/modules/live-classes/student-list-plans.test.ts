import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { COURSES, GROUPS, numbered, seedAudience } from "../../test-support/audience-seed.js";
import { type SignedInUser, signedInUser } from "../../test-support/harness.js";
import {
  captureStatements,
  expectFlatPlan,
  explainPlan,
  rowsRead,
  type Statement,
} from "../../test-support/plans.js";

/**
 * The live classes list as a student sees it, at 50,000 classes in one tenant: only the classes of its audience
 * (its courses, its class groups, the classes it is invited to or co-hosts), a few hundred. Each part of that
 * audience is walked in the list's order and stops at the page, so the page and its capped total read about
 * what the student may see, not the tenant's classes until enough of them turn out to be the student's.
 */

const SIZE = 50_000;
/** What a statement may read of live_classes: the student's ~400 classes and a page, not the tenant's 50,000. */
const READ_BOUND = 1_000;
/**
 * The page merges the audience's parts, each cut to `offset + perPage` rows, and sorts them: a few hundred rows,
 * not the tenant. The planner's estimate of that union varies with the sample ANALYZE took (1,101 rows for page
 * 3's 407 in one run on Node 24), so the bound allows what the parts may bring on page 3: at most 300 rows each
 * (a part per course and class group of the student's).
 */
const MERGE = { allowTopN: 1_500 };

const TABLES = [
  "live_classes",
  "live_class_occurrences",
  "video_providers",
  "enrollments",
  "class_group_members",
];

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let student: SignedInUser;

async function seed(): Promise<void> {
  const db = h.database.db;
  await seedAudience(db, t, student.id);
  // Class i follows course i mod 500 (100 classes each); one in four also belongs to group i mod 250, so group 9
  // holds course 9's classes again (the list shows them once) and group 101 course 101's. Start times in another
  // order than creation times, so each sort needs its own walk; a few classes invite the student or make it a
  // co-host. The student's audience: courses 9 to 11, group 101, 5 invitations and 2 co-hostings, 407 classes.
  await db.execute(sql`
    WITH ${numbered(t.id)}
    INSERT INTO live_classes (tenant_id, title, host_user_id, course_id, class_group_id, co_host_ids, invitee_ids,
                              starts_at, duration_minutes, timezone, room_secret, status, created_at)
    SELECT ${t.id}::uuid, 'Aula ' || i, ${t.adminUserId}::uuid, c.id, CASE WHEN i % 4 = 1 THEN g.id END,
           CASE WHEN i % 25000 = 13 THEN ARRAY[${student.id}::uuid] ELSE '{}'::uuid[] END,
           CASE WHEN i % 10000 = 3 THEN ARRAY[${student.id}::uuid] ELSE '{}'::uuid[] END,
           timestamptz '2027-01-01' + ((i * 7919) % ${SIZE}) * interval '1 hour', 60, 'America/Sao_Paulo',
           md5(i::text), CASE WHEN i % 10 = 0 THEN 'canceled' ELSE 'scheduled' END,
           timestamptz '2024-01-01' + i * interval '1 minute'
    FROM generate_series(1, ${SIZE}) AS i
    JOIN c ON c.n = i % ${COURSES} JOIN g ON g.n = i % ${GROUPS}`);
  await db.execute(sql`
    INSERT INTO live_class_occurrences (tenant_id, live_class_id, starts_at, ends_at)
    SELECT c.tenant_id, c.id, c.starts_at + w * interval '7 days', c.starts_at + w * interval '7 days' + interval '1 hour'
    FROM live_classes c, generate_series(0, 1) AS w WHERE c.tenant_id = ${t.id}::uuid`);
  // Not video_providers: empty here, and analysed empty, a sequential scan of it is what any plan would choose.
  for (const table of [
    ...TABLES.filter((name) => name !== "video_providers"),
    "users",
    "courses",
    "class_groups",
  ]) {
    await db.execute(sql.raw(`ANALYZE ${table}`));
  }
}

beforeAll(async () => {
  student = await signedInUser(h, t, "student");
  await seed();
}, 240_000);

const ORDER: Record<string, string> = {
  startsAt: "starts_at, id",
  "-startsAt": "starts_at DESC, id DESC",
  createdAt: "created_at, id",
  "-createdAt": "created_at DESC, id DESC",
};

/** What the student may see, by the audience rule written plainly (the one a single class's read applies). */
async function expected(sort: string, status?: string): Promise<{ ids: string[]; total: number }> {
  const result = (await h.database.db.execute(sql`
    SELECT c.id FROM live_classes c
    WHERE c.tenant_id = ${t.id}::uuid ${status === undefined ? sql`` : sql`AND c.status = ${status}`}
      AND (c.host_user_id = ${student.id}::uuid OR ${student.id}::uuid = ANY (c.co_host_ids)
        OR ${student.id}::uuid = ANY (c.invitee_ids)
        OR c.course_id IN (SELECT course_id FROM enrollments WHERE tenant_id = ${t.id}::uuid
                           AND user_id = ${student.id}::uuid AND status IN ('active', 'completed'))
        OR c.class_group_id IN (SELECT class_group_id FROM class_group_members
                                WHERE tenant_id = ${t.id}::uuid AND user_id = ${student.id}::uuid))
    ORDER BY ${sql.raw(ORDER[sort] as string)}`)) as unknown as { rows: { id: string }[] };
  return { ids: result.rows.map((r) => r.id), total: result.rows.length };
}

type Page = { data: { id: string }[]; pagination: Record<string, unknown> };

async function list(query: string) {
  let body: Page | undefined;
  const statements = await captureStatements(h, async () => {
    const res = await h.inject({
      method: "GET",
      url: `/api/institution/live-classes${query}`,
      headers: { host: t.host, cookie: student.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    body = res.json();
  });
  const reading = statements.filter((s) => /from "?live_classes"?/i.test(s.sql));
  const related = reading.filter((s) => /inner join lateral|"video_providers"/i.test(s.sql));
  const count = reading.filter((s) => !related.includes(s) && /count\(\*\)/i.test(s.sql));
  const page = reading.filter((s) => !related.includes(s) && !count.includes(s));
  expect(page, JSON.stringify(reading.map((s) => s.sql))).toHaveLength(1);
  expect(count).toHaveLength(1);
  return { body: body as Page, page: page[0] as Statement, count: count[0] as Statement, related };
}

/** Flat, and, run, reading about the student's classes of live_classes. */
async function expectBounded(statement: Statement) {
  const plan = await explainPlan(h, statement.sql, statement.params, { analyze: true });
  expectFlatPlan(plan, TABLES, MERGE);
  expect(rowsRead(plan, "live_classes"), JSON.stringify(plan, null, 1)).toBeLessThanOrEqual(READ_BOUND);
}

describe("live classes list plans for a student, at 50,000 classes", () => {
  for (const sort of Object.keys(ORDER)) {
    it(`sort=${sort}: the student's classes in order; page and total read its audience, not the tenant`, async () => {
      const want = await expected(sort);
      expect(want.total).toBe(407);
      const { body, page, count, related } = await list(`?sort=${sort}&perPage=100`);
      expect(body.data.map((c) => c.id)).toEqual(want.ids.slice(0, 100));
      expect(body.pagination).toEqual({
        page: 1,
        perPage: 100,
        total: want.total,
        totalPages: 5,
        totalRelation: "eq",
      });
      await expectBounded(page);
      await expectBounded(count);
      for (const statement of related) await expectBounded(statement);
    });
  }

  it("a later page and a status filter: still the audience's rows alone", async () => {
    const later = await list("?page=3&perPage=100");
    expect(later.body.data.map((c) => c.id)).toEqual((await expected("startsAt")).ids.slice(200, 300));
    await expectBounded(later.page);

    const canceled = await expected("-startsAt", "canceled");
    const filtered = await list("?status=canceled&sort=-startsAt&perPage=20");
    expect(filtered.body.data.map((c) => c.id)).toEqual(canceled.ids.slice(0, 20));
    expect(filtered.body.pagination).toMatchObject({ total: canceled.total, totalRelation: "eq" });
    await expectBounded(filtered.page);
    await expectBounded(filtered.count);
  });
});
