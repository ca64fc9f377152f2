-- GET /events: a receiver that was down catches up in (occurred_at, id) order, by type or by the user an event is
-- about; each filter walks its own index in that order from the cursor, whatever the tenant's history.
CREATE INDEX "platform_events_tenant_occurred_idx" ON "platform_events" USING btree ("tenant_id", "occurred_at", "id");--> statement-breakpoint
CREATE INDEX "platform_events_tenant_type_idx" ON "platform_events" USING btree ("tenant_id", "type", "occurred_at", "id");--> statement-breakpoint
CREATE INDEX "platform_events_tenant_subject_idx" ON "platform_events" USING btree ("tenant_id", (("subject" ->> 'id')), "occurred_at", "id") WHERE "subject" IS NOT NULL;
