CREATE TABLE "delivery_stats" (
	"tenant_id" uuid NOT NULL,
	"automation_id" uuid NOT NULL,
	"minute" timestamp(3) with time zone NOT NULL,
	"slot" integer NOT NULL,
	"attempts" integer NOT NULL,
	"succeeded" integer NOT NULL,
	CONSTRAINT "delivery_stats_tenant_id_automation_id_minute_slot_pk" PRIMARY KEY("tenant_id","automation_id","minute","slot")
);
--> statement-breakpoint
ALTER TABLE "delivery_stats" ADD CONSTRAINT "delivery_stats_tenant_id_automation_id_automations_tenant_id_id_fk" FOREIGN KEY ("tenant_id","automation_id") REFERENCES "public"."automations"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_stats_minute_idx" ON "delivery_stats" USING btree ("minute");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries" USING btree ("tenant_id","automation_id","created_at") WHERE "webhook_deliveries"."status" IN ('pending', 'delivering');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_completed_idx" ON "webhook_deliveries" USING btree ("completed_at") WHERE "webhook_deliveries"."status" IN ('succeeded', 'failed');--> statement-breakpoint
-- Keeps delivery_stats inside the transaction that records attempts. Statement-level with a transition table, so a
-- batch of attempts (one multi-row INSERT) costs one join on webhook_deliveries' primary key (the rows the same
-- transaction has just updated) and one upsert per (automation, minute) it touches, never a round trip per attempt.
-- Each session writes its own rows (`slot` = its backend pid), so concurrent recorders never wait on each other's
-- buckets nor deadlock with the automation locks they hold; the upsert still goes in key order. Minutes are UTC
-- whatever the session's time zone.
CREATE OR REPLACE FUNCTION aula_delivery_stats() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO delivery_stats AS s (tenant_id, automation_id, minute, slot, attempts, succeeded)
    SELECT d.tenant_id, d.automation_id, date_trunc('minute', n.started_at, 'UTC'), pg_backend_pid(),
      count(*), count(*) FILTER (WHERE n.outcome = 'succeeded')
    FROM new_rows n JOIN webhook_deliveries d ON d.tenant_id = n.tenant_id AND d.id = n.delivery_id
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (tenant_id, automation_id, minute, slot) DO UPDATE
    SET attempts = s.attempts + EXCLUDED.attempts, succeeded = s.succeeded + EXCLUDED.succeeded;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER delivery_attempts_stats_insert AFTER INSERT ON delivery_attempts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_delivery_stats();
