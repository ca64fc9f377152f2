import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { callerFor, useApi } from "../../test-support/api.js";
import { makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";
import { eventsOf, runJobs } from "../../test-support/reports.js";
import { kbIndexJobHandler } from "./indexing.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let key: string;
let keyB: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));
const index = () => runJobs(h, a, { kb_index: kbIndexJobHandler });

beforeAll(async () => {
  key = await makeKey(h, a, ["ai:read", "ai:write", "courses:read", "courses:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["ai:read", "ai:write"], UNLIMITED_KEY);
});

async function lessonIn(courseId: string, status: "draft" | "published", bodyHtml: string) {
  const m = await call("POST", `/courses/${courseId}/modules`, { title: "M", status: "published" });
  const l = await call("POST", `/modules/${m.json().id}/lessons`, {
    title: "Lição",
    type: "text",
    status,
    content: { bodyHtml },
  });
  expect(l.statusCode, l.body).toBe(201);
  return l.json().id as string;
}

const top = async (kbId: string, query: string) =>
  (await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query })).json().data[0]?.text as
    | string
    | undefined;

it("re-chunks every document with the new chunking on POST …/reindex (202, a job)", async () => {
  const kb = (await call("POST", "/rag/knowledge-bases", { name: "R" })).json();
  const text = Array.from({ length: 300 }, (_, i) => `termo${i}`).join(" ");
  await call("POST", `/rag/knowledge-bases/${kb.id}/documents`, { sourceType: "text", text });
  await index();
  expect((await call("GET", `/rag/knowledge-bases/${kb.id}`)).json()).toMatchObject({
    chunkCount: 1,
    tokenCount: 300,
  });
  await call("PATCH", `/rag/knowledge-bases/${kb.id}`, {
    chunking: { strategy: "fixed", maxChunkTokens: 100, overlapTokens: 0 },
  });
  const res = await call("POST", `/rag/knowledge-bases/${kb.id}/reindex`);
  expect(res.statusCode, res.body).toBe(202);
  const [job] = await queryRows<{ type: string; payload: unknown }>(
    h.database.db,
    sql`SELECT type, payload FROM jobs WHERE tenant_id = ${a.id} AND id = ${res.json().jobId}`,
  );
  expect(job).toEqual({ type: "kb_index", payload: { knowledgeBaseId: kb.id, pending: true } });
  expect((await call("GET", `/rag/knowledge-bases/${kb.id}`)).json().status).toBe("indexing");
  await index();
  expect((await call("GET", `/rag/knowledge-bases/${kb.id}`)).json()).toMatchObject({
    status: "ready",
    documentCount: 1,
    chunkCount: 3,
    tokenCount: 300,
  });
  const other = callerFor(h, () => ({ tenant: b, credential: keyB }));
  expect((await other("POST", `/rag/knowledge-bases/${kb.id}/reindex`)).statusCode).toBe(404);
});

it("re-indexes a lesson document when its lesson is published, for knowledge bases that follow course content", async () => {
  const courseId = (await call("POST", "/courses", { title: "Sync", status: "published" })).json().id;
  const lessonId = await lessonIn(courseId, "draft", "<p>rascunho antigo</p>");
  const following = (
    await call("POST", "/rag/knowledge-bases", {
      name: "F",
      scope: "course",
      courseId,
      autoSync: { courseContent: true },
    })
  ).json();
  const still = (await call("POST", "/rag/knowledge-bases", { name: "S", scope: "course", courseId })).json();
  for (const kb of [following, still]) {
    expect(
      (
        await call("POST", `/rag/knowledge-bases/${kb.id}/documents`, {
          sourceType: "lesson",
          sourceId: lessonId,
        })
      ).statusCode,
    ).toBe(202);
  }
  await index();
  const patched = await call("PATCH", `/lessons/${lessonId}`, {
    status: "published",
    content: { bodyHtml: "<p>versão publicada sobre magnetismo</p>" },
  });
  expect(patched.statusCode, patched.body).toBe(200);
  expect((await call("GET", `/rag/knowledge-bases/${following.id}`)).json().status).toBe("indexing");
  await index();
  expect(await top(following.id, "magnetismo")).toBe("versão publicada sobre magnetismo");
  expect(await top(still.id, "magnetismo")).toBeUndefined();
  expect(await top(still.id, "rascunho")).toBe("rascunho antigo");
  const indexed = (await eventsOf(h, a, "kb_document_indexed")).filter(
    (e) => (e.data as { knowledgeBaseId: string }).knowledgeBaseId === following.id,
  );
  expect(indexed).toHaveLength(2);
});

