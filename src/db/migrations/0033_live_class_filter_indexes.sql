-- The live classes list filtered by course, class group or host, in its default order: each filter walks its own
-- rows in start order and stops at the page, and its capped count (`countCapped`) at the cap. Without them the
-- planner, guessing a host or course rare, collects every match and sorts it, however many there are.
CREATE INDEX "live_classes_course_starts_idx" ON "live_classes" USING btree ("tenant_id", "course_id", "starts_at", "id");
--> statement-breakpoint
CREATE INDEX "live_classes_class_group_starts_idx" ON "live_classes" USING btree ("tenant_id", "class_group_id", "starts_at", "id");
--> statement-breakpoint
CREATE INDEX "live_classes_host_starts_idx" ON "live_classes" USING btree ("tenant_id", "host_user_id", "starts_at", "id");
--> statement-breakpoint
-- A course, class group or host belongs to one tenant. Without saying so, the planner multiplies the selectivity
-- of `tenant_id = $1` by that of `host_user_id = $2` as if they were independent, guesses a host with 50,000
-- classes has a few thousand, and then gathers every match through a bitmap and sorts it rather than walking the
-- index above and stopping at the cap. Functional-dependency statistics (filled by ANALYZE) correct the guess.
CREATE STATISTICS "live_classes_tenant_course_stats" (dependencies) ON "tenant_id", "course_id" FROM "live_classes";
--> statement-breakpoint
CREATE STATISTICS "live_classes_tenant_class_group_stats" (dependencies) ON "tenant_id", "class_group_id" FROM "live_classes";
--> statement-breakpoint
CREATE STATISTICS "live_classes_tenant_host_stats" (dependencies) ON "tenant_id", "host_user_id" FROM "live_classes";
