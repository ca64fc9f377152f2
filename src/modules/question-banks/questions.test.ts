import { and, asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { questions, questionVersions } from "../../db/schema/index.js";
import { TOTAL_CAP } from "../../platform/pagination/capped.js";
import { AS_WRITTEN, fieldsOf, useApi } from "../../test-support/api.js";
import { makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";

const { h, tenants, call } = useApi({ tenants: 2, call: AS_WRITTEN });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
let bankId: string;

beforeAll(async () => {
  // This file sends more than a standard key's 100 requests a minute.
  keyA = await makeKey(h, a, ["question-banks:read", "question-banks:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["question-banks:read", "question-banks:write"]);
  bankId = (await call(a, keyA, "POST", "/api/institution/question-banks", { title: "Bank" })).json().id;
});

const add = (payload: unknown, bank = bankId) =>
  call(a, keyA, "POST", `/api/institution/question-banks/${bank}/questions`, payload);

const opts = (correct: string[], ids = ["a", "b", "c"]) =>
  ids.map((id) => ({ id, text: `Option ${id}`, isCorrect: correct.includes(id) }));

/** One valid question of every type. */
const VALID = {
  single_choice: { type: "single_choice", stem: "Pick one", options: opts(["b"]) },
  multiple_choice: { type: "multiple_choice", stem: "Pick some", options: opts(["a", "c"]) },
  true_false: { type: "true_false", stem: "True?", options: opts(["t"], ["t", "f"]) },
  short_answer: { type: "short_answer", stem: "Name it", acceptedAnswers: ["Identidade"] },
  numeric: { type: "numeric", stem: "Pi?", numeric: { value: 3.14, tolerance: 0.01 } },
  numeric_range: { type: "numeric", stem: "Between", numeric: { min: 1, max: 2 } },
  matching: {
    type: "matching",
    stem: "Match",
    pairs: [
      { left: "H2O", right: "água" },
      { left: "NaCl", right: "sal" },
    ],
  },
  ordering: { type: "ordering", stem: "Order", items: ["um", "dois", "três"] },
  essay: { type: "essay", stem: "Discuss" },
};

describe("questions", () => {
  it("creates every type, writing version 1 of each, and shows only its key's field", async () => {
    for (const [name, body] of Object.entries(VALID)) {
      const res = await add({ ...body, points: 2, difficulty: "easy", tags: ["t1"] });
      expect(res.statusCode, name).toBe(201);
      const q = res.json();
      expect(q).toMatchObject({
        bankId,
        type: body.type,
        stem: body.stem,
        points: 2,
        version: 1,
        status: "active",
      });
      const keyFields = ["options", "acceptedAnswers", "numeric", "pairs", "items"].filter((f) => f in q);
      expect(keyFields, name).toEqual(body.type === "essay" ? [] : [Object.keys(body)[2]]);
      const versions = await h.database.db
        .select()
        .from(questionVersions)
        .where(and(eq(questionVersions.tenantId, a.id), eq(questionVersions.questionId, q.id)));
      expect(versions).toHaveLength(1);
      expect(versions[0]?.version).toBe(1);
      expect(versions[0]?.snapshot).toMatchObject({ type: body.type, stem: body.stem, points: 2 });
    }
    const numeric = (await add({ ...VALID.numeric, numeric: { value: 10 } })).json();
    expect(numeric.numeric).toEqual({ value: 10, tolerance: 0 });
    expect(numeric.points).toBe(1);
  });

  it("refuses keys that break their type's rules, naming the field", async () => {
    const cases: [unknown, string[]][] = [
      [{ ...VALID.single_choice, options: opts(["a", "b"]) }, ["options"]],
      [{ ...VALID.single_choice, options: opts([]) }, ["options"]],
      [{ ...VALID.true_false, options: opts(["a"]) }, ["options"]],
      [{ ...VALID.multiple_choice, options: opts([]) }, ["options"]],
      [
        {
          ...VALID.single_choice,
          options: [
            { id: "a", text: "A", isCorrect: true },
            { id: "a", text: "B", isCorrect: false },
          ],
        },
        ["options[1].id"],
      ],
      [{ ...VALID.single_choice, options: opts(["a"], ["a"]) }, ["options"]],
      [{ type: "single_choice", stem: "No key" }, ["options"]],
      [{ ...VALID.short_answer, acceptedAnswers: [] }, ["acceptedAnswers"]],
      [{ ...VALID.short_answer, options: opts(["a"]) }, ["options"]],
      [{ ...VALID.numeric, numeric: { value: 1, min: 0, max: 2 } }, ["numeric"]],
      [{ ...VALID.numeric, numeric: { min: 3, max: 2 } }, ["numeric.min"]],
      [{ ...VALID.numeric, numeric: { tolerance: 1 } }, ["numeric"]],
      [{ ...VALID.matching, pairs: [{ left: "x", right: "y" }] }, ["pairs"]],
      [
        {
          ...VALID.matching,
          pairs: [
            { left: "x", right: "y" },
            { left: "x", right: "z" },
          ],
        },
        ["pairs[1].left"],
      ],
      [{ ...VALID.ordering, items: ["a", "a"] }, ["items[1]"]],
      [{ ...VALID.essay, acceptedAnswers: ["x"] }, ["acceptedAnswers"]],
      [{ ...VALID.essay, points: 0 }, ["points"]],
      [{ ...VALID.essay, type: "file_upload" }, ["type"]],
      [{ ...VALID.essay, stem: "" }, ["stem"]],
    ];
    const before = await h.database.db.select().from(questions).where(eq(questions.tenantId, a.id));
    for (const [body, fields] of cases) {
      const res = await add(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe("validation_failed");
      expect(fieldsOf(res), JSON.stringify(body)).toEqual(fields);
    }
    const after = await h.database.db.select().from(questions).where(eq(questions.tenantId, a.id));
    expect(after.length).toBe(before.length);
  });

  it("creates up to 100 at once, all or nothing, with details naming items[i]", async () => {
    const bank = (await call(a, keyA, "POST", "/api/institution/question-banks", { title: "Bulk" })).json()
      .id;
    const ok = await add({ items: [VALID.single_choice, VALID.ordering, VALID.essay] }, bank);
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.map((q: { type: string }) => q.type)).toEqual([
      "single_choice",
      "ordering",
      "essay",
    ]);

    const refused = await add(
      {
        items: [
          VALID.short_answer,
          { ...VALID.single_choice, options: opts([]) },
          { ...VALID.essay, stem: "" },
          { ...VALID.ordering, surprise: true },
        ],
      },
      bank,
    );
    expect(refused.statusCode).toBe(400);
    // Schema errors come first; the key rules run once the shapes are right.
    expect(fieldsOf(refused)).toEqual(["items[2].stem", "items[3].surprise"]);
    const keyRefused = await add(
      { items: [VALID.short_answer, { ...VALID.single_choice, options: opts([]) }] },
      bank,
    );
    expect(fieldsOf(keyRefused)).toEqual(["items[1].options"]);
    const tooMany = await add({ items: Array.from({ length: 101 }, () => VALID.essay) }, bank);
    expect(tooMany.statusCode).toBe(400);
    expect(fieldsOf(tooMany)).toEqual(["items"]);
    const list = await call(a, keyA, "GET", `/api/institution/question-banks/${bank}/questions`);
    expect(list.json().pagination.total).toBe(3);
  });

  it("lists a bank's questions with filters, sorting and exact totals", async () => {
    const bank = (await call(a, keyA, "POST", "/api/institution/question-banks", { title: "Filters" })).json()
      .id;
    await add(
      { ...VALID.single_choice, stem: "Equação do 2º grau", difficulty: "hard", tags: ["algebra"] },
      bank,
    );
    await add({ ...VALID.essay, stem: "Explique a EQUACAO", tags: ["algebra", "escrita"] }, bank);
    await add({ ...VALID.numeric, stem: "Quanto é pi?", difficulty: "easy", status: "retired" }, bank);
    const list = (query: string) =>
      call(a, keyA, "GET", `/api/institution/question-banks/${bank}/questions${query}`).then((r) => r.json());
    const all = await list("");
    expect(all.data.map((q: { stem: string }) => q.stem)).toEqual([
      "Quanto é pi?",
      "Explique a EQUACAO",
      "Equação do 2º grau",
    ]);
    expect(all.pagination.total).toBe(3);
    expect((await list("?sort=createdAt")).data[0].stem).toBe("Equação do 2º grau");
    expect((await list("?type=essay")).pagination.total).toBe(1);
    expect((await list("?difficulty=hard")).data.map((q: { stem: string }) => q.stem)).toEqual([
      "Equação do 2º grau",
    ]);
    expect((await list("?status=active")).pagination.total).toBe(2);
    expect((await list("?tag=algebra")).pagination.total).toBe(2);
    expect((await list("?tag=escrita&type=essay")).pagination.total).toBe(1);
    const search = await list("?search=equacao");
    expect(search.pagination.total).toBe(2);
    const page = await list("?perPage=1&page=3");
    expect(page.data).toHaveLength(1);
    expect(page.pagination).toEqual({ page: 3, perPage: 1, total: 3, totalPages: 3, totalRelation: "eq" });
    const unknownBank = await call(
      a,
      keyA,
      "GET",
      "/api/institution/question-banks/00000000-0000-4000-8000-000000000000/questions",
    );
    expect(unknownBank.statusCode).toBe(404);
  });

  it("counts a search's or combined filters' matches up to the cap, and a bank's questions by one value exactly", async () => {
    const bank = (await call(a, keyA, "POST", "/api/institution/question-banks", { title: "Big" })).json().id;
    await h.database.db.execute(sql`
      INSERT INTO questions (tenant_id, bank_id, type, stem, tags)
      SELECT ${a.id}::uuid, ${bank}::uuid, 'essay', 'Question ' || i, ARRAY['common']
      FROM generate_series(1, ${TOTAL_CAP + 1}) AS i`);
    const list = (query: string) =>
      call(a, keyA, "GET", `/api/institution/question-banks/${bank}/questions${query}`).then((r) => r.json());
    for (const query of ["", "?status=active", "?type=essay", "?tag=common"]) {
      expect((await list(query)).pagination, query).toMatchObject({
        total: TOTAL_CAP + 1,
        totalRelation: "eq",
      });
    }
    for (const query of ["?search=question", "?status=active&type=essay", "?tag=common&type=essay"]) {
      const capped = await list(`${query}&perPage=100`);
      expect(capped.data, query).toHaveLength(100);
      expect(capped.pagination, query).toEqual({
        page: 1,
        perPage: 100,
        total: TOTAL_CAP,
        totalPages: TOTAL_CAP / 100,
        totalRelation: "gte",
      });
    }
    expect((await list("?tag=rare")).pagination).toMatchObject({ total: 0, totalRelation: "eq" });
  });

  it("versions content changes, not tag or status changes, and never changes the type", async () => {
    const q = (await add({ ...VALID.single_choice, tags: ["a"] })).json();
    const url = `/api/institution/questions/${q.id}`;
    const tagged = await call(a, keyA, "PATCH", url, { tags: ["b"], status: "retired" });
    expect(tagged.json()).toMatchObject({ version: 1, tags: ["b"], status: "retired" });
    const same = await call(a, keyA, "PATCH", url, { stem: q.stem, options: q.options });
    expect(same.json().version).toBe(1);
    const reworded = await call(a, keyA, "PATCH", url, { stem: "Pick exactly one" });
    expect(reworded.json()).toMatchObject({ version: 2, stem: "Pick exactly one", options: q.options });
    const rekeyed = await call(a, keyA, "PATCH", url, { options: opts(["c"]), points: 5 });
    expect(rekeyed.json()).toMatchObject({ version: 3, points: 5 });
    const explained = await call(a, keyA, "PATCH", url, { explanation: "Because" });
    expect(explained.json().version).toBe(4);

    const versions = await h.database.db
      .select()
      .from(questionVersions)
      .where(and(eq(questionVersions.tenantId, a.id), eq(questionVersions.questionId, q.id)))
      .orderBy(asc(questionVersions.version));
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4]);
    expect(versions[0]?.snapshot).toMatchObject({ stem: "Pick one" });
    expect(versions[1]?.snapshot).toMatchObject({ stem: "Pick exactly one", points: 1 });
    expect(versions[2]?.snapshot).toMatchObject({ points: 5, content: { options: opts(["c"]) } });

    const typeChange = await call(a, keyA, "PATCH", url, { type: "essay" });
    expect(typeChange.statusCode).toBe(400);
    expect(fieldsOf(typeChange)).toEqual(["type"]);
    const wrongKey = await call(a, keyA, "PATCH", url, { acceptedAnswers: ["x"] });
    expect(fieldsOf(wrongKey)).toEqual(["acceptedAnswers"]);
    const broken = await call(a, keyA, "PATCH", url, { options: opts([]) });
    expect(fieldsOf(broken)).toEqual(["options"]);
    expect((await call(a, keyA, "GET", url)).json()).toMatchObject({ version: 4, points: 5 });
  });

  it("deletes a question nothing references, and keeps tenants apart", async () => {
    const q = (await add(VALID.essay)).json();
    const url = `/api/institution/questions/${q.id}`;
    for (const method of ["GET", "PATCH", "DELETE"] as const) {
      const res = await call(b, keyB, method, url, method === "PATCH" ? { stem: "Taken" } : undefined);
      expect(res.statusCode, method).toBe(404);
    }
    expect((await call(a, keyA, "GET", url)).json().stem).toBe("Discuss");
    const deleted = await call(a, keyA, "DELETE", url);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe("");
    expect((await call(a, keyA, "GET", url)).statusCode).toBe(404);
    const rows = await h.database.db
      .select()
      .from(questionVersions)
      .where(eq(questionVersions.questionId, q.id));
    expect(rows).toEqual([]);
  });
});
