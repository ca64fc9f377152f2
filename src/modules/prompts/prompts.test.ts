import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { callerFor, fieldsOf, useApi } from "../../test-support/api.js";
import { makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { publishedCourse } from "../gradebook/test-fixtures.js";
import { promptBody, VALUES } from "./test-fixtures.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
const call = callerFor(h, () => ({ tenant: a, credential: keyA }));

beforeAll(async () => {
  keyA = await makeKey(h, a, ["ai:read", "ai:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["ai:read", "ai:write"], UNLIMITED_KEY);
});

describe("prompts", () => {
  it("creates version 1 with declared variables, and reads it back", async () => {
    const res = await call("POST", "/prompts", promptBody({ key: "tutor.main" }));
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json();
    expect(p).toMatchObject({
      key: "tutor.main",
      feature: "tutor_chat",
      status: "draft",
      scope: "institution",
      courseId: null,
      version: 1,
      variables: [
        { name: "course", required: true, description: null },
        { name: "question", required: true, description: "What the student asked" },
      ],
      modelParams: { maxOutputTokens: 50 },
    });
    expect((await call("GET", `/prompts/${p.id}`)).json()).toEqual(p);
    const dup = await call("POST", "/prompts", promptBody({ key: "tutor.main" }));
    expect(dup.statusCode).toBe(409);
  });

  it("refuses a placeholder used but not declared, and a variable declared but unused, naming them", async () => {
    const res = await call(
      "POST",
      "/prompts",
      promptBody({
        template: "Hi {{name}} and {{ other }}",
        variables: [{ name: "name" }, { name: "unused" }],
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res)).toEqual(["template", "variables[1].name"]);
    expect(
      res
        .json()
        .details.map((d: { message: string }) => d.message)
        .join(" "),
    ).toMatch(/other.*|unused/);
  });

  it("versions template changes, not name or status, lists versions, and restores an old one", async () => {
    const p = (await call("POST", "/prompts", promptBody())).json();
    const renamed = (await call("PATCH", `/prompts/${p.id}`, { name: "Renamed" })).json();
    expect(renamed).toMatchObject({ name: "Renamed", version: 1 });
    const v2 = await call("PATCH", `/prompts/${p.id}`, {
      template: "Só {{course}}",
      variables: [{ name: "course" }],
    });
    expect(v2.statusCode, v2.body).toBe(200);
    expect(v2.json()).toMatchObject({ version: 2, template: "Só {{course}}" });
    const bad = await call("PATCH", `/prompts/${p.id}`, { template: "{{x}}" });
    expect(fieldsOf(bad)).toEqual(["template", "variables[0].name"]);
    const versions = (await call("GET", `/prompts/${p.id}/versions`)).json();
    expect(versions.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions.pagination).toMatchObject({ total: 2 });
    const restored = await call("POST", `/prompts/${p.id}/versions/1/restore`);
    expect(restored.json()).toMatchObject({ version: 3, template: p.template, variables: p.variables });
    expect((await call("POST", `/prompts/${p.id}/versions/9/restore`)).statusCode).toBe(404);
  });

  it("renders without calling a model, naming a missing required or unknown variable", async () => {
    const p = (await call("POST", "/prompts", promptBody())).json();
    const ok = await call("POST", `/prompts/${p.id}/render`, VALUES);
    expect(ok.json()).toEqual({
      version: 1,
      rendered: "Você é tutor de Álgebra. Pergunta: O que é um grupo?",
      model: null,
    });
    // A value holding a placeholder is text, not a template.
    const literal = await call("POST", `/prompts/${p.id}/render`, {
      variables: { course: "{{question}}", question: "q" },
    });
    expect(literal.json().rendered).toBe("Você é tutor de {{question}}. Pergunta: q");
    const missing = await call("POST", `/prompts/${p.id}/render`, { variables: { course: "x", extra: "y" } });
    expect(missing.statusCode).toBe(400);
    expect(fieldsOf(missing)).toEqual(["variables.extra", "variables.question"]);
    const deep = await call("POST", `/prompts/${p.id}/render`, {
      variables: { course: { a: { b: 1 } }, question: "q" },
    });
    expect(deep.statusCode).toBe(400);
  });

  it("bounds work: 20,000 characters of placeholders, and a render larger than the budget", async () => {
    const many = "{{v}}".repeat(4000);
    const over = await call("POST", "/prompts", promptBody({ template: many, variables: [{ name: "v" }] }));
    expect(over.statusCode).toBe(400);
    expect(fieldsOf(over)).toEqual(["template"]);
    const p = (
      await call(
        "POST",
        "/prompts",
        promptBody({ template: "{{v}}".repeat(1000), variables: [{ name: "v" }] }),
      )
    ).json();
    const big = await call("POST", `/prompts/${p.id}/render`, { variables: { v: "x".repeat(20_000) } });
    expect(big.statusCode).toBe(400);
    expect(fieldsOf(big)).toEqual(["variables"]);
    expect((await call("POST", "/prompts", promptBody({ template: "x".repeat(20_001) }))).statusCode).toBe(
      400,
    );
  });

  it("keeps one active prompt per feature and scope; a course scope is its own", async () => {
    const feature = "summarize";
    const one = await call("POST", "/prompts", promptBody({ feature, status: "active" }));
    expect(one.statusCode).toBe(201);
    const two = await call("POST", "/prompts", promptBody({ feature, status: "active" }));
    expect(two.statusCode).toBe(409);
    const course = await publishedCourse(h.database.db, a.id);
    const scoped = await call(
      "POST",
      "/prompts",
      promptBody({ feature, status: "active", courseId: course }),
    );
    expect(scoped.json()).toMatchObject({ scope: "course", courseId: course, status: "active" });
    const draft = (await call("POST", "/prompts", promptBody({ feature }))).json();
    expect((await call("PATCH", `/prompts/${draft.id}`, { status: "active" })).statusCode).toBe(409);
    expect((await call("DELETE", `/prompts/${one.json().id}`)).statusCode).toBe(204);
    expect((await call("PATCH", `/prompts/${draft.id}`, { status: "active" })).statusCode).toBe(200);
    const foreign = await publishedCourse(h.database.db, b.id);
    expect(fieldsOf(await call("POST", "/prompts", promptBody({ courseId: foreign })))).toEqual(["courseId"]);
  });

  it("lists by feature and status with totals", async () => {
    const t = b;
    await call("POST", "/prompts", promptBody({ feature: "translate" }), keyB, t);
    await call("POST", "/prompts", promptBody({ feature: "translate", status: "archived" }), keyB, t);
    await call("POST", "/prompts", promptBody({ feature: "grading_assist" }), keyB, t);
    const list = (q: string) => call("GET", `/prompts${q}`, undefined, keyB, t);
    expect((await list("?feature=translate")).json().pagination.total).toBe(2);
    expect((await list("?status=archived")).json().data).toHaveLength(1);
    // Totals are counters (migration 0066): archiving (DELETE) moves a prompt between status buckets, per filter
    // and per feature and status, and leaves the whole list's.
    const total = async (q: string) => (await list(q)).json().pagination.total;
    const queries = [
      "",
      "?status=draft",
      "?feature=translate&status=draft",
      "?feature=translate&status=archived",
    ];
    const before = await Promise.all(queries.map(total));
    const draft = (await list("?feature=translate&status=draft")).json().data[0];
    expect((await call("DELETE", `/prompts/${draft.id}`, undefined, keyB, t)).statusCode).toBe(204);
    const [all, drafts, translateDrafts, translateArchived] = before as number[];
    expect(await Promise.all(queries.map(total))).toEqual([
      all,
      (drafts as number) - 1,
      (translateDrafts as number) - 1,
      (translateArchived as number) + 1,
    ]);
  });

  it("lets teachers read but not write; students neither", async () => {
    const teacher = await signedInUser(h, a, "teacher");
    const student = await signedInUser(h, a, "student");
    expect((await call("GET", "/prompts", undefined, teacher.cookie)).statusCode).toBe(200);
    expect((await call("POST", "/prompts", promptBody(), teacher.cookie)).statusCode).toBe(403);
    expect((await call("GET", "/prompts", undefined, student.cookie)).statusCode).toBe(403);
  });

  it("answers 404 for another tenant's prompt on every path", async () => {
    const foreign = (await call("POST", "/prompts", promptBody(), keyB, b)).json();
    for (const [method, url, body] of [
      ["GET", `/prompts/${foreign.id}`],
      ["PATCH", `/prompts/${foreign.id}`, { name: "X" }],
      ["DELETE", `/prompts/${foreign.id}`],
      ["GET", `/prompts/${foreign.id}/versions`],
      ["POST", `/prompts/${foreign.id}/versions/1/restore`],
      ["POST", `/prompts/${foreign.id}/render`, VALUES],
      ["POST", `/prompts/${foreign.id}/run`, VALUES],
      ["GET", `/prompts/${randomUUID()}`],
    ] as const) {
      expect((await call(method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call("GET", `/prompts/${foreign.id}`, undefined, keyB, b)).json().name).toBe("Tutor");
  });
});
