-- The agenda asks which events overlap a window. A btree on (tenant, starts_at) bounds only the start, so a
-- window in the present read the tenant's whole past; a GiST index on the event's time range answers the
-- overlap itself (a custom event, recurring, may span years). btree_gist lets the tenant be the index's first
-- column. A live class occurrence lasts at most 12 hours, so its window bounds starts_at at both ends and the
-- btree indexes serve it.
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
DROP INDEX IF EXISTS "calendar_events_window_idx";--> statement-breakpoint
CREATE INDEX "calendar_events_span_idx" ON "calendar_events" USING gist ("tenant_id", tstzrange("starts_at", "last_ends_at", '[]'));--> statement-breakpoint
CREATE INDEX "lessons_due_idx" ON "lessons" USING btree ("tenant_id", "due_at") WHERE "status" = 'published' AND "due_at" IS NOT NULL;
