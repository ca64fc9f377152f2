/**
 * (x) RAG (issue 25), on PostgreSQL, through the real app listening on a loopback port in this process:
 *   (x1) indexing: a knowledge base's text documents added through POST …/documents (chunking `fixed`, 100 tokens,
 *        no overlap) and indexed by the job loop's own code (drainJobs, as a worker runs it): chunks per second;
 *   (x2) search: POST …/search {query, topK: 8} over a knowledge base of SMALL and one of LARGE chunks, the same
 *        QUERIES questions on each, interleaved over ROUNDS rounds after one unmeasured: p50 and p99 per size and
 *        p50(SMALL)/p50(LARGE) (target ≥ 0.8: flat).
 * The text is a synthetic language whose words follow Zipf's law (s = 1, VOCABULARY words), as natural language's
 * do, so a common word matches a share of the chunks whatever their number; questions are 4 words drawn the same
 * way from outside the 100 most frequent (the stop words a real language's configuration drops). Checks: every
 * document ready with the expected chunks, every search 200 with at most 8 results, best first.
 */
import { sql } from "drizzle-orm";
import { request } from "undici";
import type { Config } from "../src/config/index.js";
import type { Database } from "../src/db/client.js";
import { queryRows } from "../src/db/rows.js";
import { drainJobs } from "../src/modules/jobs/worker.js";
import { kbIndexJobHandler } from "../src/modules/rag/indexing.js";
import { analyze } from "../src/test-support/list-fixtures/types.js";
import { listenApp } from "./http.js";
import { makeKey, makeTenant } from "./seed.js";

const VOCABULARY = 50_000;
const STOP_WORDS = 100;
const CHUNK_TOKENS = 100;
/** Words per document: 150 chunks, about 1 MB for six of them (the body limit). */
const DOCUMENT_WORDS = CHUNK_TOKENS * 150;
const DOCUMENTS_PER_POST = 6;
const QUERIES = 100;
const ROUNDS = 3;

export interface RagResult {
  sizes: number[];
  indexing: { chunks: number; seconds: number; chunksPerSecond: number };
  search: Record<string, { p50: number; p99: number }>;
  ratio: number;
  problems: string[];
}

/** A seeded generator (mulberry32): the same corpus and questions on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = "ka ro mi tu se la ve no pi da re sul vor ten qua bri mon fe lo gan".split(" ");

/** Word `rank` of the language: distinct syllable strings, short ones the most frequent. */
function word(rank: number): string {
  let s = "";
  for (let n = rank + SYLLABLES.length; n > 0; n = Math.floor(n / SYLLABLES.length) - 1) {
    s += SYLLABLES[n % SYLLABLES.length];
  }
  return s;
}

