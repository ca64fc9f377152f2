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
