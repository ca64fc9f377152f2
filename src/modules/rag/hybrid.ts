/**
 * The hybrid rank. Full-text search gives the candidates: at most CANDIDATES chunks matching any word of the query
 * (the OR form of search.ts, so a passage close in meaning that shares a single term is one), best first. The query
 * is embedded once (embeddings.ts), each candidate holding a vector of the same model gets its cosine similarity
 * (a dot product of unit vectors, computed in SQL over those candidates alone: no vector index is needed, and the
 * work is bounded whatever the size of the knowledge base), and the candidates are fused by reciprocal rank:
 * 1/(K + text rank) + 1/(K + similarity rank), a candidate without a vector having the first term only. The
 * score is that sum over its best (both ranks 1), in 0–1; `minScore` applies to it.
 */
import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/rows.js";
import type { Principal } from "../../platform/auth/types.js";
import type { ResolvedProvider } from "../ai/provider.js";
import { type EmbedDeps, embedQuery, vectorLiteral } from "./embeddings.js";
import { type Row, resultOf } from "./result-row.js";
import type { SearchInput, SearchResultRecord } from "./search-schemas.js";

/** Full-text candidates re-ranked, at most (topK is at most 50). */
export const CANDIDATES = 100;
/** Reciprocal rank fusion's constant (Cormack et al.'s 60). */
export const RRF_K = 60;
const BEST = 2 / (RRF_K + 1);

/** Each embedded candidate's cosine similarity to the query's vector. */
async function similarities(
  deps: EmbedDeps,
  tenantId: string,
  ids: string[],
  vector: number[],
): Promise<Map<string, number>> {
  const q = sql`${vectorLiteral(vector)}::real[]`;
  const rows = await queryRows<{ id: string; similarity: number | null }>(
    deps.ctx.database.db,
    sql`SELECT c.id, CASE WHEN array_length(c.embedding, 1) = array_length(${q}, 1)
          THEN (SELECT sum(a * b) FROM unnest(c.embedding, ${q}) AS t(a, b)) END AS similarity
        FROM kb_chunks c
       WHERE c.tenant_id = ${tenantId} AND c.id IN (${sql.join(
         ids.map((id): SQL => sql`${id}::uuid`),
         sql`, `,
       )})`,
  );
  const out = new Map<string, number>();
  for (const r of rows) if (r.similarity !== null) out.set(r.id, Number(r.similarity));
  return out;
}

/**
 * The candidates fused, `minScore` and `topK` applied; undefined when none holds a vector of the model or the
 * query cannot be embedded (the caller then ranks by full text alone).
 */
export async function rerank(
  deps: EmbedDeps,
  found: { provider: ResolvedProvider; model: string },
  who: { tenantId: string; principal: Principal; courseId: string | null },
  input: SearchInput,
  candidates: Row[],
): Promise<SearchResultRecord[] | undefined> {
  const embedded = candidates.filter((r) => r.embedded === true).map((r) => r.id);
  if (embedded.length === 0) return undefined;
  const vector = await embedQuery(deps, found, who.tenantId, who.principal, who.courseId, input.query);
  if (vector === undefined) return undefined;
  const similarity = await similarities(deps, who.tenantId, embedded, vector);
  const byMeaning = [...similarity.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  const meaningRank = new Map(byMeaning.map(([id], i) => [id, i + 1]));
  const fused = candidates.map((r, i) => {
    const m = meaningRank.get(r.id);
    const sum = 1 / (RRF_K + i + 1) + (m === undefined ? 0 : 1 / (RRF_K + m));
    return { row: r, score: Math.min(1, sum / BEST), similarity: similarity.get(r.id) ?? null, textRank: i };
  });
  fused.sort(
    (x, y) => y.score - x.score || (y.similarity ?? -2) - (x.similarity ?? -2) || x.textRank - y.textRank,
  );
  const minScore = input.minScore ?? 0;
  return fused
    .filter((f) => f.score >= minScore)
    .slice(0, input.topK ?? 8)
    .map((f) => resultOf(f.row, { score: f.score, similarity: f.similarity }));
}
