-- Issue 20: lists whose totals or filters read every match of a common value.
-- The users list counts the holders of one profile value on user_profile_values alone, walking this index in user
-- order up to the cap; without user_id the index gives its matches in no order the count can stop in.
DROP INDEX IF EXISTS "user_profile_values_match_idx";--> statement-breakpoint
CREATE INDEX "user_profile_values_match_idx" ON "user_profile_values" USING btree ("tenant_id", "field_id", "match_key", "user_id");
--> statement-breakpoint
-- The classes that follow a course: `course_ids @> ARRAY[course]` through GIN. Not led by the tenant (btree_gin):
-- the tenant's entry matches all its classes, and the planner, costing that posting list too, scanned instead. A
-- course id belongs to one tenant, so its posting list holds that tenant's classes alone.
CREATE INDEX "class_groups_course_ids_idx" ON "class_groups" USING gin ("course_ids");
--> statement-breakpoint
-- An invitation's status is its stored status but for a pending one past its expiry (expired). A status filter
-- walks the first index in list order; an expired one also finds the lapsed pending rows through the second.
CREATE INDEX "invites_tenant_status_created_idx" ON "invites" USING btree ("tenant_id", "status", "created_at", "id");--> statement-breakpoint
CREATE INDEX "invites_tenant_status_expires_idx" ON "invites" USING btree ("tenant_id", "status", "expires_at", "id");
