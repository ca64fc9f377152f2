import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { AS_WRITTEN, useApi } from "../../test-support/api.js";
import { makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";

/**
 * A bank's questions by tag (migration 0048): the page walks question_tags, which triggers keep from
 * `questions.tags`, and the total is the tag's counter. Both must say what the questions themselves say after
 * every kind of write.
 */

const { h, tenants, call } = useApi({ tenants: 2, call: AS_WRITTEN });
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["question-banks:read", "question-banks:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["question-banks:read", "question-banks:write"]);
});

const newBank = async (title: string) =>
  (await call(a, keyA, "POST", "/api/institution/question-banks", { title })).json().id as string;

const add = (bank: string, stem: string, tags: string[]) =>
  call(a, keyA, "POST", `/api/institution/question-banks/${bank}/questions`, { type: "essay", stem, tags });

const list = async (bank: string, query: string) => {
  const res = await call(
    a,
    keyA,
    "GET",
    `/api/institution/question-banks/${bank}/questions?perPage=100&${query}`,
  );
  expect(res.statusCode, query).toBe(200);
  return res.json() as { data: { stem: string; tags: string[] }[]; pagination: { total: number } };
};

/** The tag rows and tag counters that disagree with the questions' own tags, for tenant A. */
async function drift(): Promise<unknown[]> {
  const { rows } = (await h.database.db.execute(sql`
    WITH expected AS (
      SELECT DISTINCT q.question_id, q.tag, q.bank_id, q.created_at, q.updated_at FROM (
        SELECT id AS question_id, unnest(tags) AS tag, bank_id, created_at, updated_at
        FROM questions WHERE tenant_id = ${a.id}) q
    ), kept AS (
      SELECT question_id, tag, bank_id, created_at, updated_at FROM question_tags WHERE tenant_id = ${a.id}
    ), rows_off AS (
      (SELECT 'missing' AS what, * FROM (SELECT * FROM expected EXCEPT SELECT * FROM kept) m)
      UNION ALL (SELECT 'extra', * FROM (SELECT * FROM kept EXCEPT SELECT * FROM expected) x)
    ), counts AS (
      SELECT 'question_tags:bank_id+tag:' || bank_id || ':' || tag AS counter, count(*)::int AS n
      FROM expected GROUP BY bank_id, tag
    ), counters_off AS (
      SELECT coalesce(c.counter, k.counter) AS counter, c.n, k.value
      FROM counts c FULL JOIN (
        SELECT counter, value::int AS value FROM tenant_counters
        WHERE tenant_id = ${a.id} AND counter LIKE 'question_tags:%' AND value <> 0) k ON k.counter = c.counter
      WHERE c.n IS DISTINCT FROM k.value
    )
    SELECT what || ' ' || question_id || ' ' || tag AS off FROM rows_off
    UNION ALL SELECT 'counter ' || counter || ' ' || coalesce(n, 0) || ' <> ' || coalesce(value, 0) FROM counters_off`)) as unknown as {
    rows: { off: string }[];
  };
  return rows.map((r) => r.off);
}

describe("questions by tag", () => {
  it("keeps each question's tags through creation, edits, moves of its timestamps and deletion", async () => {
    const bank = await newBank("Tagged");
    const other = await newBank("Other");
    const ids: string[] = [];
    for (let i = 1; i <= 6; i++) {
      const tags = i % 2 === 0 ? ["even", "all"] : ["odd", "all"];
      ids.push((await add(bank, `Q${i}`, tags)).json().id);
    }
    await add(other, "Elsewhere", ["even"]);
    expect(await drift()).toEqual([]);

    const retag = await call(a, keyA, "PATCH", `/api/institution/questions/${ids[0]}`, {
      tags: ["even", "new"],
    });
    expect(retag.statusCode).toBe(200);
    await call(a, keyA, "PATCH", `/api/institution/questions/${ids[1]}`, { stem: "Q2 reworded" });
    // Bulk SQL that touches no tag or timestamp leaves the tag rows alone; one that moves a timestamp moves them.
    await h.database.db.execute(sql`UPDATE questions SET points = 3 WHERE tenant_id = ${a.id}`);
    await h.database.db.execute(
      sql`UPDATE questions SET created_at = created_at - interval '1 day' WHERE tenant_id = ${a.id} AND stem = 'Q3'`,
    );
    expect(await drift()).toEqual([]);

    expect((await call(a, keyA, "DELETE", `/api/institution/questions/${ids[2]}`)).statusCode).toBe(204);
    expect(await drift()).toEqual([]);

    const even = await list(bank, "tag=even");
    expect(even.pagination.total).toBe(4);
    expect(even.data.map((q) => q.stem).sort()).toEqual(["Q1", "Q2 reworded", "Q4", "Q6"]);
    expect((await list(bank, "tag=new")).pagination.total).toBe(1);
    expect((await list(bank, "tag=odd")).data.map((q) => q.stem)).toEqual(["Q5"]);
    expect((await list(bank, "tag=nothing")).pagination.total).toBe(0);

    await call(a, keyA, "DELETE", `/api/institution/question-banks/${other}`);
    expect(await drift()).toEqual([]);
  });

  it("pages a tag in every order exactly as the bank's whole list, filtered, would", async () => {
    const bank = await newBank("Orders");
    for (let i = 1; i <= 12; i++) await add(bank, `O${i}`, i % 3 === 0 ? ["third"] : ["rest"]);
    // Edit some so that the updatedAt orders differ from the createdAt ones.
    const all = await list(bank, "sort=createdAt");
    for (const q of all.data.filter((_, i) => i % 4 === 1)) {
      await call(a, keyA, "PATCH", `/api/institution/questions/${(q as unknown as { id: string }).id}`, {
        explanation: "later",
      });
    }
    for (const sort of ["createdAt", "-createdAt", "updatedAt", "-updatedAt"]) {
      const whole = await list(bank, `sort=${sort}`);
      for (const tag of ["third", "rest"]) {
        const expected = whole.data.filter((q) => q.tags.includes(tag)).map((q) => q.stem);
        const tagged = await list(bank, `sort=${sort}&tag=${tag}`);
        expect(
          tagged.data.map((q) => q.stem),
          `${sort} ${tag}`,
        ).toEqual(expected);
        expect(tagged.pagination.total).toBe(expected.length);
        // Page by page, too: page 2 of 3 starts where page 1 stopped.
        const res = await call(
          a,
          keyA,
          "GET",
          `/api/institution/question-banks/${bank}/questions?perPage=3&page=2&sort=${sort}&tag=${tag}`,
        );
        expect(res.json().data.map((q: { stem: string }) => q.stem)).toEqual(expected.slice(3, 6));
      }
    }
    // With another filter too: the tag's rows joined to their questions, the status on the question.
    const mixed = await list(bank, "tag=third&status=active&type=essay");
    expect(mixed.data).toHaveLength(4);
  });

  it("keeps another tenant's bank out of reach, tag or not", async () => {
    const bank = await newBank("Private");
    await add(bank, "Secret", ["shared"]);
    const res = await call(b, keyB, "GET", `/api/institution/question-banks/${bank}/questions?tag=shared`);
    expect(res.statusCode).toBe(404);
  });
});
