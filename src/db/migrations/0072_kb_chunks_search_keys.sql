-- A chunk's search keys: each lexeme of its tsvector hashed with its knowledge base and language. The GIN index of
-- (knowledge_base_id, language, tsv) intersected a lexeme's posting list with its knowledge base's and language's,
-- each holding every chunk of the knowledge base, so a probe read in proportion to the knowledge base (2.2 ms for a
-- lexeme in 1,112 of 100,000 chunks, 0.16 ms in 100 of 10,000). A key's posting list holds only the chunks of one
-- knowledge base in one language holding one lexeme (0.24 ms for the same 1,112): src/modules/rag/text-rank.ts.
-- A hash shared by two keys only adds chunks that the probe's recheck of tsv drops.
CREATE FUNCTION "kb_search_keys"(kb uuid, lang text, v tsvector) RETURNS integer[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(hashtext(kb::text || ':' || lang || ':' || x)), '{}')
          FROM unnest(tsvector_to_array(v)) AS x $$;
--> statement-breakpoint
ALTER TABLE "kb_chunks" ADD COLUMN "search_keys" integer[]
  GENERATED ALWAYS AS (kb_search_keys("knowledge_base_id", "language", "tsv")) STORED;
--> statement-breakpoint
CREATE INDEX "kb_chunks_search_keys_idx" ON "kb_chunks" USING gin ("search_keys");
--> statement-breakpoint
DROP INDEX "kb_chunks_lang_search_idx";
