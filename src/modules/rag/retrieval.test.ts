import { beforeAll, expect, it } from "vitest";
import { callerFor, useApi } from "../../test-support/api.js";
import { makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";
import { runJobs } from "../../test-support/reports.js";
import { kbIndexJobHandler } from "./indexing.js";
import { PASSAGES, QUESTIONS } from "./retrieval-corpus.js";

/**
 * Retrieval quality on the shipped corpus (retrieval-corpus.ts): for each question, is the passage that answers it
 * among the top 3 results? Issue 25 asks for at least 90%; the figure is printed for the README.
 */
const { h, tenants } = useApi({ tenants: 1 });
const [a] = tenants;
let key: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));
let kbId: string;

beforeAll(async () => {
  key = await makeKey(h, a, ["ai:read", "ai:write"], UNLIMITED_KEY);
  kbId = (await call("POST", "/rag/knowledge-bases", { name: "Corpus" })).json().id;
  const res = await call("POST", `/rag/knowledge-bases/${kbId}/documents`, {
    documents: PASSAGES.map((p) => ({
      sourceType: "text",
      text: p.text,
      language: p.language,
      title: p.key,
      metadata: { key: p.key },
    })),
  });
  expect(res.statusCode, res.body).toBe(202);
  await runJobs(h, a, { kb_index: kbIndexJobHandler });
});

it("puts the answering passage in the top 3 for at least 90% of the questions", async () => {
  const misses: string[] = [];
  let top1 = 0;
  for (const { question, answer } of QUESTIONS) {
    const res = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: question, topK: 3 });
    expect(res.statusCode, res.body).toBe(200);
    const keys = res.json().data.map((r: { metadata: { key: string } }) => r.metadata.key);
    if (keys[0] === answer) top1 += 1;
    if (!keys.includes(answer)) misses.push(`${question} → ${keys.join(", ")}`);
  }
  const hits = QUESTIONS.length - misses.length;
  console.log(
    `RAG retrieval: ${hits}/${QUESTIONS.length} top-3 (${((hits / QUESTIONS.length) * 100).toFixed(1)}%), ` +
      `${top1}/${QUESTIONS.length} top-1, over ${PASSAGES.length} passages (pt, en)` +
      (misses.length > 0 ? `; missed: ${misses.join(" | ")}` : ""),
  );
  expect(hits / QUESTIONS.length).toBeGreaterThanOrEqual(0.9);
});
