import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { knowledgeBases } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { KnowledgeBaseRecord } from "./schemas.js";

const kb = knowledgeBases;
const columns = {
  id: kb.id,
  name: kb.name,
  description: kb.description,
  scope: kb.scope,
  courseId: kb.courseId,
  chunkingStrategy: kb.chunkingStrategy,
  maxChunkTokens: kb.maxChunkTokens,
  overlapTokens: kb.overlapTokens,
  autoSyncCourseContent: kb.autoSyncCourseContent,
  documentCount: kb.documentCount,
  chunkCount: kb.chunkCount,
  tokenCount: kb.tokenCount,
  pendingCount: kb.pendingCount,
  failedCount: kb.failedCount,
  lastIndexedAt: kb.lastIndexedAt,
  languages: kb.languages,
  createdAt: kb.createdAt,
  updatedAt: kb.updatedAt,
};
export interface KnowledgeBaseRow {
  id: string;
  name: string;
  description: string | null;
  scope: string;
  courseId: string | null;
  chunkingStrategy: string;
  maxChunkTokens: number;
  overlapTokens: number;
  autoSyncCourseContent: boolean;
  documentCount: number;
  chunkCount: number;
  tokenCount: number;
  pendingCount: number;
  failedCount: number;
  lastIndexedAt: string | null;
  languages: string[];
  createdAt: string;
  updatedAt: string;
}

export function toRecord(row: KnowledgeBaseRow): KnowledgeBaseRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    scope: row.scope as KnowledgeBaseRecord["scope"],
    courseId: row.courseId,
    status: row.pendingCount > 0 ? "indexing" : row.failedCount > 0 ? "error" : "ready",
    chunking: {
      strategy: row.chunkingStrategy as "auto" | "fixed",
      maxChunkTokens: row.maxChunkTokens,
      overlapTokens: row.overlapTokens,
    },
    autoSync: { courseContent: row.autoSyncCourseContent },
    documentCount: Number(row.documentCount),
    chunkCount: Number(row.chunkCount),
    tokenCount: Number(row.tokenCount),
    lastIndexedAt: row.lastIndexedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const ORDER = [desc(kb.createdAt), desc(kb.id)];

/** Newest first, on (tenant_id, created_at, id); a course's few through its own index. */
export async function listKnowledgeBases(
  db: Executor,
  tenantId: string,
  filter: { courseId?: string },
  window: PageWindow,
): Promise<KnowledgeBaseRow[]> {
  return db
    .select(columns)
    .from(kb)
    .where(
      and(
        eq(kb.tenantId, tenantId),
        filter.courseId === undefined ? undefined : eq(kb.courseId, filter.courseId),
      ),
    )
    .orderBy(...ORDER)
    .limit(window.limit)
    .offset(window.offset);
}

/** The trigger-kept counter unfiltered; a course's knowledge bases counted up to the cap. */
export async function countKnowledgeBases(
  db: Executor,
  tenantId: string,
  filter: { courseId?: string },
): Promise<CappedTotal> {
  if (filter.courseId === undefined) return exactTotal(await readCounter(db, tenantId, "knowledge_bases"));
  return countCapped(db, kb, and(eq(kb.tenantId, tenantId), eq(kb.courseId, filter.courseId)) as SQL, ORDER);
}

export async function findKnowledgeBase(
  db: Executor,
  tenantId: string,
  id: string,
  lock?: "update" | "no key update" | "share",
): Promise<KnowledgeBaseRow | undefined> {
  const query = db
    .select(columns)
    .from(kb)
    .where(and(eq(kb.tenantId, tenantId), eq(kb.id, id)));
  const rows = lock === undefined ? await query : await query.for(lock);
  return rows[0];
}

export async function insertKnowledgeBase(
  db: Executor,
  row: Omit<typeof kb.$inferInsert, "id">,
): Promise<KnowledgeBaseRow> {
  const rows = await db.insert(kb).values(row).returning(columns);
  return rows[0] as KnowledgeBaseRow;
}

export async function updateKnowledgeBase(
  db: Executor,
  tenantId: string,
  id: string,
  set: Partial<typeof kb.$inferInsert>,
): Promise<KnowledgeBaseRow | undefined> {
  const rows = await db
    .update(kb)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(kb.tenantId, tenantId), eq(kb.id, id)))
    .returning(columns);
  return rows[0];
}

export async function deleteKnowledgeBase(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(kb)
    .where(and(eq(kb.tenantId, tenantId), eq(kb.id, id)))
    .returning({ id: kb.id });
  return rows.length > 0;
}

/** Moves the counters by the deltas given, in the caller's transaction (no COUNT(*) anywhere). */
export async function adjustCounts(
  db: Executor,
  tenantId: string,
  id: string,
  d: {
    documents?: number;
    chunks?: number;
    tokens?: number;
    pending?: number;
    failed?: number;
    indexed?: boolean;
  },
): Promise<void> {
  await db
    .update(kb)
    .set({
      documentCount: sql`${kb.documentCount} + ${d.documents ?? 0}`,
      chunkCount: sql`${kb.chunkCount} + ${d.chunks ?? 0}`,
      tokenCount: sql`${kb.tokenCount} + ${d.tokens ?? 0}`,
      pendingCount: sql`${kb.pendingCount} + ${d.pending ?? 0}`,
      failedCount: sql`${kb.failedCount} + ${d.failed ?? 0}`,
      ...(d.indexed === true ? { lastIndexedAt: sql`now()` } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(kb.tenantId, tenantId), eq(kb.id, id)));
}

/** Adds the languages of new documents to those a search of the knowledge base probes (text-rank.ts). */
export async function addLanguages(tx: Executor, tenantId: string, kbId: string, languages: string[]) {
  const added = `{${[...new Set(languages)].join(",")}}`;
  await tx.execute(sql`UPDATE knowledge_bases
      SET languages = ARRAY(SELECT DISTINCT l FROM unnest(languages || ${added}::text[]) AS l ORDER BY l)
    WHERE tenant_id = ${tenantId} AND id = ${kbId} AND NOT languages @> ${added}::text[]`);
}
