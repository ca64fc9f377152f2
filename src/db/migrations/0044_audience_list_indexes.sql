-- Issue 20: the lists a student reads through its audience cost what its audience and the page cost, not what the
-- tenant holds.
-- A student's live classes are read part by part (src/modules/live-classes/audience-list.ts); those it co-hosts or
-- is invited to are found in the arrays through GIN (`@>`). Not led by the tenant, as class_groups_course_ids_idx
-- (0043): a user id belongs to one tenant, so its posting list holds that tenant's classes alone.
CREATE INDEX "live_classes_co_hosts_idx" ON "live_classes" USING gin ("co_host_ids");
--> statement-breakpoint
CREATE INDEX "live_classes_invitees_idx" ON "live_classes" USING gin ("invitee_ids");
--> statement-breakpoint
-- A student's top level of the drive is the institution's folders and those of its courses and groups. Each is
-- walked in the list's order (folded name, id) under its audience: the course's or class's id, the nil uuid for
-- the institution's (an equality, so the index's order is the list's; see drive_folders_children_idx, 0032).
-- Walking the whole top level instead and keeping the student's folders read all of it for a page of a few.
CREATE INDEX "drive_folders_audience_roots_idx" ON "drive_folders" USING btree
  ("tenant_id", "scope", coalesce("course_id", "class_id", '00000000-0000-0000-0000-000000000000'::uuid), aula_fold("name"), "id")
  WHERE "parent_id" IS NULL;
