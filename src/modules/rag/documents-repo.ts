import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { kbDocuments, lessons } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { KbDocumentRecord } from "./schemas.js";

const d = kbDocuments;
export const documentColumns = {
  id: d.id,
  knowledgeBaseId: d.knowledgeBaseId,
  sourceType: d.sourceType,
  sourceId: d.sourceId,
  title: d.title,
  language: d.language,
  courseId: d.courseId,
  metadata: d.metadata,
  status: d.status,
  error: d.error,
  chunkCount: d.chunkCount,
  tokenCount: d.tokenCount,
  contentHash: d.contentHash,
  embeddingModel: d.embeddingModel,
  indexedAt: d.indexedAt,
  createdAt: d.createdAt,
};

export interface DocumentRow extends Omit<KbDocumentRecord, "metadata"> {
  courseId: string | null;
  metadata: unknown;
}

export function toDocumentRecord(row: DocumentRow): KbDocumentRecord {
  const { courseId: _, ...rest } = row;
  return { ...rest, metadata: (row.metadata ?? {}) as Record<string, string> };
}

/** Newest first on kb_documents_kb_created_idx. */
export async function listDocuments(
  db: Executor,
  tenantId: string,
  kbId: string,
  window: PageWindow,
): Promise<DocumentRow[]> {
  const rows = await db
    .select(documentColumns)
    .from(d)
    .where(and(eq(d.tenantId, tenantId), eq(d.knowledgeBaseId, kbId)))
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(window.limit)
    .offset(window.offset);
  return rows as DocumentRow[];
}

export async function findDocument(
  db: Executor,
  tenantId: string,
  kbId: string,
  id: string,
): Promise<DocumentRow | undefined> {
  const rows = await db
    .select(documentColumns)
    .from(d)
    .where(and(eq(d.tenantId, tenantId), eq(d.knowledgeBaseId, kbId), eq(d.id, id)));
  return rows[0] as DocumentRow | undefined;
}

/** The documents already holding these texts (by hash), lessons or files, in one knowledge base. */
export async function existingDocuments(
  db: Executor,
  tenantId: string,
  kbId: string,
  keys: { hashes: string[]; lessonIds: string[]; mediaIds: string[] },
): Promise<DocumentRow[]> {
  if (keys.hashes.length === 0 && keys.lessonIds.length === 0 && keys.mediaIds.length === 0) return [];
  const ids = (type: string, list: string[]) =>
    sql`(${d.sourceType} = ${type} AND ${d.sourceId}::text IN (${sql.join(
      [...list, ""].map((l) => sql`${l}`),
      sql`, `,
    )}))`;
  const rows = await db
    .select(documentColumns)
    .from(d)
    .where(
      and(
        eq(d.tenantId, tenantId),
        eq(d.knowledgeBaseId, kbId),
        sql`((${d.sourceType} = 'text' AND ${d.contentHash} IN (${sql.join(
          [...keys.hashes, ""].map((h) => sql`${h}`),
          sql`, `,
        )})) OR ${ids("lesson", keys.lessonIds)} OR ${ids("media", keys.mediaIds)})`,
      ),
    );
  return rows as DocumentRow[];
}

/** Inserts new documents; one that a concurrent request added meanwhile is skipped (the unique indexes). */
export async function insertDocuments(db: Executor, rows: (typeof d.$inferInsert)[]): Promise<DocumentRow[]> {
  if (rows.length === 0) return [];
  const inserted = await db.insert(d).values(rows).onConflictDoNothing().returning(documentColumns);
  return inserted as DocumentRow[];
}

export async function deleteDocument(
  db: Executor,
  tenantId: string,
  kbId: string,
  id: string,
): Promise<DocumentRow | undefined> {
  const rows = await db
    .delete(d)
    .where(and(eq(d.tenantId, tenantId), eq(d.knowledgeBaseId, kbId), eq(d.id, id)))
    .returning(documentColumns);
  return rows[0] as DocumentRow | undefined;
}

export interface LessonSource {
  id: string;
  title: string;
  type: string;
  courseId: string;
  status: string;
  content: unknown;
}

export async function findLessons(db: Executor, tenantId: string, ids: string[]): Promise<LessonSource[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: lessons.id,
      title: lessons.title,
      type: lessons.type,
      courseId: lessons.courseId,
      status: lessons.status,
      content: lessons.content,
    })
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), inArray(lessons.id, ids)));
}
