import { beforeAll, describe, expect, it } from "vitest";
import { callerFor, fieldsOf, useApi } from "../../test-support/api.js";
import { makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { eventsOf, runJobs } from "../../test-support/reports.js";
import { kbIndexJobHandler } from "./indexing.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
const call = callerFor(h, () => ({ tenant: a, credential: keyA }));
const callB = callerFor(h, () => ({ tenant: b, credential: keyB }));
const index = () => runJobs(h, a, { kb_index: kbIndexJobHandler });

beforeAll(async () => {
  keyA = await makeKey(h, a, ["ai:read", "ai:write", "courses:read", "courses:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["ai:read", "ai:write"], UNLIMITED_KEY);
});

async function course(title: string) {
  const res = await call("POST", "/courses", { title, status: "published" });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function textLesson(courseId: string, title: string, bodyHtml: string) {
  const m = await call("POST", `/courses/${courseId}/modules`, { title: "M", status: "published" });
  expect(m.statusCode, m.body).toBe(201);
  const l = await call("POST", `/modules/${m.json().id}/lessons`, {
    title,
    type: "text",
    status: "published",
    content: { bodyHtml },
  });
  expect(l.statusCode, l.body).toBe(201);
  return l.json().id as string;
}

async function kb(body: Record<string, unknown> = {}) {
  const res = await call("POST", "/rag/knowledge-bases", { name: "Base", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe("knowledge bases", () => {
  it("creates, reads, updates, lists and deletes, with auto and fixed chunking", async () => {
    const created = await kb({ name: "Material", description: "Notas" });
    expect(created).toMatchObject({
      name: "Material",
      description: "Notas",
      scope: "institution",
      courseId: null,
      status: "ready",
      chunking: { strategy: "auto", maxChunkTokens: 800, overlapTokens: 400 },
      autoSync: { courseContent: false },
      documentCount: 0,
      chunkCount: 0,
      tokenCount: 0,
      lastIndexedAt: null,
    });
    expect((await call("GET", `/rag/knowledge-bases/${created.id}`)).json()).toEqual(created);
    const patched = await call("PATCH", `/rag/knowledge-bases/${created.id}`, {
      name: "Renomeada",
      chunking: { strategy: "fixed", maxChunkTokens: 200, overlapTokens: 100 },
      autoSync: { courseContent: true },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      name: "Renomeada",
      chunking: { strategy: "fixed", maxChunkTokens: 200, overlapTokens: 100 },
      autoSync: { courseContent: true },
    });
    const list = await call("GET", "/rag/knowledge-bases?perPage=1");
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().pagination).toMatchObject({ page: 1, perPage: 1, totalRelation: "eq" });
    expect(list.json().pagination.total).toBeGreaterThanOrEqual(1);
    expect((await call("DELETE", `/rag/knowledge-bases/${created.id}`)).statusCode).toBe(204);
    expect((await call("GET", `/rag/knowledge-bases/${created.id}`)).statusCode).toBe(404);
  });

  it("refuses bad scopes and chunking with 400 naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ scope: "course" }, "courseId"],
      [{ courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" }, "courseId"],
      [{ scope: "course", courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" }, "courseId"],
      [
        { chunking: { strategy: "fixed", maxChunkTokens: 300, overlapTokens: 151 } },
        "chunking.overlapTokens",
      ],
      [{ chunking: { strategy: "fixed" } }, "chunking.maxChunkTokens"],
      [{ chunking: { strategy: "fixed", maxChunkTokens: 99 } }, "chunking.maxChunkTokens"],
      [{ chunking: { strategy: "auto", maxChunkTokens: 500 } }, "chunking.maxChunkTokens"],
    ];
    for (const [body, field] of cases) {
      const res = await call("POST", "/rag/knowledge-bases", { name: "X", ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(res)).toContain(field);
    }
  });

  it("is another tenant's 404 on every route", async () => {
    const mine = await kb();
    const added = await call("POST", `/rag/knowledge-bases/${mine.id}/documents`, {
      sourceType: "text",
      text: "segredo da instituição A",
    });
    expect(added.statusCode, added.body).toBe(202);
    const docId = added.json().data[0].id;
    const base = `/rag/knowledge-bases/${mine.id}`;
    for (const [method, path, body] of [
      ["GET", base, undefined],
      ["PATCH", base, { name: "x" }],
      ["DELETE", base, undefined],
      ["GET", `${base}/documents`, undefined],
      ["POST", `${base}/documents`, { sourceType: "text", text: "x" }],
      ["DELETE", `${base}/documents/${docId}`, undefined],
      ["POST", `${base}/search`, { query: "segredo" }],
    ] as const) {
      expect((await callB(method, path, body)).statusCode, `${method} ${path}`).toBe(404);
    }
    expect((await callB("GET", "/rag/knowledge-bases")).json().data).toEqual([]);
    expect((await call("GET", base)).json().documentCount).toBe(1);
  });
});

describe("documents and indexing", () => {
  it("indexes text in the worker, dedupes by content, counts, and emits kb_document_indexed", async () => {
    const base = await kb({ chunking: { strategy: "fixed", maxChunkTokens: 100, overlapTokens: 20 } });
    const text = Array.from({ length: 250 }, (_, i) => `palavra${i}`).join(" ");
    const res = await call("POST", `/rag/knowledge-bases/${base.id}/documents`, {
      sourceType: "text",
      text,
      title: "Longo",
      language: "pt",
      metadata: { unidade: "1" },
    });
    expect(res.statusCode, res.body).toBe(202);
    const [doc] = res.json().data;
    expect(doc).toMatchObject({
      status: "pending",
      title: "Longo",
      sourceType: "text",
      metadata: { unidade: "1" },
    });
    expect(res.json().jobId).toEqual(expect.any(String));
    expect((await call("GET", `/rag/knowledge-bases/${base.id}`)).json().status).toBe("indexing");
    await index();
    const after = (await call("GET", `/rag/knowledge-bases/${base.id}`)).json();
    expect(after).toMatchObject({
      status: "ready",
      documentCount: 1,
      chunkCount: 3,
      tokenCount: 250 + 20 + 20,
    });
    expect(after.lastIndexedAt).toEqual(expect.any(String));
    const listed = (await call("GET", `/rag/knowledge-bases/${base.id}/documents`)).json();
    expect(listed.pagination.total).toBe(1);
    expect(listed.data[0]).toMatchObject({ id: doc.id, status: "ready", chunkCount: 3, tokenCount: 290 });
    expect(listed.data[0].contentHash).toMatch(/^[0-9a-f]{64}$/);
    const events = await eventsOf(h, a, "kb_document_indexed");
    expect(events.map((e) => e.data)).toContainEqual(
      expect.objectContaining({
        documentId: doc.id,
        knowledgeBaseId: base.id,
        chunkCount: 3,
        tokenCount: 290,
      }),
    );

    const again = await call("POST", `/rag/knowledge-bases/${base.id}/documents`, {
      documents: [
        { sourceType: "text", text },
        { sourceType: "text", text: "outro texto" },
        { sourceType: "text", text: "outro texto" },
      ],
    });
    expect(again.statusCode, again.body).toBe(202);
    const ids = again.json().data.map((d: { id: string }) => d.id);
    expect(ids[0]).toBe(doc.id);
    expect(ids[1]).toBe(ids[2]);
    expect((await call("GET", `/rag/knowledge-bases/${base.id}`)).json().documentCount).toBe(2);
    await index();

    expect((await call("DELETE", `/rag/knowledge-bases/${base.id}/documents/${doc.id}`)).statusCode).toBe(
      204,
    );
    expect((await call("GET", `/rag/knowledge-bases/${base.id}`)).json()).toMatchObject({
      documentCount: 1,
      chunkCount: 1,
      tokenCount: 2,
    });
    expect((await call("DELETE", `/rag/knowledge-bases/${base.id}/documents/${doc.id}`)).statusCode).toBe(
      404,
    );
  });

  it("refuses bad documents with 400: missing text, unknown lesson, oversized metadata, too many", async () => {
    const base = await kb();
    const url = `/rag/knowledge-bases/${base.id}/documents`;
    const bad: [unknown, string][] = [
      [{ sourceType: "text" }, "text"],
      [{ sourceType: "text", text: "x", sourceId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" }, "sourceId"],
      [{ sourceType: "lesson", sourceId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" }, "sourceId"],
      [{ sourceType: "text", text: "x".repeat(200_001) }, "text"],
      [{ sourceType: "text", text: "x", language: "de" }, "language"],
      [{ sourceType: "text", text: "x", metadata: { ["k".repeat(65)]: "v" } }, "metadata"],
      [{ sourceType: "text", text: "x", metadata: { k: "v".repeat(513) } }, "metadata.k"],
      [
        {
          sourceType: "text",
          text: "x",
          metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"])),
        },
        "metadata",
      ],
      [
        { documents: Array.from({ length: 101 }, (_, i) => ({ sourceType: "text", text: `t${i}` })) },
        "documents",
      ],
      [
        { documents: [{ sourceType: "text", text: "ok" }, { sourceType: "lesson" }] },
        "documents[1].sourceId",
      ],
    ];
    for (const [body, field] of bad) {
      const res = await call("POST", url, body);
      expect(res.statusCode, `${field}: ${res.body.slice(0, 300)}`).toBe(400);
      expect(
        fieldsOf(res).some((f) => f.startsWith(field) || field.startsWith(f)),
        `${field}: ${fieldsOf(res)}`,
      ).toBe(true);
    }
    expect((await call("GET", `/rag/knowledge-bases/${base.id}`)).json().documentCount).toBe(0);
  });

  it("indexes a lesson's text from its HTML, cites it, and fails it (kb_document_failed) once it is deleted", async () => {
    const c = await course("Física");
    const lessonId = await textLesson(
      c,
      "Leis de Newton",
      "<h2>Inércia</h2><p>Um corpo em repouso permanece em repouso &amp; um corpo em movimento permanece em movimento.</p>",
    );
    const base = await kb({ scope: "course", courseId: c });
    const res = await call("POST", `/rag/knowledge-bases/${base.id}/documents`, {
      sourceType: "lesson",
      sourceId: lessonId,
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data[0]).toMatchObject({ title: "Leis de Newton", sourceId: lessonId });
    await index();
    const found = await call("POST", `/rag/knowledge-bases/${base.id}/search`, {
      query: "INERCIA e repouso",
    });
    expect(found.statusCode, found.body).toBe(200);
    const [hit] = found.json().data;
    expect(hit.text).toBe(
      "Inércia\nUm corpo em repouso permanece em repouso & um corpo em movimento permanece em movimento.",
    );
    expect(hit.citation).toEqual({
      title: "Leis de Newton",
      lessonId,
      mediaId: null,
      page: null,
      start: 0,
      end: hit.text.length,
    });
    expect(hit.score).toBeGreaterThan(0);
    expect(hit.score).toBeLessThanOrEqual(1);

    // A lesson of another course is not this course's knowledge base's to index.
    const other = await textLesson(await course("Química"), "Átomos", "<p>prótons</p>");
    const refused = await call("POST", `/rag/knowledge-bases/${base.id}/documents`, {
      sourceType: "lesson",
      sourceId: other,
    });
    expect(refused.statusCode).toBe(400);

    const docId = res.json().data[0].id;
    const again = await call("POST", `/rag/knowledge-bases/${base.id}/documents`, {
      sourceType: "lesson",
      sourceId: lessonId,
    });
    expect(again.json()).toMatchObject({ data: [{ id: docId }], jobId: null });
    expect((await call("DELETE", `/lessons/${lessonId}`)).statusCode).toBe(204);
    // Its chunks are not served from the moment it is gone, before any reindex.
    const gone = await call("POST", `/rag/knowledge-bases/${base.id}/search`, { query: "INERCIA e repouso" });
    expect(gone.statusCode).toBe(200);
    expect(gone.json().data).toEqual([]);
    // The delete queued it again: the worker finds the lesson gone.
    expect((await call("GET", `/rag/knowledge-bases/${base.id}`)).json().status).toBe("indexing");
    await index();
    const failed = (await call("GET", `/rag/knowledge-bases/${base.id}/documents`)).json().data[0];
    expect(failed).toMatchObject({ status: "failed", error: "the lesson was deleted", chunkCount: 0 });
    expect((await call("GET", `/rag/knowledge-bases/${base.id}`)).json()).toMatchObject({
      status: "error",
      chunkCount: 0,
      tokenCount: 0,
    });
    expect((await eventsOf(h, a, "kb_document_failed")).map((e) => e.data)).toContainEqual(
      expect.objectContaining({ documentId: docId, error: "the lesson was deleted", sourceId: lessonId }),
    );
  });
});

describe("search", () => {
  let base: { id: string };
  beforeAll(async () => {
    base = await kb();
    const res = await call("POST", `/rag/knowledge-bases/${base.id}/documents`, {
      documents: [
        {
          sourceType: "text",
          language: "pt",
          text: "A REVOLUÇÃO Francesa começou em 1789.",
          metadata: { lingua: "pt" },
        },
        {
          sourceType: "text",
          language: "en",
          text: "Photosynthesis converts light into chemical energy.",
          metadata: { lingua: "en" },
        },
        {
          sourceType: "text",
          language: "es",
          text: "Las células madre se diferencian en tejidos.",
          metadata: { lingua: "es" },
        },
        {
          sourceType: "text",
          language: "fr",
          text: "Les élèves étudient la géométrie à l'école.",
          metadata: { lingua: "fr" },
        },
      ],
    });
    expect(res.statusCode, res.body).toBe(202);
    await index();
  });
  const search = (body: Record<string, unknown>) =>
    call("POST", `/rag/knowledge-bases/${base.id}/search`, body);
  const first = async (query: string) => (await search({ query })).json().data[0]?.text as string | undefined;

  it("folds case and accents and stems, in each document's language", async () => {
    expect(await first("revolucao francesa")).toMatch(/REVOLUÇÃO/);
    expect(await first("Revoluções")).toMatch(/REVOLUÇÃO/);
    expect(await first("photosynthesizing? CONVERTING")).toMatch(/Photosynthesis/);
    expect(await first("célula")).toMatch(/células/);
    expect(await first("eleve ecoles")).toMatch(/élèves/);
    expect((await search({ query: "zzzz qqqq" })).json().data).toEqual([]);
  });

  it("applies topK, minScore and metadata filters", async () => {
    const all = (await search({ query: "revolução photosynthesis células élèves", topK: 50 })).json().data;
    expect(all).toHaveLength(4);
    expect(
      (await search({ query: "revolução photosynthesis células élèves", topK: 2 })).json().data,
    ).toHaveLength(2);
    expect((await search({ query: "revolução photosynthesis", minScore: 1 })).json().data).toEqual([]);
    const en = (
      await search({ query: "revolução photosynthesis", filters: { metadata: { lingua: "en" } } })
    ).json().data;
    expect(en.map((r: { metadata: unknown }) => r.metadata)).toEqual([{ lingua: "en" }]);
    expect((await search({ query: "x", topK: 51 })).statusCode).toBe(400);
    expect((await search({ query: "x".repeat(2001) })).statusCode).toBe(400);
  });

  it("answers a 2,000-character query of operators and punctuation quickly, with nothing", async () => {
    const hostile = "!&|<->():*'\"\\ ".repeat(200).slice(0, 2_000);
    const started = performance.now();
    const res = await search({ query: hostile });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([]);
    const mixed = await search({ query: `revolução & ! ( | ${"<-> ".repeat(400)}`.slice(0, 2_000) });
    expect(mixed.statusCode, mixed.body).toBe(200);
    expect(mixed.json().data[0].text).toMatch(/REVOLUÇÃO/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("indexes a document of one 200,000-character word in bounded time", async () => {
    const long = await kb();
    const res = await call("POST", `/rag/knowledge-bases/${long.id}/documents`, {
      sourceType: "text",
      text: "a".repeat(200_000),
    });
    expect(res.statusCode).toBe(202);
    const started = performance.now();
    await index();
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await call("GET", `/rag/knowledge-bases/${long.id}`)).json()).toMatchObject({
      status: "ready",
      tokenCount: expect.any(Number),
    });
    expect(
      (await call("POST", `/rag/knowledge-bases/${long.id}/search`, { query: "a".repeat(2_000) })).statusCode,
    ).toBe(200);
  });

  it("lets a student search institution-wide bases and their enrolled courses' only", async () => {
    const mine = await course("Minha");
    const theirs = await course("Outra");
    const mineKb = await kb({ scope: "course", courseId: mine });
    const theirsKb = await kb({ scope: "course", courseId: theirs });
    for (const k of [mineKb, theirsKb]) {
      await call("POST", `/rag/knowledge-bases/${k.id}/documents`, {
        sourceType: "text",
        text: "fotossíntese nas plantas",
      });
    }
    await index();
    const student = await signedInUser(h, a, "student");
    const enrolled = await call("POST", "/enrollments", { userId: student.id, courseId: mine });
    if (enrolled.statusCode !== 201) {
      const { enrollAs } = await import("../gradebook/test-fixtures.js");
      await enrollAs(h.database.db, a.id, student.id, mine);
    }
    const as = (id: string) =>
      h.inject({
        method: "POST",
        url: `/api/institution/rag/knowledge-bases/${id}/search`,
        headers: { host: a.host, cookie: student.cookie, "content-type": "application/json" },
        payload: { query: "fotossíntese" },
      });
    expect((await as(mineKb.id)).json().data).toHaveLength(1);
    expect((await as(theirsKb.id)).statusCode).toBe(404);
    expect((await as(base.id)).statusCode).toBe(200);
    const list = await h.inject({
      method: "GET",
      url: "/api/institution/rag/knowledge-bases",
      headers: { host: a.host, cookie: student.cookie },
    });
    expect(list.statusCode).toBe(403);
  });
});
