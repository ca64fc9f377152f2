/**
 * The full-text rank, over a bounded set of candidates: what a search ranks does not grow with its knowledge base.
 *
 * Ranking every chunk that holds any word of a question costs in proportion to the knowledge base: a common word
 * is in a fixed share of its chunks, so at 100,000 chunks a question ranked ten times the rows it ranked at 10,000
 * (`npm run bench` (x2): p50 130 ms against 15 ms). Here the candidates are gathered by probes of the GIN index of
 * kb_chunks.search_keys (each lexeme of a chunk hashed with its knowledge base and language, migration 0072), each
 * taking at most PROBE_ROWS chunks: first, per language, the chunks holding every word of the question (the best
 * answers, and few); then, per lexeme, the rarest first, chunks holding it. At most CANDIDATE_ROWS candidates in
 * all are ranked (ts_rank against the whole question), the best `limit` returned.
 *
 * A GIN index is read as a bitmap of every match before any LIMIT, so a probe reads its key's whole posting list.
 * A key's list holds one knowledge base's chunks in one language only; an index of (knowledge_base_id, language,
 * tsv) intersected the lexeme's list with lists of every chunk of the knowledge base, which made each probe cost in
 * proportion to the knowledge base (ratio of p50s 0.58 in (x2)). A key in more than COMMON_POSTINGS chunks, by the
 * statistics ANALYZE keeps of kb_chunks.search_keys, is probed last and only when the others found less than a
 * page: a question's rare words decide its candidates, as they would its relevance. Without statistics (an
 * embedded database never analysed) every lexeme is probed. The statistics list the table's most common keys
 * (1,000 at the default statistics target): in a table of many knowledge bases, a big one's common key may be
 * missing from them, and its probe then reads its whole posting list.
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
export const PROBE_ROWS = 50;
/** Chunks ranked at most, from all the probes. */
export const CANDIDATE_ROWS = 250;
/**
 * A key in more chunks than this, by PostgreSQL's statistics of kb_chunks.search_keys (which ANALYZE keeps), is
 * probed only when the question's other probes found less than a page: its posting list is the longest to read, and
 * the chunks that hold it with another word of the question come through that word's probe.
 */
export const COMMON_POSTINGS = 1_000;

/** One configuration's query: the words' lexemes OR-ed (plainto_tsquery's output quotes each lexeme). */
const anyWord = (config: string, words: string): SQL =>
  sql`replace(plainto_tsquery(${config}::regconfig, ${words})::text, ' & ', ' | ')::tsquery`;

/** A language's query, against both configurations a chunk is indexed in (indexing.ts): what ranks. */
const languageQuery = (lang: Language, words: string): SQL =>
  sql`(${anyWord(TS_CONFIG[lang].native, words)} || ${anyWord(TS_CONFIG[lang].folded, words)})`;

/**
 * The probes of every word of a language, one per configuration: the keys whose posting lists the index
 * intersects, and the query that rechecks a chunk (a key's hash may be another's).
 */
const everyWord = (kbId: string, lang: Language, words: string): SQL[] =>
  [TS_CONFIG[lang].native, TS_CONFIG[lang].folded].map((config) => {
    const keys = sql`kb_search_keys(${kbId}::uuid, ${lang}, to_tsvector(${config}::regconfig, ${words}))`;
    return sql`(${lang}, ${keys}, plainto_tsquery(${config}::regconfig, ${words}))`;
  });

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
     WHERE c.search_keys @> p.keys
       -- A recheck of what the keys hold already, which no index serves: with tenant_id = …, the planner ANDs
       -- the keys' bitmap with the primary key's of every chunk of the institution.
       AND c.tenant_id IS NOT DISTINCT FROM ${q.tenantId}::uuid
       AND c.knowledge_base_id = ${q.kbId} AND c.language = p.lang AND c.tsv @@ p.tsq
     LIMIT ${PROBE_ROWS}`;
  return sql`WITH q AS MATERIALIZED (SELECT ${sql.join(
    languages.map((lang) => sql`${languageQuery(lang, q.words)} AS ${sql.identifier(lang)}`),
    sql`, `,
  )}),
    -- The keys PostgreSQL's statistics count among the most common, with the chunks each is in (estimated).
    common AS MATERIALIZED (
      SELECT e.key, e.freq * (SELECT reltuples FROM pg_class WHERE oid = to_regclass('kb_chunks')) AS postings
        FROM pg_stats s, unnest(s.most_common_elems::text::integer[], s.most_common_elem_freqs) AS e (key, freq)
       WHERE s.schemaname = current_schema() AND s.tablename = 'kb_chunks' AND s.attname = 'search_keys'
         AND e.key IS NOT NULL
    ),
    -- Every word first, then each lexeme, the rarest first (one the statistics do not list is rarer than any they
    -- do), so that the bound on candidates drops the commonest lexemes' chunks.
    probes AS MATERIALIZED (
      SELECT lang, keys, tsq, tier FROM (
        SELECT l.lang, l.keys, l.tsq, 0 AS tier, 0 AS postings FROM (VALUES ${sql.join(
          languages.flatMap((lang) => everyWord(q.kbId, lang, q.words)),
          sql`, `,
        )}) AS l (lang, keys, tsq)
        UNION
        SELECT l.lang, x.keys, quote_literal(x.lexeme)::tsquery,
               CASE WHEN common.postings > ${COMMON_POSTINGS} THEN 2 ELSE 1 END, coalesce(common.postings, 0)
          FROM (VALUES ${sql.join(
            languages.map((lang) => sql`(${lang}, ${lexemes(lang, q.words)})`),
            sql`, `,
          )}) AS l (lang, v),
          LATERAL (SELECT lexeme, kb_search_keys(${q.kbId}::uuid, l.lang, array_to_tsvector(ARRAY[lexeme])) AS keys
                     FROM unnest(tsvector_to_array(l.v)) AS lexeme) x
          LEFT JOIN common ON common.key = x.keys[1]
      ) p
      -- No keys (the words were all stop words) would take every chunk.
      WHERE cardinality(keys) > 0
      ORDER BY tier, postings, lang, tsq::text
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
    -- job its delete queued fails the document (reindex.ts): checked for the page's rows only, a key probe each.
     WHERE CASE d.source_type
      WHEN 'lesson' THEN EXISTS (SELECT 1 FROM lessons l WHERE l.tenant_id = ${q.tenantId} AND l.id = d.source_id)
      WHEN 'media' THEN EXISTS (SELECT 1 FROM media m WHERE m.tenant_id = ${q.tenantId} AND m.id = d.source_id)
      ELSE true END
     ORDER BY best.score DESC, c.id`;
}
