import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { bearer, makeKey, roleCookie } from "../../test-support/harness.js";
import {
  captureStatements,
  expectFlatPlan,
  explainPlan,
  rowsRead,
  type Statement,
} from "../../test-support/plans.js";

/**
 * A folder's children at a large size: 50,000 files in one folder and 50,000 folders at the top level. Each part
 * of a page (the folders, then the files) walks an index in the list's order (folded name, id) and the total is
 * read from the drive's counters: no statement reads a folder from end to end, folds and sorts it, or counts it.
 */

const SIZE = 50_000;
const SUBFOLDERS = 3;

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;
let student: string;
let big: string;

async function seed(): Promise<void> {
  const db = h.database.db;
  const [folder] = (
    (await db.execute(sql`
      INSERT INTO drive_folders (tenant_id, name) VALUES (${t.id}::uuid, 'Big') RETURNING id`)) as unknown as {
      rows: { id: string }[];
    }
  ).rows;
  big = folder?.id as string;
  await db.execute(sql`
    INSERT INTO drive_folders (tenant_id, name, parent_id)
    SELECT ${t.id}::uuid, 'Week ' || i, ${big}::uuid FROM generate_series(1, ${SUBFOLDERS}) AS i`);
  // Accented and cased names, so the order is the folded one (É sorts with e), not the bytes'; numbers padded
  // so that it is the same in any collation.
  await db.execute(sql`
    INSERT INTO drive_folders (tenant_id, name)
    SELECT ${t.id}::uuid, CASE WHEN i % 2 = 0 THEN 'Énfase ' ELSE 'enfase ' END || lpad(i::text, 5, '0')
    FROM generate_series(1, ${SIZE}) AS i`);
  await db.execute(sql`
    INSERT INTO media (tenant_id, kind, filename, content_type, size_bytes, status, storage, storage_key,
                       folder_id, upload_expires_at)
    SELECT ${t.id}::uuid, 'document', CASE WHEN i % 2 = 0 THEN 'Árvore ' ELSE 'arvore ' END || lpad(i::text, 5, '0') || '.pdf',
           'application/pdf', 1000, CASE WHEN i % 100 = 0 THEN 'pending_upload' ELSE 'ready' END, 'local',
           'plans/' || i, ${big}::uuid, now() + interval '1 hour'
    FROM generate_series(1, ${SIZE}) AS i`);
  await db.execute(sql`ANALYZE drive_folders`);
  await db.execute(sql`ANALYZE media`);
}

beforeAll(async () => {
  key = await makeKey(h, t, ["drive:read"]);
  student = await roleCookie(h, t, "student");
  await seed();
}, 240_000);

type Page = { data: { type: string; name: string }[]; pagination: Record<string, unknown> };

/** One GET of a folder's children, and the statements it ran. */
async function children(id: string, query: string, auth: Record<string, string> = bearer(key)) {
  let body: Page | undefined;
  const statements = await captureStatements(h, async () => {
    const res = await h.inject({
      method: "GET",
      url: `/api/institution/drive/folders/${id}/children${query}`,
      headers: { host: t.host, ...auth },
    });
    expect(res.statusCode, res.body).toBe(200);
    body = res.json();
  });
  return { body: body as Page, statements };
}

const TABLES = ["drive_folders", "media"];
const reads = (table: string) => (s: Statement) => new RegExp(`from "${table}"`, "i").test(s.sql);
const pageOf = (statements: Statement[], table: string) =>
  statements.filter((s) => reads(table)(s) && /order by/i.test(s.sql));

/** Neither table is counted: the totals came from counters. */
function expectNoCount(statements: Statement[]) {
  const counts = statements.filter((s) => /count\(/i.test(s.sql) && TABLES.some((t) => reads(t)(s)));
  expect(counts.map((s) => s.sql)).toEqual([]);
}

/**
 * Flat: no scan or sort of the tenant, and the statement, run, reads at most a few pages' rows. `index` is the
 * folder's own index; with every file of the tenant in this one folder, the tenant's index in the same name
 * order (media_tenant_filename_idx, for the media list) serves it as well, so either may be chosen.
 */
async function expectFlat(statement: Statement | undefined, index: string) {
  expect(statement).toBeDefined();
  const { sql: text, params } = statement as Statement;
  const plan = await explainPlan(h, text, params, { analyze: true });
  expectFlatPlan(plan, TABLES);
  const table = index.startsWith("media") ? "media" : "drive_folders";
  expect(JSON.stringify(plan)).toMatch(new RegExp(`${index}|media_tenant_filename_idx`));
  expect(rowsRead(plan, table), JSON.stringify(plan, null, 1)).toBeLessThanOrEqual(500);
  expectFlatPlan(await explainPlan(h, text, params, { generic: true }), TABLES);
}

describe("drive children plans at 50,000 files in a folder and 50,000 folders at the top level", () => {
  it("a large folder: its sub-folders, then its files by folded name; exact total from the counters", async () => {
    const { body, statements } = await children(big, "?perPage=20");
    expect(body.pagination).toEqual({ page: 1, perPage: 20, total: SIZE + SUBFOLDERS, totalPages: 2501 });
    expect(body.data.map((e) => e.name)).toEqual([
      "Week 1",
      "Week 2",
      "Week 3",
      ...Array.from({ length: 17 }, (_, k) => {
        const i = k + 1;
        return `${i % 2 === 0 ? "Árvore" : "arvore"} ${String(i).padStart(5, "0")}.pdf`;
      }),
    ]);
    expectNoCount(statements);
    const [folders] = pageOf(statements, "drive_folders");
    const [files] = pageOf(statements, "media");
    await expectFlat(folders, "drive_folders_children_idx");
    await expectFlat(files, "media_folder_children_idx");
  });

  it("a page past the sub-folders reads the files only, still walking their index", async () => {
    const { body, statements } = await children(big, "?page=3&perPage=100");
    expect(body.data).toHaveLength(100);
    expect(body.data.every((e) => e.type === "file")).toBe(true);
    expect(pageOf(statements, "drive_folders")).toEqual([]);
    await expectFlat(pageOf(statements, "media")[0], "media_folder_children_idx");
  });

  it("the top level: 50,001 folders walked by name, none counted", async () => {
    const { body, statements } = await children("root", "?perPage=100");
    expect(body.pagination).toEqual({ page: 1, perPage: 100, total: SIZE + 1, totalPages: 501 });
    expect(body.data[0]?.name).toBe("Big");
    expect(body.data.slice(1, 3).map((e) => e.name)).toEqual(["enfase 00001", "Énfase 00002"]);
    expectNoCount(statements);
    await expectFlat(pageOf(statements, "drive_folders")[0], "drive_folders_children_idx");
  });

  it("a student: the ready files of a large folder and the top level shared with it, totals from counters", async () => {
    const auth = { cookie: student };
    const inside = await children(big, "?perPage=100", auth);
    const ready = SIZE - SIZE / 100;
    expect(inside.body.pagination).toMatchObject({ total: SUBFOLDERS + ready });
    expectNoCount(inside.statements);
    await expectFlat(pageOf(inside.statements, "media")[0], "media_folder_children_idx");

    // A student's top level walks each of its audiences (here the institution's alone) in its own index.
    const top = await children("root", "?perPage=100", auth);
    expect(top.body.pagination).toMatchObject({ total: SIZE + 1 });
    expectNoCount(top.statements);
    await expectFlat(pageOf(top.statements, "drive_folders")[0], "drive_folders_audience_roots_idx");
  });
});
