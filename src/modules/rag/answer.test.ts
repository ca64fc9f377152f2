import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { callerFor, useApi } from "../../test-support/api.js";
import { FAKE_KEY, FAKE_MODEL, type FakeOpenAi, startFakeOpenAi } from "../../test-support/fake-openai.js";
import { adminCookie, makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";
import { runJobs } from "../../test-support/reports.js";
import { kbIndexJobHandler } from "./indexing.js";

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

const { h, tenants } = useApi({ tenants: 2, env: () => ({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" }) });
const [a, none] = tenants;
let key: string;
let keyNone: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));

async function kbWithText(caller: typeof call, tenant: typeof a) {
  const kb = (await caller("POST", "/rag/knowledge-bases", { name: "Ciências" })).json();
  await caller("POST", `/rag/knowledge-bases/${kb.id}/documents`, {
    documents: [
      {
        sourceType: "text",
        title: "Fotossíntese",
        text: "A fotossíntese acontece nos cloroplastos das plantas.",
      },
      { sourceType: "text", title: "Respiração", text: "A respiração celular acontece nas mitocôndrias." },
    ],
  });
  await runJobs(h, tenant, { kb_index: kbIndexJobHandler });
  return kb.id as string;
}

beforeAll(async () => {
  key = await makeKey(h, a, ["ai:read", "ai:write"], UNLIMITED_KEY);
  keyNone = await makeKey(h, none, ["ai:read", "ai:write"], UNLIMITED_KEY);
  const put = await call(
    "PUT",
    "/ai/provider",
    { baseUrl: fake.baseUrl, apiKey: FAKE_KEY, defaultModel: FAKE_MODEL },
    await adminCookie(h, a),
  );
  expect(put.statusCode, put.body).toBe(200);
});

it("answers through the provider from the chunks found, citing the ones it used, and writes the ledger", async () => {
  const kbId = await kbWithText(call, a);
  fake.answer = "Nos cloroplastos [1]; veja também [9].";
  const before = fake.received.length;
  const res = await call("POST", `/rag/knowledge-bases/${kbId}/search`, {
    query: "Onde acontece a fotossíntese?",
    answer: true,
  });
  expect(res.statusCode, res.body).toBe(200);
  const { data, answer } = res.json();
  expect(data[0].citation.title).toBe("Fotossíntese");
  expect(answer).toMatchObject({ text: "Nos cloroplastos [1]; veja também [9].", model: FAKE_MODEL });
  // [9] names no source: only the real one is cited.
  expect(answer.citations).toEqual([
    { source: 1, chunkId: data[0].chunkId, documentId: data[0].documentId, ...data[0].citation },
  ]);
  expect(answer.usage.outputTokens).toBe(5);
  expect(fake.received.length).toBe(before + 1);
  const sent = JSON.parse(fake.received.at(-1)?.body ?? "{}");
  expect(sent.messages[1].content).toContain("[1] Fotossíntese\nA fotossíntese acontece nos cloroplastos");
  expect(sent.messages[1].content).toContain("Question: Onde acontece a fotossíntese?");
  const ledger = await queryRows<{ feature: string; outcome: string; output_tokens: number }>(
    h.database.db,
    sql`SELECT feature, outcome, output_tokens FROM ai_ledger WHERE tenant_id = ${a.id}`,
  );
  expect(ledger).toEqual([{ feature: "rag_search", outcome: "completed", output_tokens: 5 }]);

  // Search alone, and an answer with nothing found, call no model.
  const plain = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: "fotossíntese" });
  expect(plain.json().answer).toBeUndefined();
  const empty = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: "zzzz", answer: true });
  expect(empty.json()).toEqual({ rank: "text", data: [], answer: null });
  expect(fake.received.length).toBe(before + 1);
});

it("is 503 ai_not_configured without a provider, while search alone still works", async () => {
  const other = callerFor(h, () => ({ tenant: none, credential: keyNone }));
  const kbId = await kbWithText(other, none);
  const res = await other("POST", `/rag/knowledge-bases/${kbId}/search`, {
    query: "fotossíntese",
    answer: true,
  });
  expect(res.statusCode, res.body).toBe(503);
  expect(res.json().error).toBe("ai_not_configured");
  expect(
    (await other("POST", `/rag/knowledge-bases/${kbId}/search`, { query: "fotossíntese" })).statusCode,
  ).toBe(200);
});
