import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { COURSES, GROUPS, numbered, seedAudience } from "../../test-support/audience-seed.js";
import { bearer, makeKey, type SignedInUser, signedInUser } from "../../test-support/harness.js";
import {
  captureStatements,
  expectFlatPlan,
  explainPlan,
  rowsRead,
  type Statement,
} from "../../test-support/plans.js";

/**
 * The drive's top level (`root`) at 50,000 folders and 50,000 files in no folder. Staff page through the folders
 * by name, then the files; a student reads the folders shared with it alone: the institution's and those of its
 * courses and groups, a few hundred. Each of those audiences is walked in the list's order and the walks are
 * merged, so a student's page reads about its rows and sorts nothing, rather than the top level until enough of
 * it turns out to be its own. Every total is read from the drive's counters.
 */

const SIZE = 50_000;
/** What a student's page may read of drive_folders: a page and one row per audience, not the top level's 50,000. */
const READ_BOUND = 500;
const TABLES = ["drive_folders", "media", "enrollments", "class_group_members"];

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;
let student: SignedInUser;

/** Accented and cased names, so the order is the folded one (É sorts with e); numbers padded for any collation. */
const name = (prefix: string) =>
  sql.raw(`CASE WHEN i % 2 = 0 THEN 'É${prefix} ' ELSE 'e${prefix} ' END || lpad(i::text, 5, '0')`);

async function seed(): Promise<void> {
  const db = h.database.db;
  await seedAudience(db, t, student.id);
  await db.execute(sql`
    WITH ${numbered(t.id)}
    INSERT INTO drive_folders (tenant_id, name, scope, course_id, class_id)
    -- One folder in 2,500 is the institution's (20); the others a course's (two in three) or a group's.
    SELECT ${t.id}::uuid, ${name("nfase")},
           CASE WHEN i % 2500 = 0 THEN 'institution' WHEN i % 3 <> 0 THEN 'course' ELSE 'class' END,
           CASE WHEN i % 2500 <> 0 AND i % 3 <> 0 THEN c.id END, CASE WHEN i % 2500 <> 0 AND i % 3 = 0 THEN g.id END
    FROM generate_series(1, ${SIZE}) AS i JOIN c ON c.n = i % ${COURSES} JOIN g ON g.n = i % ${GROUPS}`);
  await db.execute(sql`
    INSERT INTO media (tenant_id, kind, filename, content_type, size_bytes, status, storage, storage_key,
                       upload_expires_at)
    SELECT ${t.id}::uuid, 'document', ${name("rvore")} || '.pdf', 'application/pdf', 1000, 'ready', 'local',
           'plans/' || i, now() + interval '1 hour'
    FROM generate_series(1, ${SIZE}) AS i`);
  for (const table of [...TABLES, "users", "courses", "class_groups"])
    await db.execute(sql.raw(`ANALYZE ${table}`));
}

beforeAll(async () => {
  key = await makeKey(h, t, ["drive:read"]);
  student = await signedInUser(h, t, "student");
  await seed();
}, 240_000);

/** The top-level folders a student may read, by the rule a single folder's read applies, in the list's order. */
async function readable(): Promise<string[]> {
  const result = (await h.database.db.execute(sql`
    SELECT f.id FROM drive_folders f
    WHERE f.tenant_id = ${t.id}::uuid AND f.parent_id IS NULL
      AND (f.scope = 'institution'
        OR f.course_id IN (SELECT course_id FROM enrollments WHERE tenant_id = ${t.id}::uuid
                           AND user_id = ${student.id}::uuid AND status IN ('active', 'completed'))
        OR f.class_id IN (SELECT class_group_id FROM class_group_members
                          WHERE tenant_id = ${t.id}::uuid AND user_id = ${student.id}::uuid))
    ORDER BY aula_fold(f.name), f.id`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}

type Page = { data: { type: string; id: string; name: string }[]; pagination: Record<string, unknown> };

async function top(query: string, auth: Record<string, string>) {
  let body: Page | undefined;
  const statements = await captureStatements(h, async () => {
    const res = await h.inject({
      method: "GET",
      url: `/api/institution/drive/folders/root/children${query}`,
      headers: { host: t.host, ...auth },
    });
    expect(res.statusCode, res.body).toBe(200);
    body = res.json();
  });
  const reading = statements.filter((s) =>
    TABLES.some((table) => new RegExp(`from "${table}"`, "i").test(s.sql)),
  );
  // The totals came from counters: no statement counts a table that grows.
  expect(reading.filter((s) => /count\(/i.test(s.sql)).map((s) => s.sql)).toEqual([]);
  const pageOf = (table: string) => reading.filter((s) => new RegExp(`from "${table}"`, "i").test(s.sql));
  return { body: body as Page, folders: pageOf("drive_folders"), files: pageOf("media") };
}

/** Flat (no scan, no sort), and, run, reading at most `bound` rows of `table`. */
async function expectBounded(statement: Statement | undefined, table: string, bound: number) {
  expect(statement).toBeDefined();
  const { sql: text, params } = statement as Statement;
  const plan = await explainPlan(h, text, params, { analyze: true });
  expectFlatPlan(plan, TABLES);
  expect(rowsRead(plan, table), JSON.stringify(plan, null, 1)).toBeLessThanOrEqual(bound);
}

describe("drive top-level plans at 50,000 folders and 50,000 files in no folder", () => {
  it("staff: the folders by folded name, then the files in no folder; totals from the counters", async () => {
    const first = await top("?perPage=100", bearer(key));
    expect(first.body.pagination).toEqual({ page: 1, perPage: 100, total: 2 * SIZE, totalPages: 1_000 });
    expect(first.body.data.slice(0, 2).map((e) => e.name)).toEqual(["enfase 00001", "Énfase 00002"]);
    expect(first.body.data.every((e) => e.type === "folder")).toBe(true);
    expect(first.files).toEqual([]);
    await expectBounded(first.folders[0], "drive_folders", 500);

    // Past the folders: the files in no folder, from the start of their own walk.
    const files = await top(`?page=${SIZE / 100 + 1}&perPage=100`, bearer(key));
    expect(files.body.data.slice(0, 2).map((e) => e.name)).toEqual(["ervore 00001.pdf", "Érvore 00002.pdf"]);
    expect(files.body.data.every((e) => e.type === "file")).toBe(true);
    expect(files.folders).toEqual([]);
    await expectBounded(files.files[0], "media", 500);
  });

  it("a student: the folders shared with it, in order, its audiences' walks merged; the total from the counters", async () => {
    const want = await readable();
    expect(want.length).toBeGreaterThan(300);
    expect(want.length).toBeLessThan(400);
    const auth = { cookie: student.cookie };
    for (const page of [1, 3]) {
      const got = await top(`?page=${page}&perPage=100`, auth);
      expect(got.body.pagination).toEqual({
        page,
        perPage: 100,
        total: want.length,
        totalPages: Math.ceil(want.length / 100),
      });
      expect(got.body.data.map((e) => e.id)).toEqual(want.slice((page - 1) * 100, page * 100));
      expect(got.files).toEqual([]);
      expect(got.folders).toHaveLength(1);
      await expectBounded(got.folders[0], "drive_folders", READ_BOUND);
    }
  });
});
