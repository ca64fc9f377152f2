-- Issue 20: the lists a student reads through its audience cost what its audience and the page cost, not what the
-- tenant holds.
-- A student's live classes are read part by part (src/modules/live-classes/audience-list.ts); those it co-hosts or
-- is invited to are found in the arrays through GIN (`@>`). Not led by the tenant, as class_groups_course_ids_idx
-- (0043): a user id belongs to one tenant, so its posting list holds that tenant's classes alone.
CREATE INDEX "live_classes_co_hosts_idx" ON "live_classes" USING gin ("co_host_ids");
--> statement-breakpoint
CREATE INDEX "live_classes_invitees_idx" ON "live_classes" USING gin ("invitee_ids");
