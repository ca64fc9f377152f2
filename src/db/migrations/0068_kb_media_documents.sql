-- Knowledge-base documents from the institution's files (source_type 'media'): one document per file in a
-- knowledge base, as for lessons, and the PDF page each chunk starts on, which search cites (null for other sources).
CREATE UNIQUE INDEX "kb_documents_media_key" ON "kb_documents" USING btree ("tenant_id", "knowledge_base_id", "source_id")
  WHERE "source_type" = 'media';
--> statement-breakpoint
ALTER TABLE "kb_chunks" ADD COLUMN "page" integer;