/** Draws ranks by Zipf's law from a cumulative table, at least `from`. */
function zipf(next: () => number, from = 0): () => number {
  const cumulative = new Float64Array(VOCABULARY);
  let sum = 0;
  for (let r = 0; r < VOCABULARY; r++) {
    sum += r < from ? 0 : 1 / (r + 1);
    cumulative[r] = sum;
  }
  return () => {
    const x = next() * sum;
    let lo = 0;
    let hi = VOCABULARY - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const words = Array.from({ length: VOCABULARY }, (_, r) => word(r));

function documentText(draw: () => number): string {
  const out: string[] = [];
  for (let i = 0; i < DOCUMENT_WORDS; i++) out.push(words[draw()] as string);
  return out.join(" ");
}

async function post(base: string, path: string, headers: Record<string, string>, body: unknown) {
  const res = await request(`${base}/api/institution/rag/knowledge-bases${path}`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

export async function measureRag(
  database: Database,
  config: Config,
  sizes: { small: number; large: number },
  log: (line: string) => void,
): Promise<RagResult> {
  const db = database.db;
  const { app, ctx, base } = await listenApp(database, config);
  const problems: string[] = [];
  const draw = zipf(random(1));
  try {
    const targets: { size: number; kb: string; headers: Record<string, string> }[] = [];
    let indexed = { chunks: 0, seconds: 0 };
    for (const size of [sizes.small, sizes.large]) {
      const t = await makeTenant(db, config.plans, "rag");
      const headers = {
        host: `${t.slug}.${config.baseDomain}`,
        authorization: `Bearer ${await makeKey(db, t, ["ai:read", "ai:write"])}`,
      };
      const kb = await post(base, "", headers, {
        name: `Bench ${size}`,
        chunking: { strategy: "fixed", maxChunkTokens: CHUNK_TOKENS, overlapTokens: 0 },
      });
      const kbId = kb.body.id as string;
      const documents = Math.ceil(size / (DOCUMENT_WORDS / CHUNK_TOKENS));
      const s0 = performance.now();
      for (let d = 0; d < documents; d += DOCUMENTS_PER_POST) {
        const batch = Array.from({ length: Math.min(DOCUMENTS_PER_POST, documents - d) }, (_, i) => ({
          sourceType: "text",
          title: `Document ${d + i}`,
          language: "en",
          text: documentText(draw),
        }));
        const added = await post(base, `/${kbId}/documents`, headers, { documents: batch });
        if (added.status !== 202) problems.push(`documents: ${added.status}`);
      }
      const addSeconds = (performance.now() - s0) / 1000;
      const i0 = performance.now();
      const outcomes = await drainJobs(ctx, { kb_index: kbIndexJobHandler }, { tenantIds: [t.id] });
      const seconds = (performance.now() - i0) / 1000;
      if (outcomes.some((o) => o !== "succeeded")) problems.push(`indexing ended ${outcomes.join()}`);
      const [counts] = await queryRows<{ chunk_count: number }>(
        db,
        sql`SELECT chunk_count FROM knowledge_bases WHERE tenant_id = ${t.id} AND id = ${kbId}`,
      );
      const chunks = Number(counts?.chunk_count);
      if (chunks !== documents * (DOCUMENT_WORDS / CHUNK_TOKENS))
        problems.push(`${chunks} chunks at ${size}`);
      if (size === sizes.large) indexed = { chunks, seconds };
      log(
        `(x) rag: ${documents} documents added in ${addSeconds.toFixed(1)} s, ${chunks} chunks indexed in ` +
          `${seconds.toFixed(1)} s (${Math.round(chunks / seconds)} chunks/s)`,
      );
      targets.push({ size, kb: kbId, headers });
    }
    await analyze(db, "kb_chunks", "kb_documents");
    const ask = zipf(random(2), STOP_WORDS);
    const questions = Array.from({ length: QUERIES }, () =>
      Array.from({ length: 4 }, () => words[ask()]).join(" "),
    );
    const times = new Map<number, number[]>(targets.map((t) => [t.size, []]));
    for (let r = 0; r <= ROUNDS; r++) {
      for (const target of targets) {
        for (const query of questions) {
          const t0 = performance.now();
          const res = await post(base, `/${target.kb}/search`, target.headers, { query, topK: 8 });
          const ms = performance.now() - t0;
          const data = res.body.data as { score: number }[] | undefined;
          if (res.status !== 200 || data === undefined)
            problems.push(`search at ${target.size}: ${res.status}`);
          else if (data.length > 8 || data.some((row, k) => k > 0 && row.score > (data[k - 1]?.score ?? 0)))
            problems.push("search results out of order or over topK");
          if (r > 0) times.get(target.size)?.push(ms);
        }
      }
    }
    const search: Record<string, { p50: number; p99: number }> = {};
    for (const [size, list] of times) {
      list.sort((x, y) => x - y);
      const at = (q: number) => Math.round((list[Math.floor(q * (list.length - 1))] ?? 0) * 100) / 100;
      search[size] = { p50: at(0.5), p99: at(0.99) };
    }
    const ratio = Math.round(((search[sizes.small]?.p50 ?? 0) / (search[sizes.large]?.p50 ?? 1)) * 100) / 100;
    log(`(x) rag search: ${JSON.stringify(search)} ms, ratio ${ratio}`);
    return {
      sizes: [sizes.small, sizes.large],
      indexing: {
        chunks: indexed.chunks,
        seconds: Math.round(indexed.seconds * 10) / 10,
        chunksPerSecond: Math.round(indexed.chunks / indexed.seconds),
      },
      search,
      ratio,
      problems: [...new Set(problems)],
    };
  } finally {
    await app.close();
  }
}
