import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { TOTAL_CAP } from "../../platform/pagination/capped.js";
import { useApi } from "../../test-support/api.js";
import { bearer, makeKey } from "../../test-support/harness.js";
import { captureStatements, expectFlatPlan, explainPlan, type Statement } from "../../test-support/plans.js";

/**
 * Lists at a large size: the page and total statements each request runs, explained as they ran, read an index
 * in the list's order (or the few matches of a search), never the whole tenant. 50,000 users (and courses) is
 * far past the size where PostgreSQL would rather scan a table than walk an index that did not fit the query.
 */

const SIZE = 50_000;
const RARE = 7;

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;

async function seed(): Promise<void> {
  const db = h.database.db;
  // One statement per table; names and e-mails share a common word ("member"), a few carry a rare one.
  await db.execute(sql`
    INSERT INTO users (tenant_id, name, email, role, status, created_at)
    SELECT ${t.id}::uuid,
           CASE WHEN i <= ${RARE} THEN 'Quixotic Member ' || i ELSE 'Member ' || i END,
           'member' || i || '@big.test', 'student', 'active',
           timestamptz '2024-01-01' + i * interval '1 minute'
    FROM generate_series(1, ${SIZE}) AS i`);
  const [field] = (
    (await db.execute(sql`
      INSERT INTO profile_fields (tenant_id, key, label, type, position)
      VALUES (${t.id}::uuid, 'campus', 'Campus', 'text', 1) RETURNING id`)) as unknown as {
      rows: { id: string }[];
    }
  ).rows;
  // Almost everyone is on the main campus; a handful on the north one.
  await db.execute(sql`
    INSERT INTO user_profile_values (tenant_id, user_id, field_id, value, match_key)
    SELECT u.tenant_id, u.id, ${field?.id}::uuid, to_jsonb(c.v), c.v
    FROM users u, LATERAL (SELECT CASE WHEN u.name LIKE 'Quixotic%' THEN 'north' ELSE 'main' END AS v) c
    WHERE u.tenant_id = ${t.id}::uuid`);
  await db.execute(sql`
    INSERT INTO courses (tenant_id, title, status, created_at)
    SELECT ${t.id}::uuid,
           CASE WHEN i <= ${RARE} THEN 'Quixotic Course ' || i ELSE 'Course ' || i END,
           'published', timestamptz '2024-01-01' + i * interval '1 minute'
    FROM generate_series(1, ${SIZE}) AS i`);
  await db.execute(sql`ANALYZE users`);
  await db.execute(sql`ANALYZE user_profile_values`);
  await db.execute(sql`ANALYZE courses`);
}

beforeAll(async () => {
  key = await makeKey(h, t, ["users:read", "courses:read"]);
  await seed();
}, 240_000);