it("fails the documents of a lesson, a module's lessons or a course's lessons as they are deleted, in every knowledge base", async () => {
  const kb = (await call("POST", "/rag/knowledge-bases", { name: "Gone" })).json();
  const courseId = (await call("POST", "/courses", { title: "Gone", status: "published" })).json().id;
  const lessons = [
    await lessonIn(courseId, "published", "<p>primeira sobre marés</p>"),
    await lessonIn(courseId, "published", "<p>segunda sobre marés</p>"),
    await lessonIn(courseId, "published", "<p>terceira sobre marés</p>"),
  ];
  const added = await call("POST", `/rag/knowledge-bases/${kb.id}/documents`, {
    documents: lessons.map((sourceId) => ({ sourceType: "lesson", sourceId })),
  });
  expect(added.statusCode, added.body).toBe(202);
  await index();
  const statuses = async () =>
    Object.fromEntries(
      (await call("GET", `/rag/knowledge-bases/${kb.id}/documents`))
        .json()
        .data.map((d: { sourceId: string; status: string }) => [d.sourceId, d.status]),
    );
  const counts = async () => {
    const k = (await call("GET", `/rag/knowledge-bases/${kb.id}`)).json();
    return [k.chunkCount, k.status];
  };
  expect(await counts()).toEqual([3, "ready"]);

  expect((await call("DELETE", `/lessons/${lessons[0]}`)).statusCode).toBe(204);
  await index();
  expect(await statuses()).toMatchObject({
    [lessons[0] as string]: "failed",
    [lessons[1] as string]: "ready",
  });
  expect(await counts()).toEqual([2, "error"]);
  const [failed] = (await eventsOf(h, a, "kb_document_failed")).filter(
    (e) => (e.data as { sourceId: string }).sourceId === lessons[0],
  );
  expect(failed?.data).toMatchObject({ knowledgeBaseId: kb.id, error: "the lesson was deleted" });

  const [moduleOfSecond] = await queryRows<{ module_id: string }>(
    h.database.db,
    sql`SELECT module_id FROM lessons WHERE tenant_id = ${a.id} AND id = ${lessons[1]}`,
  );
  expect((await call("DELETE", `/modules/${moduleOfSecond?.module_id}`)).statusCode).toBe(204);
  await index();
  expect(await statuses()).toMatchObject({
    [lessons[1] as string]: "failed",
    [lessons[2] as string]: "ready",
  });

  // The course's own knowledge base goes with the course: nothing is queued for it.
  const own = (await call("POST", "/rag/knowledge-bases", { name: "Own", scope: "course", courseId })).json();
  await call("POST", `/rag/knowledge-bases/${own.id}/documents`, {
    sourceType: "lesson",
    sourceId: lessons[2],
  });
  await index();
  const jobsOfOwn = async () =>
    (
      await queryRows<{ n: number }>(
        h.database.db,
        sql`SELECT count(*)::int AS n FROM jobs WHERE tenant_id = ${a.id} AND payload->>'knowledgeBaseId' = ${own.id}`,
      )
    )[0]?.n;
  const before = await jobsOfOwn();
  expect((await call("DELETE", `/courses/${courseId}?force=true`)).statusCode).toBe(204);
  expect(await jobsOfOwn()).toBe(before);
  await index();
  expect(Object.values(await statuses())).toEqual(["failed", "failed", "failed"]);
  expect(await counts()).toEqual([0, "error"]);
  expect(await top(kb.id, "marés")).toBeUndefined();
});
