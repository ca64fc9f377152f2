-- Optional embeddings for a hybrid rank (modules/rag/embeddings.ts). The provider may name an embeddings model;
-- indexing then stores each chunk's vector (unit length, as real[]: pgvector is not available on every server
-- Aula runs on, and search only compares the vectors of a bounded set of full-text candidates) and the document
-- records the model, so vectors of another model are never compared with a query's.
ALTER TABLE "ai_provider_settings" ADD COLUMN "embedding_model" text;
--> statement-breakpoint
ALTER TABLE "kb_documents" ADD COLUMN "embedding_model" text;
--> statement-breakpoint
ALTER TABLE "kb_chunks" ADD COLUMN "embedding" real[];
