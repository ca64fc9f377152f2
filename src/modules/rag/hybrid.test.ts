import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { callerFor, useApi } from "../../test-support/api.js";
import { FAKE_EMBEDDING_DIMS } from "../../test-support/fake-embedding.js";
import { FAKE_KEY, FAKE_MODEL, type FakeOpenAi, startFakeOpenAi } from "../../test-support/fake-openai.js";
import { adminCookie, makeKey, type TestTenant, UNLIMITED_KEY } from "../../test-support/harness.js";
import { runJobs } from "../../test-support/reports.js";
import { kbIndexJobHandler } from "./indexing.js";

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

const { h, tenants } = useApi({
  tenants: 3,
  env: () => ({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32", AI_MAX_RETRIES: "0" }),
});
const [a, plain, none] = tenants as [TestTenant, TestTenant, TestTenant];
const EMBED = "fake-embed";
const keys = new Map<string, string>();
const as = (t: TestTenant) => callerFor(h, () => ({ tenant: t, credential: keys.get(t.id) as string }));
const provider = (embeddingModel: string | null) => ({
  baseUrl: fake.baseUrl,
  apiKey: FAKE_KEY,
  defaultModel: FAKE_MODEL,
  embeddingModel,
});

/**
 * A question and four passages. Full text (stems, stop words dropped, length-normalised) ranks C first: it holds
 * `plant`, `light` and `food`; B holds `light` and `sun` among the question's own small words, which full text
 * ignores and the fake's bag of words keeps, so B is the closest by embedding and only second by full text.
 */
const QUESTION = "how do plants make their own food from the light of the sun";
const PASSAGES = {
  A: "Food, food and more food: a plant stores food in its roots, food in its seeds and food in its fruits.",
  B: "How do they do it? From the light of the sun, the way the leaves of a tree do.",
  C: "A plant needs light and water; food for the plant comes from the soil, people used to say.",
  D: "The sun is a star at the centre of the solar system.",
};

async function corpus(t: TestTenant) {
  const call = as(t);
  const kb = (await call("POST", "/rag/knowledge-bases", { name: "Plants" })).json();
  const added = await call("POST", `/rag/knowledge-bases/${kb.id}/documents`, {
    documents: Object.entries(PASSAGES).map(([title, text]) => ({
      sourceType: "text",
      title,
      text,
      language: "en",
    })),
  });
  expect(added.statusCode, added.body).toBe(202);
  await runJobs(h, t, { kb_index: kbIndexJobHandler });
  return kb.id as string;
}

const search = (t: TestTenant, kbId: string, body: object = {}) =>
  as(t)("POST", `/rag/knowledge-bases/${kbId}/search`, { query: QUESTION, ...body });
const titles = (res: { json(): { data: { citation: { title: string } }[] } }) =>
  res.json().data.map((r) => r.citation.title);
const embeddingCalls = () => fake.received.filter((r) => r.url.endsWith("/v1/embeddings")).length;
const ledger = (t: TestTenant) =>
  queryRows<{ feature: string; model: string; outcome: string; input_tokens: number }>(
    h.database.db,
    sql`SELECT feature, model, outcome, input_tokens FROM ai_ledger WHERE tenant_id = ${t.id} ORDER BY occurred_at, id`,
  );

beforeAll(async () => {
  for (const t of [a, plain, none])
    keys.set(t.id, await makeKey(h, t, ["ai:read", "ai:write"], UNLIMITED_KEY));
  const put = await as(a)("PUT", "/ai/provider", provider(EMBED), await adminCookie(h, a));
  expect(put.statusCode, put.body).toBe(200);
  expect(put.json().embeddingModel).toBe(EMBED);
  await as(plain)("PUT", "/ai/provider", provider(null), await adminCookie(h, plain));
});

describe("embeddings and the hybrid rank", () => {
  let kbId: string;

  it("stores a unit vector per chunk at indexing, through the provider, in the ledger", async () => {
    const before = embeddingCalls();
    kbId = await corpus(a);
    expect(embeddingCalls() - before).toBe(4);
    const sent = JSON.parse(
      fake.received.filter((r) => r.url.endsWith("/v1/embeddings")).at(-1)?.body ?? "{}",
    );
    expect(sent).toMatchObject({ model: EMBED, encoding_format: "float" });
    expect(Array.isArray(sent.input)).toBe(true);
    const chunks = await queryRows<{ dims: number; norm: number }>(
      h.database.db,
      sql`SELECT array_length(embedding, 1) AS dims,
            (SELECT sqrt(sum(x * x)) FROM unnest(embedding) AS x) AS norm
          FROM kb_chunks WHERE tenant_id = ${a.id} AND knowledge_base_id = ${kbId}`,
    );
    expect(chunks).toHaveLength(4);
    for (const c of chunks) {
      expect(c.dims).toBe(FAKE_EMBEDDING_DIMS);
      expect(Number(c.norm)).toBeCloseTo(1, 5);
    }
    const docs = (await as(a)("GET", `/rag/knowledge-bases/${kbId}/documents`)).json().data;
    expect(docs.map((d: { embeddingModel: string }) => d.embeddingModel)).toEqual([
      EMBED,
      EMBED,
      EMBED,
      EMBED,
    ]);
    const rows = await ledger(a);
    expect(rows).toHaveLength(4);
    for (const r of rows)
      expect(r).toMatchObject({ feature: "rag_indexing", model: EMBED, outcome: "completed" });
    expect(rows.every((r) => r.input_tokens > 0)).toBe(true);
  });

  it("puts the passage closest by embedding first, where full text alone ranks it second", async () => {
    const textOnly = await search(plain, await corpus(plain));
    expect(textOnly.json().rank).toBe("text");
    expect(titles(textOnly)[0]).toBe("C");
    expect(titles(textOnly).indexOf("B")).toBeGreaterThan(0);

    const before = embeddingCalls();
    const ledgerBefore = (await ledger(a)).length;
    const res = await search(a, kbId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.rank).toBe("hybrid");
    expect(titles(res)[0]).toBe("B");
    expect(titles(res)).toHaveLength(4);
    expect(body.data[0].score).toBeGreaterThan(body.data[1].score);
    expect(body.data[0].score).toBeLessThanOrEqual(1);
    // B is the closest by meaning, C the first by full text: each gets its 1/(60 + 1) once.
    const sims = body.data.map((r: { similarity: number }) => r.similarity);
    expect(Math.max(...sims)).toBe(sims[0]);
    expect(embeddingCalls() - before).toBe(1);
    const rows = await ledger(a);
    expect(rows.slice(ledgerBefore)).toEqual([
      expect.objectContaining({ feature: "rag_search", model: EMBED, outcome: "completed" }),
    ]);
    // topK and minScore apply to the fused order.
    expect(titles(await search(a, kbId, { topK: 1 }))).toEqual(["B"]);
    expect((await search(a, kbId, { minScore: 0.999 })).json().data).toEqual([]);
  });

  it("without an embeddings model ranks as full text always did, and calls no model", async () => {
    const kbNone = await corpus(none);
    const kbPlain = await corpus(plain);
    const before = fake.received.length;
    const fromNone = (await search(none, kbNone)).json();
    const fromPlain = (await search(plain, kbPlain)).json();
    expect(fake.received.length).toBe(before);
    expect(fromNone.rank).toBe("text");
    const strip = (b: typeof fromNone) =>
      b.data.map((r: { score: number; text: string; similarity?: number }) => [
        r.text,
        r.score,
        r.similarity,
      ]);
    expect(strip(fromPlain)).toEqual(strip(fromNone));
    expect(fromNone.data.every((r: object) => !("similarity" in r))).toBe(true);
    expect(await ledger(none)).toEqual([]);
    const docs = (await as(none)("GET", `/rag/knowledge-bases/${kbNone}/documents`)).json().data;
    expect(docs.every((d: { embeddingModel: null }) => d.embeddingModel === null)).toBe(true);
  });

  it("ranks chunks embedded by no model or another by full text, without an embeddings call", async () => {
    const kb = await corpus(plain);
    expect(
      (await as(plain)("PUT", "/ai/provider", provider(EMBED), await adminCookie(h, plain))).statusCode,
    ).toBe(200);
    const before = embeddingCalls();
    const res = await search(plain, kb);
    expect(res.json().rank).toBe("text");
    expect(titles(res)[0]).toBe("C");
    expect(embeddingCalls()).toBe(before);
    // A re-index embeds them with the model now named.
    expect((await as(plain)("POST", `/rag/knowledge-bases/${kb}/reindex`)).statusCode).toBe(202);
    await runJobs(h, plain, { kb_index: kbIndexJobHandler });
    const after = await search(plain, kb);
    expect(after.json().rank).toBe("hybrid");
    expect(titles(after)[0]).toBe("B");
    await as(plain)("PUT", "/ai/provider", provider(null), await adminCookie(h, plain));
  });

  it("falls back to full text when the query's embedding fails, and records the failed call", async () => {
    fake.failNext(1, 500);
    const res = await search(a, kbId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rank).toBe("text");
    expect(titles(res)[0]).toBe("C");
    expect((await ledger(a)).at(-1)).toMatchObject({
      feature: "rag_search",
      outcome: "failed",
      input_tokens: 0,
    });
  });

  it("keeps another tenant's knowledge base and vectors out of reach", async () => {
    const res = await search(none, kbId);
    expect(res.statusCode).toBe(404);
    const [row] = await queryRows<{ n: number }>(
      h.database.db,
      sql`SELECT count(*)::int AS n FROM kb_chunks WHERE tenant_id = ${none.id} AND embedding IS NOT NULL`,
    );
    expect(row?.n).toBe(0);
  });
});
