-- Issue 20: a list filtered by a rare status (the few suspended enrollments, archived classes or banks, failed
-- messages or files) walked the tenant's rows in list order and threw nearly all away, or scanned the table.
-- An index led by the status, in the list's default order, finds the page among that status's rows alone.
CREATE INDEX "enrollments_tenant_status_created_idx" ON "enrollments" USING btree ("tenant_id", "status", "created_at", "id");--> statement-breakpoint
CREATE INDEX "class_groups_tenant_status_created_idx" ON "class_groups" USING btree ("tenant_id", "status", "created_at", "id");--> statement-breakpoint
CREATE INDEX "email_messages_tenant_status_created_idx" ON "email_messages" USING btree ("tenant_id", "status", "created_at", "id");--> statement-breakpoint
CREATE INDEX "question_banks_tenant_status_created_idx" ON "question_banks" USING btree ("tenant_id", "status", "created_at", "id");--> statement-breakpoint
CREATE INDEX "media_tenant_status_created_idx" ON "media" USING btree ("tenant_id", "status", "created_at", "id");
