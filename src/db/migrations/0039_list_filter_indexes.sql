-- Issue 20: a rare value of these filters (a class's teachers, a custom template's messages, a bank's hard
-- questions, a course's or module's drafts, a quiz's unfinished attempts) walked the parent's rows in list order,
-- or scanned, to find its few; its total counted the same way. Each index is the list's parent, the filter, then
-- the list's default order.
CREATE INDEX "class_group_members_class_role_created_idx" ON "class_group_members" USING btree ("tenant_id", "class_group_id", "role", "created_at", "user_id");--> statement-breakpoint
CREATE INDEX "email_messages_tenant_template_created_idx" ON "email_messages" USING btree ("tenant_id", "template_key", "created_at", "id");--> statement-breakpoint
CREATE INDEX "questions_bank_difficulty_created_idx" ON "questions" USING btree ("tenant_id", "bank_id", "difficulty", "created_at", "id");--> statement-breakpoint
CREATE INDEX "course_modules_course_status_position_idx" ON "course_modules" USING btree ("tenant_id", "course_id", "status", "position", "id");--> statement-breakpoint
CREATE INDEX "lessons_module_status_position_idx" ON "lessons" USING btree ("tenant_id", "module_id", "status", "position", "id");--> statement-breakpoint
CREATE INDEX "quiz_attempts_quiz_status_created_idx" ON "quiz_attempts" USING btree ("tenant_id", "quiz_id", "status", "created_at", "id");
