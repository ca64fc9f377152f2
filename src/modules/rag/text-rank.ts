/**
 * The full-text rank, over a bounded set of candidates: what a search ranks does not grow with its knowledge base.
 *
 * Ranking every chunk that holds any word of a question costs in proportion to the knowledge base: a common word
 * is in a fixed share of its chunks, so at 100,000 chunks a question ranked ten times the rows it ranked at 10,000
 * (`npm run bench` (x2): p50 130 ms against 15 ms). Here the candidates are gathered by probes of the GIN index
 * kb_chunks_lang_search_idx (knowledge base, language, tsvector), each taking at most PROBE_ROWS chunks: first,
 * per language, the chunks holding every word of the question (the best answers, and few); then, per lexeme,
 * chunks holding it. A rare word's chunks are all taken; a common word brings PROBE_ROWS of its own, and those of
 * its chunks that also hold another word of the question come through that word's probe or the first one. At most
 * CANDIDATE_ROWS candidates in all are ranked (ts_rank against the whole question, as before), the best `limit`
 * returned.
 *
 * A GIN index is read as a bitmap of every match before any LIMIT, so a probe still reads its lexeme's posting
 * list, which grows with the knowledge base; two rules keep those reads few. Only the knowledge base's own
 * languages are probed (knowledge_bases.languages: a probe of another still read the knowledge base's entries).
 * A lexeme in more than COMMON_SHARE of all chunks, by the statistics ANALYZE keeps of kb_chunks.tsv, is probed
 * last and only when the others found less than a page: a question's rare words decide its candidates, as they
 * would its relevance. Without statistics (an embedded database never analysed) every lexeme is probed.
 * What it gives up: in a knowledge base where every word of a question is in more than PROBE_ROWS chunks and no
 * chunk holds them all, a chunk holding only some may be missed; a chunk holding only a question's common words
 * is a candidate only when its rare words are nowhere.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { LANGUAGES, TS_CONFIG } from "./indexing.js";
import type { Row } from "./result-row.js";
import type { Language } from "./schemas.js";

/** Chunks one probe takes at most. */
export const PROBE_ROWS = 100;
/** Chunks ranked at most, from all the probes. */
export const CANDIDATE_ROWS = 1_000;
/**
 * A lexeme in more than this share of all chunks (PostgreSQL's statistics of kb_chunks.tsv, which ANALYZE keeps)
 * is probed only when the question's other probes found less than a page: its posting list is the longest to read,
 * and the chunks that hold it with another word of the question come through that word's probe.
 */
export const COMMON_SHARE = 0.01;

/** One configuration's query: the words' lexemes OR-ed (plainto_tsquery's output quotes each lexeme). */
const anyWord = (config: string, words: string): SQL =>
  sql`replace(plainto_tsquery(${config}::regconfig, ${words})::text, ' & ', ' | ')::tsquery`;

/** A language's query, against both configurations a chunk is indexed in (indexing.ts): what ranks. */
const languageQuery = (lang: Language, words: string): SQL =>
  sql`(${anyWord(TS_CONFIG[lang].native, words)} || ${anyWord(TS_CONFIG[lang].folded, words)})`;

/** Every word, in either configuration: the first probe of a language. */
const everyWord = (lang: Language, words: string): SQL =>
  sql`(plainto_tsquery(${TS_CONFIG[lang].native}::regconfig, ${words})
      || plainto_tsquery(${TS_CONFIG[lang].folded}::regconfig, ${words}))`;

/** The lexemes of the words in a language's two configurations. */
const lexemes = (lang: Language, words: string): SQL =>
  sql`(to_tsvector(${TS_CONFIG[lang].native}::regconfig, ${words})
      || to_tsvector(${TS_CONFIG[lang].folded}::regconfig, ${words}))`;

export interface TextQuery {
  tenantId: string;
  kbId: string;
  words: string;
  /** The knowledge base's languages (knowledge_bases.languages): the only ones probed. */
  languages: readonly string[];
  /** Conditions on the chunk's document `d` (filters, a learner's courses), ANDed. */
  conditions: SQL[];
  limit: number;
  minScore: number;
  /** With an embeddings model: each row says whether its chunk holds a vector of it. */
  model?: string;
}

/** The best chunks among the candidates (score, then id), at most `limit`. */
export async function textRanked(db: Executor, q: TextQuery): Promise<Row[]> {
  return probedLanguages(q).length === 0 ? [] : queryRows<Row>(db, textRankedSql(q));
}

