-- Search probes the index by knowledge base, language and lexeme (src/modules/rag/text-rank.ts): with the language
-- in the index, a probe of one language's lexemes reads only that language's chunks, and one that has none ends
-- at once, where the index of (knowledge_base_id, tsv) would have fetched every chunk of another language holding
-- the same lexeme only to filter it out.
CREATE INDEX "kb_chunks_lang_search_idx" ON "kb_chunks" USING gin ("knowledge_base_id", "language", "tsv");
--> statement-breakpoint
DROP INDEX "kb_chunks_search_idx";
--> statement-breakpoint
-- The languages of a knowledge base's documents: a search probes the index in those only (a probe of a language
-- the knowledge base has none of still reads the knowledge base's posting list).
ALTER TABLE "knowledge_bases" ADD COLUMN "languages" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
UPDATE "knowledge_bases" k SET "languages" = ARRAY(
  SELECT DISTINCT d.language FROM "kb_documents" d
   WHERE d.tenant_id = k.tenant_id AND d.knowledge_base_id = k.id ORDER BY d.language);
