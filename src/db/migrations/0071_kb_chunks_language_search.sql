-- Search probes the index by knowledge base, language and lexeme (src/modules/rag/text-rank.ts): with the language
-- in the index, a probe of one language's lexemes reads only that language's chunks, and one that has none ends
-- at once, where the index of (knowledge_base_id, tsv) would have fetched every chunk of another language holding
-- the same lexeme only to filter it out.
CREATE INDEX "kb_chunks_lang_search_idx" ON "kb_chunks" USING gin ("knowledge_base_id", "language", "tsv");
--> statement-breakpoint
DROP INDEX "kb_chunks_search_idx";
