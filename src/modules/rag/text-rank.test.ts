import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { callerFor, useApi } from "../../test-support/api.js";
import { makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";
import { runJobs } from "../../test-support/reports.js";
import { kbIndexJobHandler } from "./indexing.js";
import { queryWords } from "./search.js";
import { PROBE_ROWS, textRankedSql } from "./text-rank.js";

const { h, tenants } = useApi({ tenants: 1 });
const [a] = tenants;
let key: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));

/** Chunks of the knowledge base: each holds the common word, one in the middle also a rare one. */
const CHUNKS = PROBE_ROWS * 4;
let kbId: string;

beforeAll(async () => {
  key = await makeKey(h, a, ["ai:read", "ai:write"], UNLIMITED_KEY);
  const kb = await call("POST", "/rag/knowledge-bases", {
    name: "Big",
    chunking: { strategy: "fixed", maxChunkTokens: 100, overlapTokens: 0 },
  });
  kbId = kb.json().id;
  // 100 words a chunk: "membrane" and a chunk's own number, then filler; chunk RARE also says "mitochondria".
  const chunk = (i: number) =>
    [
      `membrane n${i}`,
      ...(i === CHUNKS / 2 ? ["mitochondria"] : []),
      ..."cell wall ".repeat(49).trim().split(" "),
    ]
      .slice(0, 100)
      .join(" ");
  // Four documents of PROBE_ROWS chunks (a document's text is at most 200,000 characters).
  const documents = Array.from({ length: 4 }, (_, d) => ({
    sourceType: "text",
    title: `Cells ${d}`,
    language: "en",
    text: Array.from({ length: PROBE_ROWS }, (_, i) => chunk(d * PROBE_ROWS + i)).join(" "),
  }));
  const added = await call("POST", `/rag/knowledge-bases/${kbId}/documents`, { documents });
  expect(added.statusCode, added.body).toBe(202);
  await runJobs(h, a, { kb_index: kbIndexJobHandler });
  // The knowledge base knows its documents' languages, the only ones a search probes.
  const [row] = await queryRows<{ languages: string[] }>(
    h.database.db,
    sql`SELECT languages FROM knowledge_bases WHERE tenant_id = ${a.id} AND id = ${kbId}`,
  );
  expect(row?.languages).toEqual(["en"]);
  const got = await call("GET", `/rag/knowledge-bases/${kbId}`);
  expect(got.json().chunkCount).toBeGreaterThanOrEqual(CHUNKS);
  // Another knowledge base of the institution, where every chunk holds the rare word.
  const other = await call("POST", "/rag/knowledge-bases", {
    name: "Other",
    chunking: { strategy: "fixed", maxChunkTokens: 100, overlapTokens: 0 },
  });
  const mitochondria = Array.from({ length: 20 }, () => "mitochondria ".repeat(100).trim()).join(" ");
  const more = await call("POST", `/rag/knowledge-bases/${other.json().id}/documents`, {
    documents: [{ sourceType: "text", title: "Mitochondria", language: "en", text: mitochondria }],
  });
  expect(more.statusCode, more.body).toBe(202);
  await runJobs(h, a, { kb_index: kbIndexJobHandler });
});

interface PlanNode {
  "Node Type": string;
  "CTE Name"?: string;
  "Subplan Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/** The plan of a search of `words` in the knowledge base, as run. */
async function planOf(words: string): Promise<PlanNode> {
  const query = textRankedSql({
    tenantId: a.id,
    kbId,
    words: queryWords(words),
    languages: ["en"],
    conditions: [],
    limit: 8,
    minScore: 0,
  });
  const [row] = await queryRows<{ "QUERY PLAN": [{ Plan: PlanNode }] | string }>(
    h.database.db,
    sql`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`,
  );
  const raw = row?.["QUERY PLAN"];
  return (typeof raw === "string" ? JSON.parse(raw) : raw)[0].Plan as PlanNode;
}

describe("the full-text rank", () => {
  it("ranks a bounded set of candidates, however many chunks hold the question's words", async () => {
    const plan = await planOf("membrane");
    const chunkReads = nodes(plan).filter(
      (n) => n["Node Type"] === "Bitmap Heap Scan" || n["Node Type"] === "Index Scan",
    );
    // Every chunk holds the word; each probe (every word, then the word's lexeme, in English) stops at its bound.
    const probes = chunkReads.filter((n) => n["Actual Loops"] > 1 || n["Actual Rows"] > 8);
    expect(probes.length).toBeGreaterThan(0);
    for (const probe of probes) expect(probe["Actual Rows"]).toBeLessThanOrEqual(PROBE_ROWS * 2);
    const candidates = nodes(plan).find(
      (n) => n["CTE Name"] === "candidates" || n["Subplan Name"] === "CTE candidates",
    );
    expect(candidates?.["Actual Rows"]).toBeLessThanOrEqual(PROBE_ROWS * 2);
    expect(candidates?.["Actual Rows"]).toBeLessThan(CHUNKS);
  });

  it("reads only the knowledge base's own postings of a word, through the search keys alone", async () => {
    const plan = await planOf("mitochondria");
    const indexScans = nodes(plan).filter(
      (n) => n["Node Type"] === "Bitmap Index Scan" && n["Index Name"]?.startsWith("kb_chunks"),
    );
    expect(indexScans.length).toBeGreaterThan(0);
    for (const scan of indexScans) {
      expect(scan["Index Name"]).toBe("kb_chunks_search_keys_idx");
      // The other knowledge base's twenty chunks holding the word are not in this one's posting list.
      expect(scan["Actual Rows"]).toBeLessThanOrEqual(1);
    }
    // No probe is ANDed with an index of the institution's every chunk (the primary key's tenant_id).
    expect(nodes(plan).some((n) => n["Node Type"] === "BitmapAnd")).toBe(false);
  });

  it("finds the chunk holding every word of the question first, wherever it is among those holding one", async () => {
    const res = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: "membrane mitochondria" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data[0].text).toContain("mitochondria");
    expect(res.json().data).toHaveLength(8);
    // The rare word alone reaches it too, though the common word's probe stops long before it.
    const rare = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: "mitochondria" });
    expect(rare.json().data.map((r: { text: string }) => r.text.includes("mitochondria"))).toEqual([true]);
  });
});
