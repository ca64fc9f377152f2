/**
 * Indexing, run by the worker as a job of type `kb_index` (the jobs queue, src/db/lease.ts): each document of the
 * job is read (a lesson's text from the lesson as it is now, a file's extracted on a worker thread by
 * media-source.ts), shown `processing` meanwhile, chunked with its knowledge base's sizes, and its
 * chunks replaced in one transaction with the document's status, the knowledge base's counters and
 * `kb_document_indexed` (or, when it cannot be indexed, `failed` with `kb_document_failed`). When the provider
 * names an embeddings model, the chunks' vectors are computed before that transaction (embeddings.ts) and stored
 * with them, and the document records the model.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import type { AppContext } from "../../platform/context.js";
import { emitEvent } from "../events/emit.js";
import type { JobHandler } from "../jobs/service.js";
import { type Chunk, chunkText } from "./chunking.js";
import * as docs from "./documents-repo.js";
import { embedChunks, vectorLiteral, workerEmbedDeps } from "./embeddings.js";
import { sha256 } from "./hash.js";
import { htmlToText } from "./html-text.js";
import { mediaText, pageAt } from "./media-source.js";
import * as repo from "./repo.js";
import { LANGUAGES, type Language } from "./schemas.js";

/**
 * The two text search configurations of each language a chunk is indexed in: the language's own (Snowball stems of
 * the words as written, which conflate `revolução` and `revoluções`) and migration 0062's folded one (stems of the
 * unaccented words, which meet `revolucao` typed without accents). Each chunk's tsvector holds both, and a query
 * is matched against both, so case and accents are folded without losing the stemmer's accented rules.
 */
export const TS_CONFIG: Record<Language, { native: string; folded: string }> = {
  pt: { native: "portuguese", folded: "aula_pt" },
  en: { native: "english", folded: "aula_en" },
  es: { native: "spanish", folded: "aula_es" },
  fr: { native: "french", folded: "aula_fr" },
};

/** A chunk's tsvector: both configurations' lexemes. */
export const chunkVector = (language: Language, text: string): SQL =>
  sql`to_tsvector(${TS_CONFIG[language].native}::regconfig, ${text})
      || to_tsvector(${TS_CONFIG[language].folded}::regconfig, ${text})`;
export { LANGUAGES };

const INSERT_BATCH = 200;

interface Payload {
  knowledgeBaseId: string;
  /** The documents to index; absent for a re-index, which takes every pending document of the knowledge base. */
  documentIds?: string[];
  pending?: true;
}

type Outcome = "indexed" | "failed" | "gone";

/** The text to index (with a PDF's page starts), or why there is none. */
async function sourceText(
  ctx: AppContext,
  tenantId: string,
  doc: docs.DocumentRow & { text?: string | null },
): Promise<{ text: string; pageStarts?: number[] | null } | { error: string; text?: undefined }> {
  const db = ctx.database.db;
  if (doc.sourceType === "text") return { text: doc.text ?? "" };
  if (doc.sourceType === "media") return mediaText(db, ctx.config, tenantId, doc.sourceId as string);
  const [lesson] = await docs.findLessons(db, tenantId, [doc.sourceId as string]);
  if (lesson === undefined) return { error: "the lesson was deleted" };
  if (lesson.type !== "text") return { error: `a ${lesson.type} lesson has no text to index` };
  const body = (lesson.content as { bodyHtml?: unknown }).bodyHtml;
  return { text: typeof body === "string" ? htmlToText(body) : "" };
}

async function insertChunks(
  tx: Executor,
  tenantId: string,
  doc: docs.DocumentRow,
  chunks: Chunk[],
  pageStarts: number[] | null,
  vectors: number[][] | undefined,
) {
  for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
    const rows: SQL[] = chunks.slice(i, i + INSERT_BATCH).map((c, j) => {
      const v = vectors?.[i + j];
      return sql`(${tenantId}::uuid, ${doc.knowledgeBaseId}::uuid, ${doc.id}::uuid, ${c.position}, ${c.text},
               ${c.start}, ${c.end}, ${c.tokenCount}, ${doc.language},
               ${chunkVector(doc.language as Language, c.text)}, ${pageAt(pageStarts, c.start)}::integer,
               ${v === undefined ? null : vectorLiteral(v)}::real[])`;
    });
    await tx.execute(sql`INSERT INTO kb_chunks (tenant_id, knowledge_base_id, document_id, position, text,
      start_offset, end_offset, token_count, language, tsv, page, embedding) VALUES ${sql.join(rows, sql`, `)}`);
  }
}

/** Locks the document for its new state; undefined when it was deleted meanwhile. */
async function lockDocument(tx: Executor, tenantId: string, id: string) {
  const [row] = await queryRows<{ status: string; chunk_count: number; token_count: number }>(
    tx,
    sql`SELECT status, chunk_count, token_count FROM kb_documents WHERE tenant_id = ${tenantId} AND id = ${id} FOR UPDATE`,
  );
  return row;
}

