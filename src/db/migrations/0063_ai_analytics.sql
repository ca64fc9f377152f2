-- Usage filtered by one user or one course reads that subject's rollup rows in the window, not the institution's.
CREATE INDEX "ai_usage_daily_user_day_idx" ON "ai_usage_daily" USING btree ("tenant_id", "user_id", "day");
--> statement-breakpoint
CREATE INDEX "ai_usage_daily_course_day_idx" ON "ai_usage_daily" USING btree ("tenant_id", "course_id", "day");
