-- A file being deleted queues the documents indexed from it in every knowledge base (src/modules/rag/reindex.ts),
-- found by the file as a lesson's are by kb_documents_source_idx.
CREATE INDEX "kb_documents_media_source_idx" ON "kb_documents" USING btree ("tenant_id", "source_id")
  WHERE "source_type" = 'media';
