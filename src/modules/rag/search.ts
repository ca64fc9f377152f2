/**
 * Retrieval: PostgreSQL full-text search over one knowledge base's chunks (kb_chunks_search_idx, a GIN index of
 * (knowledge_base_id, tsv)). The query is never parsed as tsquery syntax: its words (letters and digits; at most
 * MAX_WORDS of at most MAX_WORD_CHARS) go through plainto_tsquery in each language's configuration, and the
 * lexemes it answers, plain words in quotes, are joined with OR, so a question matches passages holding any of
 * its words, ranked by how many and how often. A chunk is matched in its own document's language. With an
 * embeddings model, those candidates are re-ranked by meaning too (hybrid.ts).
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import type { Principal } from "../../platform/auth/types.js";
import { notFound } from "../../platform/errors/app-error.js";
import { learnerCourseIds, readerOf } from "../courses/audience.js";
import { type AnswerDeps, answerFrom } from "./answer.js";
import { type EmbedDeps, embeddingProvider } from "./embeddings.js";
import { CANDIDATES, rerank } from "./hybrid.js";
import { LANGUAGES, TS_CONFIG } from "./indexing.js";
import * as repo from "./repo.js";
import { type Row, resultOf } from "./result-row.js";
import type { Language } from "./schemas.js";
import type { SearchInput, SearchResultRecord } from "./search-schemas.js";

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

/** One configuration's query: the words' lexemes OR-ed (plainto_tsquery's output quotes each lexeme). */
const anyWord = (config: string, words: string): SQL =>
  sql`replace(plainto_tsquery(${config}::regconfig, ${words})::text, ' & ', ' | ')::tsquery`;

/** A language's query, against both configurations a chunk is indexed in (indexing.ts). */
const languageQuery = (lang: Language, words: string): SQL =>
  sql`(${anyWord(TS_CONFIG[lang].native, words)} || ${anyWord(TS_CONFIG[lang].folded, words)})`;

/** Search, and with `answer` the generated answer citing what was found (answer.ts). */
export async function searchAndAnswer(
  deps: AnswerDeps,
  tenantId: string,
  kbId: string,
  input: SearchInput,
  principal: Principal,
) {
  const { data, courseId, rank } = await search(deps, tenantId, kbId, input, principal);
  if (input.answer !== true) return { rank, data };
  if (data.length === 0) return { rank, data, answer: null };
  return { rank, data, answer: await answerFrom(deps, tenantId, principal, courseId, input.query, data) };
}

export interface Found {
  data: SearchResultRecord[];
  courseId: string | null;
  rank: "text" | "hybrid";
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
  const text = { tenantId, kbId, words, conditions };
  const found = await embeddingProvider(deps.ctx, tenantId);
  if (found === undefined) {
    const rows = await textRanked(db, { ...text, limit: topK, minScore });
    return { courseId: kb.courseId, rank: "text", data: rows.map((r) => resultOf(r)) };
  }
  const candidates = await textRanked(db, { ...text, limit: CANDIDATES, minScore: 0, model: found.model });
  const fused = await rerank(deps, found, { tenantId, principal, courseId: kb.courseId }, input, candidates);
  if (fused === undefined) {
    const rows = candidates.filter((r) => Number(r.score) >= minScore).slice(0, topK);
    return { courseId: kb.courseId, rank: "text", data: rows.map((r) => resultOf(r)) };
  }
  return { courseId: kb.courseId, rank: "hybrid", data: fused };
}

/**
 * The chunks matching any word of the query, best first (score, then id), at most `limit`; with `model`, each row
 * says whether its chunk holds an embedding of that model.
 */
async function textRanked(
  db: Executor,
  q: {
    tenantId: string;
    kbId: string;
    words: string;
    conditions: SQL[];
    limit: number;
    minScore: number;
    model?: string;
  },
): Promise<Row[]> {
  const match = sql.join(
    LANGUAGES.map((lang) => sql`(c.language = ${lang} AND c.tsv @@ q.${sql.identifier(lang)})`),
    sql` OR `,
  );
  const rank = sql`CASE c.language ${sql.join(
    LANGUAGES.map((lang) => sql`WHEN ${lang} THEN ts_rank(c.tsv, q.${sql.identifier(lang)}, 1 | 32)`),
    sql` `,
  )} END`;
  const embedded =
    q.model === undefined
      ? sql``
      : sql`, (d.embedding_model = ${q.model} AND c.embedding IS NOT NULL) AS embedded`;
  return queryRows<Row>(
    db,
    sql`WITH q AS MATERIALIZED (SELECT ${sql.join(
      LANGUAGES.map((lang) => sql`${languageQuery(lang, q.words)} AS ${sql.identifier(lang)}`),
      sql`, `,
    )})
    SELECT * FROM (SELECT * FROM (
      SELECT c.id, c.document_id, c.text, c.start_offset, c.end_offset, c.page, d.title, d.source_type, d.source_id,
             d.metadata, ${rank} AS score ${embedded}
        FROM q, kb_chunks c
        JOIN kb_documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id
       WHERE c.tenant_id = ${q.tenantId} AND c.knowledge_base_id = ${q.kbId} AND (${match})
             ${sql.join(q.conditions, sql` `)}
    ) ranked
    WHERE score >= ${q.minScore}
    ORDER BY score DESC, id
    LIMIT ${q.limit}
    ) best
    -- A lesson or file deleted since its document was indexed is never served, though its chunks stay until the
    -- next reindex fails the document: checked for the page's rows only, one primary-key probe each.
    WHERE CASE best.source_type
      WHEN 'lesson' THEN EXISTS (SELECT 1 FROM lessons l WHERE l.tenant_id = ${q.tenantId} AND l.id = best.source_id)
      WHEN 'media' THEN EXISTS (SELECT 1 FROM media m WHERE m.tenant_id = ${q.tenantId} AND m.id = best.source_id)
      ELSE true END
    ORDER BY score DESC, id`,
  );
}
