/**
 * Indexing again: a whole knowledge base on request (POST …/reindex, after a change of chunking), and the lesson
 * documents of knowledge bases with `autoSync.courseContent` when their lesson is published or changed while
 * published. Either puts the documents back to `pending` (their counters with them) and queues one `kb_index` job
 * per knowledge base, in the caller's transaction.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { notFound } from "../../platform/errors/app-error.js";
import type { Actor } from "../events/actor.js";
import { enqueueJob } from "../jobs/service.js";
import * as repo from "./repo.js";

/** Marks documents pending; answers how many were not already, and how many of those had failed. */
async function markPending(tx: Executor, tenantId: string, kbId: string, only?: { lessonId: string }) {
  const lesson =
    only === undefined ? sql`` : sql`AND source_type = 'lesson' AND source_id = ${only.lessonId}`;
  const rows = await queryRows<{ was: string }>(
    tx,
    sql`WITH old AS (
          SELECT id, status FROM kb_documents
           WHERE tenant_id = ${tenantId} AND knowledge_base_id = ${kbId} AND status <> 'pending' ${lesson}
           FOR UPDATE)
        UPDATE kb_documents d SET status = 'pending', updated_at = now() FROM old
         WHERE d.tenant_id = ${tenantId} AND d.id = old.id
     RETURNING old.status AS was`,
  );
  const moved = rows.filter((r) => r.was !== "processing").length;
  const failed = rows.filter((r) => r.was === "failed").length;
  await repo.adjustCounts(tx, tenantId, kbId, { pending: moved, failed: -failed });
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
  const holders = await queryRows<{ knowledge_base_id: string; id: string }>(
    tx,
    sql`SELECT d.knowledge_base_id, d.id FROM kb_documents d
          JOIN knowledge_bases k ON k.tenant_id = d.tenant_id AND k.id = d.knowledge_base_id
         WHERE d.tenant_id = ${tenantId} AND d.source_type = 'lesson' AND d.source_id = ${lessonId}
           AND k.auto_sync_course_content`,
  );
  for (const holder of holders) {
    await markPending(tx, tenantId, holder.knowledge_base_id, { lessonId });
    await enqueueJob(tx, tenantId, {
      type: "kb_index",
      payload: { knowledgeBaseId: holder.knowledge_base_id, documentIds: [holder.id] },
      actor: { kind: "system" },
    });
  }
}
