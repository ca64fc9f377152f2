DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_pending_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_completed_idx";--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."completed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries" USING btree ("tenant_id","automation_id","created_at") WHERE "webhook_deliveries"."completed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_completed_idx" ON "webhook_deliveries" USING btree ("completed_at") WHERE "webhook_deliveries"."completed_at" IS NOT NULL;--> statement-breakpoint
-- Room on every page for a claim's new row version beside the old one, so that the claim is a HOT update (no index
-- names the columns it changes). Applies to pages written from now on; VACUUM FULL would repack older ones.
ALTER TABLE "webhook_deliveries" SET (fillfactor = 70);
--> statement-breakpoint
-- What the partial indexes above rely on: a delivery is unfinished (pending or delivering) exactly while it has no
-- completed_at.
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_completed_check"
  CHECK ((completed_at IS NULL) = (status IN ('pending', 'delivering')));
