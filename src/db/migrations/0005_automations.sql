CREATE TABLE "automations" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"kind" text DEFAULT 'automation' NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"trigger_event" text NOT NULL,
	"event_types" text[],
	"condition" jsonb,
	"action" jsonb NOT NULL,
	"signing_secret" text NOT NULL,
	"inbound_token_hash" text,
	"disabled_reason" text,
	"failing_since" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automations_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "delivery_attempts" (
	"tenant_id" uuid NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp(3) with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"outcome" text NOT NULL,
	"status_code" integer,
	"response_excerpt" text,
	"error" text,
	CONSTRAINT "delivery_attempts_tenant_id_delivery_id_attempt_pk" PRIMARY KEY("tenant_id","delivery_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "inbound_receipts" (
	"tenant_id" uuid NOT NULL,
	"automation_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"event_id" uuid NOT NULL,
	"received_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbound_receipts_tenant_id_automation_id_idempotency_key_pk" PRIMARY KEY("tenant_id","automation_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "platform_events" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"schema_version" integer NOT NULL,
	"occurred_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"actor" jsonb NOT NULL,
	"subject" jsonb,
	"data" jsonb NOT NULL,
	CONSTRAINT "platform_events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"automation_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"url" text NOT NULL,
	"headers" jsonb NOT NULL,
	"body" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp(3) with time zone,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp(3) with time zone,
	CONSTRAINT "webhook_deliveries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_tenant_id_delivery_id_webhook_deliveries_tenant_id_id_fk" FOREIGN KEY ("tenant_id","delivery_id") REFERENCES "public"."webhook_deliveries"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_receipts" ADD CONSTRAINT "inbound_receipts_tenant_id_automation_id_automations_tenant_id_id_fk" FOREIGN KEY ("tenant_id","automation_id") REFERENCES "public"."automations"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_events" ADD CONSTRAINT "platform_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_tenant_id_automation_id_automations_tenant_id_id_fk" FOREIGN KEY ("tenant_id","automation_id") REFERENCES "public"."automations"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automations_tenant_created_idx" ON "automations" USING btree ("tenant_id","kind","created_at","id");--> statement-breakpoint
CREATE INDEX "automations_trigger_idx" ON "automations" USING btree ("tenant_id","trigger_event") WHERE "automations"."enabled";--> statement-breakpoint
CREATE UNIQUE INDEX "automations_inbound_token_key" ON "automations" USING btree ("inbound_token_hash") WHERE "automations"."inbound_token_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "inbound_receipts_received_idx" ON "inbound_receipts" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "platform_events_occurred_idx" ON "platform_events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" IN ('pending', 'delivering');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_automation_idx" ON "webhook_deliveries" USING btree ("tenant_id","automation_id","created_at","id");