import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { TOTAL_CAP } from "../../platform/pagination/capped.js";
import { useApi } from "../../test-support/api.js";
import { bearer, makeKey } from "../../test-support/harness.js";
import { captureStatements, expectFlatPlan, explainPlan, type Statement } from "../../test-support/plans.js";

/**
 * The live classes list at 50,000 classes in one tenant: for each sort it offers, the page statement walks an
 * index in that order and stops at the page, the provider and occurrence count are read for the page's classes
 * only, and the total is a counter (or, for a filter no counter answers, a count that stops at the cap).
 */

const SIZE = 50_000;
const CANCELED = SIZE / 10;

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;

async function seed(): Promise<void> {
  const db = h.database.db;
  // Start times in another order than creation times, so each sort needs its own index.
  await db.execute(sql`
    INSERT INTO live_classes (tenant_id, title, host_user_id, starts_at, duration_minutes, timezone, room_secret,
                              status, created_at)
    SELECT ${t.id}::uuid, 'Aula ' || i, ${t.adminUserId}::uuid,
           timestamptz '2027-01-01' + ((i * 7919) % ${SIZE}) * interval '1 hour', 60, 'America/Sao_Paulo',
           md5(i::text), CASE WHEN i % 10 = 0 THEN 'canceled' ELSE 'scheduled' END,
           timestamptz '2024-01-01' + i * interval '1 minute'
    FROM generate_series(1, ${SIZE}) AS i`);
  // Two occurrences per class, as a weekly class has: what the occurrence count and next occurrence read.
  await db.execute(sql`
    INSERT INTO live_class_occurrences (tenant_id, live_class_id, starts_at, ends_at)
    SELECT c.tenant_id, c.id, c.starts_at + w * interval '7 days', c.starts_at + w * interval '7 days' + interval '1 hour'
    FROM live_classes c, generate_series(0, 1) AS w WHERE c.tenant_id = ${t.id}::uuid`);
  await db.execute(sql`ANALYZE live_classes`);
  await db.execute(sql`ANALYZE live_class_occurrences`);
}

beforeAll(async () => {
  key = await makeKey(h, t, ["live-classes:read"]);
  await seed();
}, 240_000);

type Page = {
  data: { title: string; startsAt: string; provider: string }[];
  pagination: Record<string, unknown>;
};

async function list(query: string) {
  let body: Page | undefined;
  const statements = await captureStatements(h, async () => {
    const res = await h.inject({
      method: "GET",
      url: `/api/institution/live-classes${query}`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect(res.statusCode, res.body).toBe(200);
    body = res.json();
  });
  // What each statement is, by its shape: the next occurrences (a lateral join per class of the page), the
  // provider and occurrence count of the page's classes, a capped count, and the page itself.
  const reading = statements.filter((s) => /from "live_classes"/i.test(s.sql));
  const occurrences = reading.filter((s) => /join lateral/i.test(s.sql));
  const related = reading.filter((s) => /"video_providers"/.test(s.sql));
  const rest = reading.filter((s) => !occurrences.includes(s) && !related.includes(s));
  const count = rest.filter((s) => /count\(\*\)/i.test(s.sql));
  const page = rest.filter((s) => !count.includes(s));
  expect(page).toHaveLength(1);
  return { body: body as Page, page: page[0] as Statement, count: count[0], related, occurrences };
}

const TABLES = ["live_classes", "live_class_occurrences", "video_providers"];

async function expectFlat(statement: Statement, index?: string | RegExp) {
  const plan = await explainPlan(h, statement.sql, statement.params);
  expectFlatPlan(plan, TABLES);
  if (index !== undefined) expect(JSON.stringify(plan)).toMatch(index);
}

/** Every class has this host: walking the tenant's start order or the host's is the same walk. */
const HOST_WALK = /live_classes_(tenant|host)_starts_idx/;

describe("live classes list plans at 50,000 classes", () => {
  for (const [sort, index] of [
    ["startsAt", "live_classes_tenant_starts_idx"],
    ["-startsAt", "live_classes_tenant_starts_idx"],
    ["createdAt", "live_classes_tenant_created_idx"],
    ["-createdAt", "live_classes_tenant_created_idx"],
  ] as const) {
    it(`sort=${sort}: the page walks ${index}, the related columns are read for its rows, the total is the counter`, async () => {
      const { body, page, count, related, occurrences } = await list(`?sort=${sort}&perPage=100`);
      expect(body.pagination).toEqual({
        page: 1,
        perPage: 100,
        total: SIZE,
        totalPages: SIZE / 100,
        totalRelation: "eq",
      });
      expect(body.data).toHaveLength(100);
      const starts = body.data.map((c) => c.startsAt);
      if (sort === "startsAt") expect(starts).toEqual([...starts].sort());
      if (sort === "-startsAt") expect(starts).toEqual([...starts].sort().reverse());
      expect(body.data.every((c) => c.provider === "jitsi")).toBe(true);
      expect(count).toBeUndefined();
      // The provider lookup is not in the page statement: it runs after the limit, for the page's 100 classes.
      expect(page.sql).not.toMatch(/video_providers/);
      await expectFlat(page, index);
      expect(related).toHaveLength(1);
      await expectFlat(related[0] as Statement);
      // The next occurrence of each class of the page.
      expect(occurrences).toHaveLength(1);
      await expectFlat(occurrences[0] as Statement);
    });
  }

  it("status alone: the total is that status's counter; the page still walks the sort's index", async () => {
    const { body, page, count } = await list("?status=canceled");
    expect(body.pagination).toMatchObject({ total: CANCELED, totalRelation: "eq" });
    expect(count).toBeUndefined();
    await expectFlat(page, "live_classes_tenant_starts_idx");
  });

  it("a filter every class matches: the total stops at the cap and says so; neither statement scans", async () => {
    const { body, page, count } = await list(`?hostUserId=${t.adminUserId}&perPage=20`);
    expect(body.pagination).toEqual({
      page: 1,
      perPage: 20,
      total: TOTAL_CAP,
      totalPages: TOTAL_CAP / 20,
      totalRelation: "gte",
    });
    await expectFlat(page, HOST_WALK);
    await expectFlat(count as Statement, HOST_WALK);
  });
});
