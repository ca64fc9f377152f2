CREATE TABLE "billing_subscriptions" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"stripe_customer_id" text NOT NULL,
	"stripe_subscription_id" text,
	"plan" text,
	"price_id" text,
	"currency" text,
	"status" text,
	"current_period_start" timestamp(3) with time zone,
	"current_period_end" timestamp(3) with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"grace_deadline" timestamp(3) with time zone,
	"last_event_at" timestamp(3) with time zone,
	"last_event_id" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"event_created_at" timestamp(3) with time zone NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_subscriptions_customer_key" ON "billing_subscriptions" USING btree ("stripe_customer_id");--> statement-breakpoint
CREATE INDEX "billing_subscriptions_grace_idx" ON "billing_subscriptions" USING btree ("grace_deadline") WHERE "billing_subscriptions"."status" = 'past_due';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_provider_event_key" ON "payment_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "payment_events_tenant_received_idx" ON "payment_events" USING btree ("tenant_id","received_at","id");