/** The languages to probe: the knowledge base's (a probe of any other would still read its posting lists). */
const probedLanguages = (q: TextQuery): Language[] => LANGUAGES.filter((lang) => q.languages.includes(lang));

/** textRanked's statement, for a knowledge base with documents (its plan is tested at a size, text-rank.test.ts). */
export function textRankedSql(q: TextQuery): SQL {
  const languages = probedLanguages(q);
  const rank = sql`CASE c.language ${sql.join(
    languages.map((lang) => sql`WHEN ${lang} THEN ts_rank(c.tsv, q.${sql.identifier(lang)}, 1 | 32)`),
    sql` `,
  )} END`;
  const documents =
    q.conditions.length === 0
      ? sql``
      : sql`JOIN kb_documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id ${sql.join(q.conditions, sql` `)}`;
  const embedded =
    q.model === undefined
      ? sql``
      : sql`, (d.embedding_model = ${q.model} AND c.embedding IS NOT NULL) AS embedded`;
  const probe = sql`SELECT c.id, ${rank} AS score FROM kb_chunks c ${documents}
     WHERE c.tenant_id = ${q.tenantId} AND c.knowledge_base_id = ${q.kbId} AND c.language = p.lang
       AND c.tsv @@ p.tsq
     LIMIT ${PROBE_ROWS}`;
  return sql`WITH q AS MATERIALIZED (SELECT ${sql.join(
    languages.map((lang) => sql`${languageQuery(lang, q.words)} AS ${sql.identifier(lang)}`),
    sql`, `,
  )}),
    common AS MATERIALIZED (
      SELECT e.lexeme FROM pg_stats s,
        unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS e (lexeme, freq)
       WHERE s.schemaname = current_schema() AND s.tablename = 'kb_chunks' AND s.attname = 'tsv'
         AND e.lexeme IS NOT NULL AND e.freq > ${COMMON_SHARE}
    ),
    probes AS MATERIALIZED (
      SELECT lang, tsq, tier FROM (
        SELECT l.lang, l.tsq, 0 AS tier FROM (VALUES ${sql.join(
          languages.map((lang) => sql`(${lang}, ${everyWord(lang, q.words)})`),
          sql`, `,
        )}) AS l (lang, tsq)
        UNION
        SELECT l.lang, quote_literal(x)::tsquery,
               CASE WHEN EXISTS (SELECT 1 FROM common WHERE common.lexeme = x) THEN 2 ELSE 1 END
          FROM (VALUES ${sql.join(
            languages.map((lang) => sql`(${lang}, ${lexemes(lang, q.words)})`),
            sql`, `,
          )}) AS l (lang, v), unnest(tsvector_to_array(l.v)) AS x
      ) p ORDER BY tier, lang, tsq::text
    ),
    candidates AS MATERIALIZED (
      SELECT found.id, found.score FROM probes p, q, LATERAL (${probe}) found WHERE p.tier < 2
      LIMIT ${CANDIDATE_ROWS}
    ),
    -- A common lexeme's probe, only when the others found less than a page.
    fallback AS MATERIALIZED (
      SELECT found.id, found.score FROM probes p, q, LATERAL (${probe}) found
       WHERE p.tier = 2 AND (SELECT count(*) FROM candidates) < ${q.limit}
      LIMIT ${CANDIDATE_ROWS}
    ),
    best AS (
      SELECT DISTINCT id, score FROM (SELECT * FROM candidates UNION ALL SELECT * FROM fallback) found
       WHERE score >= ${q.minScore} ORDER BY score DESC, id LIMIT ${q.limit}
    )
    SELECT c.id, c.document_id, c.text, c.start_offset, c.end_offset, c.page, d.title, d.source_type, d.source_id,
           d.metadata, best.score ${embedded}
      FROM best
      JOIN kb_chunks c ON c.tenant_id = ${q.tenantId} AND c.id = best.id
      JOIN kb_documents d ON d.tenant_id = c.tenant_id AND d.id = c.document_id
    -- A lesson or file deleted since its document was indexed is never served, though its chunks stay until the
    -- next reindex fails the document: checked for the page's rows only, one primary-key probe each.
     WHERE CASE d.source_type
      WHEN 'lesson' THEN EXISTS (SELECT 1 FROM lessons l WHERE l.tenant_id = ${q.tenantId} AND l.id = d.source_id)
      WHEN 'media' THEN EXISTS (SELECT 1 FROM media m WHERE m.tenant_id = ${q.tenantId} AND m.id = d.source_id)
      ELSE true END
     ORDER BY best.score DESC, c.id`;
}
