/**
 * Indexing again: a whole knowledge base on request (POST …/reindex, after a change of chunking); the lesson
 * documents of knowledge bases with `autoSync.courseContent` when their lesson is published or changed while
 * published; and the documents of a lesson or file being deleted, in every knowledge base (their indexing then
 * fails them, `kb_document_failed`, and drops their chunks and counts). Each puts the documents back to `pending`
 * (their counters with them) and queues one `kb_index` job per knowledge base, in the caller's transaction.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { notFound } from "../../platform/errors/app-error.js";
import type { Actor } from "../events/actor.js";
import { enqueueJob } from "../jobs/service.js";
import * as repo from "./repo.js";

/** Marks documents pending (all the knowledge base's, or these), and moves the knowledge base's counters. */
async function markPending(tx: Executor, tenantId: string, kbId: string, only?: { documentIds: string[] }) {
  const documents = only === undefined ? sql`` : sql`AND id = ANY(${sql.param(only.documentIds)}::uuid[])`;
  const rows = await queryRows<{ was: string }>(
    tx,
    sql`WITH old AS (
          SELECT id, status FROM kb_documents
           WHERE tenant_id = ${tenantId} AND knowledge_base_id = ${kbId} AND status <> 'pending' ${documents}
           FOR UPDATE)
        UPDATE kb_documents d SET status = 'pending', updated_at = now() FROM old
         WHERE d.tenant_id = ${tenantId} AND d.id = old.id
     RETURNING old.status AS was`,
  );
  const moved = rows.filter((r) => r.was !== "processing").length;
  const failed = rows.filter((r) => r.was === "failed").length;
  await repo.adjustCounts(tx, tenantId, kbId, { pending: moved, failed: -failed });
}

/** Queues these documents, grouped by knowledge base, for indexing. */
async function requeue(
  tx: Executor,
  tenantId: string,
  holders: { knowledge_base_id: string; ids: string[] }[],
) {
  for (const holder of holders) {
    await markPending(tx, tenantId, holder.knowledge_base_id, { documentIds: holder.ids });
    await enqueueJob(tx, tenantId, {
      type: "kb_index",
      payload: { knowledgeBaseId: holder.knowledge_base_id, documentIds: holder.ids },
      actor: { kind: "system" },
    });
  }
}

/** Re-indexes every document of a knowledge base (with its current chunking); answers the job. */
export async function reindexKnowledgeBase(db: Executor, tenantId: string, kbId: string, actor: Actor) {
  return db.transaction(async (tx) => {
    const kb = await repo.findKnowledgeBase(tx, tenantId, kbId, "no key update");
    if (kb === undefined) throw notFound();
    await markPending(tx, tenantId, kbId);
    const job = await enqueueJob(tx, tenantId, {
      type: "kb_index",
      payload: { knowledgeBaseId: kbId, pending: true },
      actor,
    });
    return { jobId: job.id };
  });
}

/**
 * A lesson was published (or changed while published): its documents in knowledge bases that follow course
 * content are queued again, so retrieval reads what learners read.
 */
export async function syncLessonDocuments(tx: Executor, tenantId: string, lessonId: string): Promise<void> {
  const holders = await queryRows<{ knowledge_base_id: string; ids: string[] }>(
    tx,
    sql`SELECT d.knowledge_base_id, array_agg(d.id) AS ids FROM kb_documents d
          JOIN knowledge_bases k ON k.tenant_id = d.tenant_id AND k.id = d.knowledge_base_id
         WHERE d.tenant_id = ${tenantId} AND d.source_type = 'lesson' AND d.source_id = ${lessonId}
           AND k.auto_sync_course_content
         GROUP BY d.knowledge_base_id`,
  );
  await requeue(tx, tenantId, holders);
}

/** What is being deleted: lessons (by id, or all of a module's or a course's), or a file. */
export type DeletedSource =
  | { lessonId: string }
  | { moduleId: string }
  | { courseId: string }
  | { mediaId: string };

/** The condition on a document `d` of being indexed from the source. */
function indexedFrom(tenantId: string, source: DeletedSource): SQL {
  if ("mediaId" in source) return sql`d.source_type = 'media' AND d.source_id = ${source.mediaId}`;
  if ("lessonId" in source) return sql`d.source_type = 'lesson' AND d.source_id = ${source.lessonId}`;
  if ("moduleId" in source) {
    return sql`d.source_type = 'lesson' AND d.source_id IN (
      SELECT id FROM lessons WHERE tenant_id = ${tenantId} AND module_id = ${source.moduleId})`;
  }
  // The course's own knowledge bases go with it (their foreign key cascades): nothing to queue there.
  return sql`d.source_type = 'lesson' AND d.source_id IN (
      SELECT l.id FROM lessons l JOIN course_modules m ON m.tenant_id = l.tenant_id AND m.id = l.module_id
       WHERE l.tenant_id = ${tenantId} AND m.course_id = ${source.courseId})
    AND d.knowledge_base_id NOT IN (
      SELECT id FROM knowledge_bases WHERE tenant_id = ${tenantId} AND course_id = ${source.courseId})`;
}

/**
 * A lesson, a module, a course or a file is being deleted, in the caller's transaction (called before the delete,
 * while the module's or course's lessons can still be found): the documents indexed from it, in any knowledge
 * base, are queued, and their indexing, once the delete has committed, finds the source gone and fails them.
 * Until then search already serves none of their chunks (text-rank.ts checks the source of each result).
 */
export async function sourceDeleted(tx: Executor, tenantId: string, source: DeletedSource): Promise<void> {
  const holders = await queryRows<{ knowledge_base_id: string; ids: string[] }>(
    tx,
    // A pending document's job, queued already, runs after the delete too.
    sql`SELECT d.knowledge_base_id, array_agg(d.id ORDER BY d.id) AS ids FROM kb_documents d
         WHERE d.tenant_id = ${tenantId} AND ${indexedFrom(tenantId, source)} AND d.status <> 'pending'
         GROUP BY d.knowledge_base_id`,
  );
  await requeue(tx, tenantId, holders);
}
