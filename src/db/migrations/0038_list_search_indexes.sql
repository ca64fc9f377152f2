-- Issue 20: the searches of classes, tags, question banks and questions had no trigram index, so a rare term
-- scanned the table; a rare media kind or a bank's course had no index either. Each matches the repository's
-- expression exactly (a search is `aula_fold(…) LIKE aula_fold('%term%')`), led by the tenant (btree_gin).
CREATE INDEX "class_groups_search_idx" ON "class_groups" USING gin ("tenant_id", aula_fold("name" || ' ' || coalesce("code", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tags_search_idx" ON "tags" USING gin ("tenant_id", aula_fold("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "question_banks_search_idx" ON "question_banks" USING gin ("tenant_id", aula_fold("title") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "questions_search_idx" ON "questions" USING gin ("tenant_id", aula_fold("stem") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "media_tenant_kind_created_idx" ON "media" USING btree ("tenant_id", "kind", "created_at", "id");--> statement-breakpoint
CREATE INDEX "question_banks_tenant_course_created_idx" ON "question_banks" USING btree ("tenant_id", "course_id", "created_at", "id");