/** Indexes one document; answers how it ended. */
export async function indexDocument(
  ctx: AppContext,
  tenantId: string,
  kbId: string,
  id: string,
): Promise<Outcome> {
  const db = ctx.database.db;
  const kb = await repo.findKnowledgeBase(db, tenantId, kbId);
  const [doc] = await queryRows<docs.DocumentRow & { text: string | null }>(
    db,
    sql`SELECT id, knowledge_base_id AS "knowledgeBaseId", source_type AS "sourceType", source_id AS "sourceId",
          title, language, course_id AS "courseId", text FROM kb_documents
        WHERE tenant_id = ${tenantId} AND knowledge_base_id = ${kbId} AND id = ${id}`,
  );
  if (kb === undefined || doc === undefined) return "gone";
  // Shown while the job reads and chunks it (it still counts as waiting in the knowledge base's counters).
  await db.execute(sql`UPDATE kb_documents SET status = 'processing', updated_at = now()
    WHERE tenant_id = ${tenantId} AND id = ${id} AND status = 'pending'`);
  const source = await sourceText(ctx, tenantId, doc);
  const chunks =
    source.text === undefined
      ? []
      : chunkText(source.text, { maxTokens: kb.maxChunkTokens, overlap: kb.overlapTokens });
  const embedded = await embedChunks(
    workerEmbedDeps(ctx),
    tenantId,
    doc.courseId ?? kb.courseId,
    chunks.map((c) => c.text),
  );
  const event = {
    knowledgeBaseId: kbId,
    documentId: id,
    sourceType: doc.sourceType,
    sourceId: doc.sourceId,
    title: doc.title,
    courseId: doc.courseId,
  };
  return db.transaction(async (tx) => {
    const before = await lockDocument(tx, tenantId, id);
    if (before === undefined) return "gone";
    await tx.execute(sql`DELETE FROM kb_chunks WHERE tenant_id = ${tenantId} AND document_id = ${id}`);
    const waiting = before.status === "pending" || before.status === "processing" ? -1 : 0;
    const wasFailed = before.status === "failed" ? -1 : 0;
    if (source.text === undefined) {
      await tx.execute(sql`UPDATE kb_documents SET status = 'failed', error = ${source.error}, chunk_count = 0, embedding_model = NULL,
        token_count = 0, updated_at = now() WHERE tenant_id = ${tenantId} AND id = ${id}`);
      await repo.adjustCounts(tx, tenantId, kbId, {
        chunks: -before.chunk_count,
        tokens: -before.token_count,
        pending: waiting,
        failed: wasFailed + 1,
      });
      await emitEvent(tx, {
        tenantId,
        type: "kb_document_failed",
        actor: { type: "system" },
        data: { ...event, error: source.error },
      });
      return "failed";
    }
    await insertChunks(tx, tenantId, doc, chunks, source.pageStarts ?? null, embedded?.vectors);
    const tokens = chunks.reduce((n, c) => n + c.tokenCount, 0);
    const hash = sha256(source.text);
    await tx.execute(sql`UPDATE kb_documents SET status = 'ready', error = NULL, chunk_count = ${chunks.length},
      token_count = ${tokens}, content_hash = ${hash}, embedding_model = ${embedded?.model ?? null},
      indexed_at = now(), updated_at = now() WHERE tenant_id = ${tenantId} AND id = ${id}`);
    await repo.adjustCounts(tx, tenantId, kbId, {
      chunks: chunks.length - before.chunk_count,
      tokens: tokens - before.token_count,
      pending: waiting,
      failed: wasFailed,
      indexed: true,
    });
    await emitEvent(tx, {
      tenantId,
      type: "kb_document_indexed",
      actor: { type: "system" },
      data: { ...event, chunkCount: chunks.length, tokenCount: tokens, contentHash: hash },
    });
    return "indexed";
  });
}

const PENDING_BATCH = 100;

/**
 * The knowledge base's waiting documents after `after`, in id order: a re-index walks them in batches (one left
 * `processing` by a run that stopped is taken again).
 */
async function pendingAfter(db: Executor, tenantId: string, kbId: string, after: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM kb_documents WHERE tenant_id = ${tenantId} AND knowledge_base_id = ${kbId}
          AND status IN ('pending', 'processing') AND id > ${after}::uuid ORDER BY id LIMIT ${PENDING_BATCH}`,
  );
  return rows.map((r) => r.id);
}

export const kbIndexJobHandler: JobHandler = {
  /**
   * The job's documents (`documentIds`), or, for a re-index (`pending: true`), every pending document of the
   * knowledge base, read in batches so the payload stays small whatever its size.
   */
  async run(ctx, job) {
    const payload = job.payload as Payload;
    const db = ctx.database.db;
    const kb = await repo.findKnowledgeBase(db, job.tenantId, payload.knowledgeBaseId);
    const total = payload.documentIds?.length ?? kb?.pendingCount ?? 0;
    const progress = { total, processed: 0, succeeded: 0, failed: 0 };
    const one = async (id: string) => {
      await job.heartbeat(progress);
      const outcome = await indexDocument(ctx, job.tenantId, payload.knowledgeBaseId, id);
      progress.processed += 1;
      if (outcome === "failed") progress.failed += 1;
      else progress.succeeded += 1;
      progress.total = Math.max(progress.total, progress.processed);
    };
    if (payload.documentIds !== undefined) {
      for (const id of payload.documentIds) await one(id);
    } else if (kb !== undefined) {
      let after = "00000000-0000-0000-0000-000000000000";
      for (let batch = await pendingAfter(db, job.tenantId, kb.id, after); batch.length > 0; ) {
        for (const id of batch) await one(id);
        after = batch[batch.length - 1] as string;
        batch = await pendingAfter(db, job.tenantId, kb.id, after);
      }
    }
    return { status: progress.failed > 0 ? "partially_succeeded" : "succeeded", progress };
  },
};