/** The statements one GET ran that read `table`, each with its parameters. */
async function request(url: string, table: string) {
  let body: { data: unknown[]; pagination: Record<string, unknown> } | undefined;
  const statements = await captureStatements(h, async () => {
    const res = await h.inject({
      method: "GET",
      url: `/api/institution${url}`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect(res.statusCode, res.body).toBe(200);
    body = res.json();
  });
  const reading = statements.filter((s) => new RegExp(`from "(${table})"`, "i").test(s.sql));
  return { body: body as NonNullable<typeof body>, reading };
}

const isCount = (s: Statement) => /count\(\*\)/i.test(s.sql);

/** The page statement and, when the total was counted rather than read from a counter, the count statement. */
function split(reading: Statement[]) {
  const page = reading.filter((s) => !isCount(s));
  const count = reading.filter(isCount);
  expect(page).toHaveLength(1);
  return { page: page[0] as Statement, count: count[0] };
}

const TABLES = ["users", "user_profile_values", "courses"];
/** A rare term's matches may be sorted for the page (and collected for the count): a few, not the tenant. */
const FEW = { allowTopN: 1_000 };

describe("users list plans at 50,000 users", () => {
  it("default order: the page walks users_tenant_created_idx, the total is the counter, both plans", async () => {
    const { body, reading } = await request("/users?perPage=100", "users");
    expect(body.pagination).toEqual({
      page: 1,
      perPage: 100,
      total: SIZE + 1, // the tenant's administrator too
      totalPages: Math.ceil((SIZE + 1) / 100),
      totalRelation: "eq",
    });
    const { page, count } = split(reading);
    expect(count).toBeUndefined();
    const custom = await explainPlan(h, page.sql, page.params);
    expectFlatPlan(custom, TABLES);
    expect(JSON.stringify(custom)).toContain("users_tenant_created_idx");
    // A named statement switches to its generic plan after five runs: that one is flat too.
    expectFlatPlan(await explainPlan(h, page.sql, page.params, { generic: true }), TABLES);
  });

  it("a rare search term: exact total; the page sorts only the trigram index's matches", async () => {
    const { body, reading } = await request("/users?search=quixotic", "users");
    expect(body.pagination).toMatchObject({ total: RARE, totalRelation: "eq" });
    expect(body.data).toHaveLength(RARE);
    const { page, count } = split(reading);
    const pagePlan = await explainPlan(h, page.sql, page.params);
    expectFlatPlan(pagePlan, TABLES, FEW);
    expect(JSON.stringify(pagePlan)).toContain("users_search_idx");
    expectFlatPlan(await explainPlan(h, (count as Statement).sql, (count as Statement).params), TABLES, FEW);
  });

  it("a search every user matches: the total stops at the cap and says so; neither statement scans", async () => {
    const { body, reading } = await request("/users?search=member&perPage=20", "users");
    expect(body.pagination).toEqual({
      page: 1,
      perPage: 20,
      total: TOTAL_CAP,
      totalPages: TOTAL_CAP / 20,
      totalRelation: "gte",
    });
    expect(body.data).toHaveLength(20);
    const { page, count } = split(reading);
    expectFlatPlan(await explainPlan(h, page.sql, page.params), TABLES);
    expectFlatPlan(await explainPlan(h, (count as Statement).sql, (count as Statement).params), TABLES);
  });

  it("profile filters, rare and common: exact totals from the value's counter, no scan of users or their values", async () => {
    // One value of one field: its holders' counter (migration 0057), so no statement counts.
    const tables = "users|user_profile_values";
    const north = await request("/users?profile.campus=north", tables);
    expect(north.body.pagination).toMatchObject({ total: RARE, totalRelation: "eq" });
    const main = await request("/users?profile.campus=main&perPage=100", tables);
    // Everyone else, the tenant's administrator included.
    expect(main.body.pagination).toMatchObject({ total: SIZE + 1 - RARE, totalRelation: "eq" });
    for (const { reading } of [north, main]) {
      const { page, count } = split(reading);
      expect(count, "no statement counts the holders").toBeUndefined();
      expectFlatPlan(await explainPlan(h, page.sql, page.params), TABLES, FEW);
    }
  });
});

describe("courses list plans at 50,000 courses (the helper on a list already flat)", () => {
  it("default order and a rare search read indexes only", async () => {
    const all = await request("/courses?perPage=100", "courses");
    expect(all.body.pagination).toMatchObject({ total: SIZE });
    const { page } = split(all.reading);
    expectFlatPlan(await explainPlan(h, page.sql, page.params), TABLES);
    expectFlatPlan(await explainPlan(h, page.sql, page.params, { generic: true }), TABLES);

    const search = await request("/courses?search=quixotic", "courses");
    expect(search.body.pagination).toMatchObject({ total: RARE, totalRelation: "eq" });
    const found = split(search.reading);
    expectFlatPlan(await explainPlan(h, found.page.sql, found.page.params), TABLES, FEW);
    // The capped count walks the default order up to the cap: for a rare term, the few matches the trigram
    // index found, sorted (as the users search above).
    const count = found.count as Statement;
    expectFlatPlan(await explainPlan(h, count.sql, count.params), TABLES, FEW);

    // A term every course matches: the count walks the default order's index and stops at the cap.
    const common = await request("/courses?search=course&perPage=100", "courses");
    expect(common.body.pagination).toMatchObject({ total: TOTAL_CAP, totalRelation: "gte" });
    const many = split(common.reading);
    expectFlatPlan(await explainPlan(h, many.page.sql, many.page.params), TABLES);
    const capped = many.count as Statement;
    expectFlatPlan(await explainPlan(h, capped.sql, capped.params), TABLES);
  });
});
