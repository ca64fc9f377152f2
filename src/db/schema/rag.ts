import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { tenants } from "./tenancy.js";

/**
 * RAG (migration 0062): a knowledge base, institution-wide or of one course, and its documents. Their chunks
 * (`kb_chunks`, with a tsvector in the document's language) are read and written in SQL by modules/rag, so they
 * are not declared here. The counts are kept by the statements that add, index and delete documents.
 */
export const knowledgeBases = pgTable(
  "knowledge_bases",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    name: text("name").notNull(),
    description: text("description"),
    scope: text("scope").notNull().default("institution"),
    courseId: uuid("course_id"),
    chunkingStrategy: text("chunking_strategy").notNull().default("auto"),
    maxChunkTokens: integer("max_chunk_tokens").notNull().default(800),
    overlapTokens: integer("overlap_tokens").notNull().default(400),
    autoSyncCourseContent: boolean("auto_sync_course_content").notNull().default(false),
    documentCount: bigint("document_count", { mode: "number" }).notNull().default(0),
    chunkCount: bigint("chunk_count", { mode: "number" }).notNull().default(0),
    tokenCount: bigint("token_count", { mode: "number" }).notNull().default(0),
    pendingCount: integer("pending_count").notNull().default(0),
    failedCount: integer("failed_count").notNull().default(0),
    lastIndexedAt: isoTimestamp("last_indexed_at"),
    /** The languages of its documents, which search probes (src/modules/rag/text-rank.ts); only ever grows. */
    languages: text("languages").array().notNull().default(sql`'{}'::text[]`),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("knowledge_bases_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
  ],
);

export const kbDocuments = pgTable(
  "kb_documents",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    knowledgeBaseId: uuid("knowledge_base_id").notNull(),
    sourceType: text("source_type").notNull(),
    sourceId: uuid("source_id"),
    title: text("title").notNull(),
    language: text("language").notNull().default("pt"),
    text: text("text"),
    courseId: uuid("course_id"),
    metadata: jsonb("metadata").notNull().default({}),
    status: text("status").notNull().default("pending"),
    error: text("error"),
    chunkCount: integer("chunk_count").notNull().default(0),
    tokenCount: integer("token_count").notNull().default(0),
    contentHash: text("content_hash"),
    embeddingModel: text("embedding_model"),
    indexedAt: isoTimestamp("indexed_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("kb_documents_kb_created_idx").on(t.tenantId, t.knowledgeBaseId, t.createdAt, t.id),
  ],
);
