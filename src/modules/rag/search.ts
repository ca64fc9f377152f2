/**
 * Retrieval: PostgreSQL full-text search over one knowledge base's chunks. The query is never parsed as tsquery
 * syntax: its words (letters and digits; at most MAX_WORDS of at most MAX_WORD_CHARS) go through plainto_tsquery
 * and to_tsvector in each language's configuration, so a question matches passages holding any of its words, in
 * their own document's language, ranked by how many and how often among a bounded set of candidates
 * (text-rank.ts). With an embeddings model, those candidates are re-ranked by meaning too (hybrid.ts).
 */
import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/rows.js";
import type { Principal } from "../../platform/auth/types.js";
import { notFound } from "../../platform/errors/app-error.js";
import { learnerCourseIds, readerOf } from "../courses/audience.js";
import { type AnswerDeps, answerFrom, type Found } from "./answer.js";
import { type EmbedDeps, embeddingProvider } from "./embeddings.js";
import { CANDIDATES, rerank } from "./hybrid.js";
import * as repo from "./repo.js";
import { resultOf } from "./result-row.js";
import type { SearchInput } from "./search-schemas.js";
import { textRanked } from "./text-rank.js";

const MAX_WORDS = 64;
const MAX_WORD_CHARS = 64;

/** The query's distinct words, bounded: the only part of it that reaches a text search function. */
export function queryWords(query: string): string {
  const words = new Set<string>();
  for (const match of query.normalize("NFC").matchAll(/[\p{L}\p{N}]+/gu)) {
    words.add(match[0].slice(0, MAX_WORD_CHARS).toLowerCase());
    if (words.size === MAX_WORDS) break;
  }
  return [...words].join(" ");
}

/** Search, and with `answer` the generated answer citing what was found (answer.ts). */
export async function searchAndAnswer(
  deps: AnswerDeps,
  tenantId: string,
  kbId: string,
  input: SearchInput,
  principal: Principal,
) {
  const found = await search(deps, tenantId, kbId, input, principal);
  const { rank, data } = found;
  if (input.answer !== true) return { rank, data };
  if (data.length === 0) return { rank, data, answer: null };
  return { rank, data, answer: await answerFrom(deps, { tenantId, principal, text: input.query, found }) };
}

/**
 * The ranked chunks. Without an embeddings model, the full-text rank alone, `minScore` and `topK` applied in SQL.
 * With one, a bounded set of full-text candidates re-ranked by meaning as well (hybrid.ts).
 */
export async function search(
  deps: EmbedDeps,
  tenantId: string,
  kbId: string,
  input: SearchInput,
  principal: Principal,
): Promise<Found> {
  const db = deps.ctx.database.db;
  const kb = await repo.findKnowledgeBase(db, tenantId, kbId);
  if (kb === undefined) throw notFound();
  const reader = readerOf(principal);
  const learner = reader.kind === "learner" ? reader.userId : undefined;
  if (learner !== undefined && kb.courseId !== null) {
    const [open] = await queryRows<{ ok: boolean }>(
      db,
      sql`SELECT EXISTS (${learnerCourseIds(tenantId, learner)} AND e.course_id = ${kb.courseId}) AS ok`,
    );
    if (open?.ok !== true) throw notFound();
  }
  const words = queryWords(input.query);
  if (words === "") return { data: [], courseId: kb.courseId, rank: "text" };
  const topK = input.topK ?? 8;
  const minScore = input.minScore ?? 0;
  const conditions: SQL[] = [];
  const filters = input.filters ?? {};
  if (filters.courseId !== undefined)
    conditions.push(sql`AND d.course_id = ${filters.courseId.toLowerCase()}::uuid`);
  if (filters.metadata !== undefined)
    conditions.push(sql`AND d.metadata @> ${JSON.stringify(filters.metadata)}::jsonb`);
  // An institution-wide knowledge base may hold lessons of any course: a learner reads those of their own only.
  if (learner !== undefined) {
    conditions.push(
      sql`AND (d.course_id IS NULL OR d.course_id IN (${learnerCourseIds(tenantId, learner)}))`,
    );
  }
  const text = { tenantId, kbId, words, conditions, languages: kb.languages };
  const found = await embeddingProvider(deps.ctx, tenantId);
  if (found === undefined) {
    const rows = await textRanked(db, { ...text, limit: topK, minScore });
    return { courseId: kb.courseId, rank: "text", data: rows.map((r) => resultOf(r)) };
  }
  const candidates = await textRanked(db, { ...text, limit: CANDIDATES, minScore: 0, model: found.model });
  const fused = await rerank(deps, found, { tenantId, principal, courseId: kb.courseId }, input, candidates);
  const { provider } = found;
  if (fused === undefined) {
    const rows = candidates.filter((r) => Number(r.score) >= minScore).slice(0, topK);
    return { courseId: kb.courseId, rank: "text", data: rows.map((r) => resultOf(r)), provider };
  }
  return { courseId: kb.courseId, rank: "hybrid", data: fused, provider };
}
