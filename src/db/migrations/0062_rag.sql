-- Issue 25 (part 5): RAG knowledge bases, their documents and the chunks retrieval ranks by PostgreSQL full-text
-- search. One text search configuration per supported language folds case (the parser lowercases) and accents
-- (the unaccent dictionary, loaded by 0000 on PostgreSQL and by PGlite's contrib build) before the language's
-- Snowball stemmer, so `ação`, `Acao` and `AÇÕES` meet on both databases.
CREATE TEXT SEARCH CONFIGURATION aula_pt (COPY = pg_catalog.portuguese);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION aula_pt ALTER MAPPING FOR hword, hword_part, word WITH public.unaccent, portuguese_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION aula_en (COPY = pg_catalog.english);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION aula_en ALTER MAPPING FOR hword, hword_part, word WITH public.unaccent, english_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION aula_es (COPY = pg_catalog.spanish);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION aula_es ALTER MAPPING FOR hword, hword_part, word WITH public.unaccent, spanish_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION aula_fr (COPY = pg_catalog.french);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION aula_fr ALTER MAPPING FOR hword, hword_part, word WITH public.unaccent, french_stem;
--> statement-breakpoint
CREATE TABLE "knowledge_bases" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "name" text NOT NULL,
  "description" text,
  "scope" text DEFAULT 'institution' NOT NULL,
  "course_id" uuid,
  "chunking_strategy" text DEFAULT 'auto' NOT NULL,
  "max_chunk_tokens" integer DEFAULT 800 NOT NULL,
  "overlap_tokens" integer DEFAULT 400 NOT NULL,
  "auto_sync_course_content" boolean DEFAULT false NOT NULL,
  -- Kept by the statements that add, index and delete documents (never counted per request).
  "document_count" bigint DEFAULT 0 NOT NULL,
  "chunk_count" bigint DEFAULT 0 NOT NULL,
  "token_count" bigint DEFAULT 0 NOT NULL,
  "pending_count" integer DEFAULT 0 NOT NULL,
  "failed_count" integer DEFAULT 0 NOT NULL,
  "last_indexed_at" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "knowledge_bases_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "knowledge_bases_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE CASCADE,
  CONSTRAINT "knowledge_bases_course_fk" FOREIGN KEY ("tenant_id", "course_id")
    REFERENCES "courses" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "knowledge_bases_scope_check" CHECK (("scope" = 'course') = ("course_id" IS NOT NULL)),
  CONSTRAINT "knowledge_bases_chunking_check" CHECK ("max_chunk_tokens" BETWEEN 100 AND 4000
    AND "overlap_tokens" BETWEEN 0 AND "max_chunk_tokens" / 2)
);
--> statement-breakpoint
CREATE INDEX "knowledge_bases_tenant_created_idx" ON "knowledge_bases" USING btree ("tenant_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "knowledge_bases_course_created_idx" ON "knowledge_bases" USING btree ("tenant_id", "course_id", "created_at", "id")
  WHERE "course_id" IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER knowledge_bases_count_insert AFTER INSERT ON knowledge_bases REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('knowledge_bases');
--> statement-breakpoint
CREATE TRIGGER knowledge_bases_count_delete AFTER DELETE ON knowledge_bases REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('knowledge_bases');
--> statement-breakpoint
CREATE TABLE "kb_documents" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "knowledge_base_id" uuid NOT NULL,
  "source_type" text NOT NULL,
  "source_id" uuid,
  "title" text NOT NULL,
  "language" text DEFAULT 'pt' NOT NULL,
  -- A text document's own text (a lesson's is read from the lesson when it is indexed).
  "text" text,
  "course_id" uuid,
  "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "error" text,
  "chunk_count" integer DEFAULT 0 NOT NULL,
  "token_count" integer DEFAULT 0 NOT NULL,
  "content_hash" text,
  "indexed_at" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "kb_documents_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "kb_documents_kb_fk" FOREIGN KEY ("tenant_id", "knowledge_base_id")
    REFERENCES "knowledge_bases" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "kb_documents_language_check" CHECK ("language" IN ('pt', 'en', 'es', 'fr')),
  CONSTRAINT "kb_documents_status_check" CHECK ("status" IN ('pending', 'processing', 'ready', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "kb_documents_kb_created_idx" ON "kb_documents" USING btree ("tenant_id", "knowledge_base_id", "created_at", "id");
--> statement-breakpoint
-- Dedupe: the same text twice in one knowledge base, or the same lesson twice, is one document.
CREATE UNIQUE INDEX "kb_documents_text_hash_key" ON "kb_documents" USING btree ("tenant_id", "knowledge_base_id", "content_hash")
  WHERE "source_type" = 'text';
--> statement-breakpoint
CREATE UNIQUE INDEX "kb_documents_lesson_key" ON "kb_documents" USING btree ("tenant_id", "knowledge_base_id", "source_id")
  WHERE "source_type" = 'lesson';
--> statement-breakpoint
-- A published lesson finds the documents that index it (autoSync).
CREATE INDEX "kb_documents_source_idx" ON "kb_documents" USING btree ("tenant_id", "source_id") WHERE "source_type" = 'lesson';
--> statement-breakpoint
CREATE TABLE "kb_chunks" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "knowledge_base_id" uuid NOT NULL,
  "document_id" uuid NOT NULL,
  "position" integer NOT NULL,
  "text" text NOT NULL,
  "start_offset" integer NOT NULL,
  "end_offset" integer NOT NULL,
  "token_count" integer NOT NULL,
  "language" text NOT NULL,
  "tsv" tsvector NOT NULL,
  CONSTRAINT "kb_chunks_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "kb_chunks_document_fk" FOREIGN KEY ("tenant_id", "document_id")
    REFERENCES "kb_documents" ("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX "kb_chunks_document_idx" ON "kb_chunks" USING btree ("tenant_id", "document_id", "position");
--> statement-breakpoint
-- Search reads one knowledge base's matching chunks through this index alone (btree_gin puts the id beside the
-- lexemes), whatever the size of the institution's other knowledge bases.
CREATE INDEX "kb_chunks_search_idx" ON "kb_chunks" USING gin ("knowledge_base_id", "tsv");
