-- Issue 20: every sort a list offers reads an index in that order, so page 1 costs a page whatever the
-- institution holds (test/list-plans.test.ts explains each). Each index is the list's filter (tenant, parent)
-- followed by the sort's keys and its tie-break, exactly as the repository orders: without the tie-break the
-- planner sorts every row sharing the parent (an Incremental Sort over the whole module, lesson or tag).
DROP INDEX IF EXISTS "course_modules_course_position_idx";--> statement-breakpoint
CREATE INDEX "course_modules_course_position_idx" ON "course_modules" USING btree ("tenant_id", "course_id", "position", "id");--> statement-breakpoint
CREATE INDEX "course_modules_course_title_idx" ON "course_modules" USING btree ("tenant_id", "course_id", aula_fold("title"), "title", "id");--> statement-breakpoint
CREATE INDEX "course_modules_course_created_idx" ON "course_modules" USING btree ("tenant_id", "course_id", "created_at", "id");--> statement-breakpoint
DROP INDEX IF EXISTS "lessons_module_position_idx";--> statement-breakpoint
CREATE INDEX "lessons_module_position_idx" ON "lessons" USING btree ("tenant_id", "module_id", "position", "id");--> statement-breakpoint
CREATE INDEX "lessons_module_title_idx" ON "lessons" USING btree ("tenant_id", "module_id", aula_fold("title"), "title", "id");--> statement-breakpoint
CREATE INDEX "lessons_module_created_idx" ON "lessons" USING btree ("tenant_id", "module_id", "created_at", "id");--> statement-breakpoint
DROP INDEX IF EXISTS "lesson_completions_lesson_completed_idx";--> statement-breakpoint
CREATE INDEX "lesson_completions_lesson_completed_idx" ON "lesson_completions" USING btree ("tenant_id", "lesson_id", "completed_at", "user_id");--> statement-breakpoint
DROP INDEX IF EXISTS "tag_assignments_tag_created_idx";--> statement-breakpoint
CREATE INDEX "tag_assignments_tag_created_idx" ON "tag_assignments" USING btree ("tenant_id", "tag_id", "created_at", "resource_type", "resource_id");--> statement-breakpoint
DROP INDEX IF EXISTS "profile_fields_tenant_position_idx";--> statement-breakpoint
CREATE INDEX "profile_fields_tenant_position_idx" ON "profile_fields" USING btree ("tenant_id", "position", "id");--> statement-breakpoint
CREATE INDEX "profile_fields_tenant_created_idx" ON "profile_fields" USING btree ("tenant_id", "created_at", "id");--> statement-breakpoint
CREATE INDEX "users_tenant_name_idx" ON "users" USING btree ("tenant_id", aula_fold("name"), "id");--> statement-breakpoint
CREATE INDEX "class_groups_tenant_name_idx" ON "class_groups" USING btree ("tenant_id", aula_fold("name"), "id");--> statement-breakpoint
CREATE INDEX "tags_tenant_name_idx" ON "tags" USING btree ("tenant_id", aula_fold("name"), lower("name"));--> statement-breakpoint
CREATE INDEX "invites_tenant_expires_idx" ON "invites" USING btree ("tenant_id", "expires_at", "id");--> statement-breakpoint
DROP INDEX IF EXISTS "invites_tenant_email_idx";--> statement-breakpoint
CREATE INDEX "invites_tenant_email_idx" ON "invites" USING btree ("tenant_id", lower("email"), "id");--> statement-breakpoint
CREATE INDEX "courses_tenant_title_idx" ON "courses" USING btree ("tenant_id", aula_fold("title"), "title", "id");--> statement-breakpoint
CREATE INDEX "quizzes_tenant_updated_idx" ON "quizzes" USING btree ("tenant_id", "updated_at", "id");--> statement-breakpoint
CREATE INDEX "question_banks_tenant_title_idx" ON "question_banks" USING btree ("tenant_id", aula_fold("title"), "title", "id");--> statement-breakpoint
CREATE INDEX "questions_bank_updated_idx" ON "questions" USING btree ("tenant_id", "bank_id", "updated_at", "id");--> statement-breakpoint
CREATE INDEX "media_tenant_filename_idx" ON "media" USING btree ("tenant_id", aula_fold("filename"), "id");--> statement-breakpoint
CREATE INDEX "themes_tenant_name_idx" ON "themes" USING btree ("tenant_id", "name", "id");--> statement-breakpoint
CREATE INDEX "video_providers_tenant_name_idx" ON "video_providers" USING btree ("tenant_id", lower("name"), "id");--> statement-breakpoint
CREATE INDEX "tenant_domains_tenant_created_idx" ON "tenant_domains" USING btree ("tenant_id", "created_at", "host");--> statement-breakpoint
-- `score` sorts with NULLS LAST both ways, which one index cannot give in both directions.
CREATE INDEX "quiz_attempts_quiz_score_idx" ON "quiz_attempts" USING btree ("tenant_id", "quiz_id", "score" ASC NULLS LAST, "id");--> statement-breakpoint
CREATE INDEX "quiz_attempts_quiz_score_desc_idx" ON "quiz_attempts" USING btree ("tenant_id", "quiz_id", "score" DESC NULLS LAST, "id" DESC);
