CREATE TABLE "inactivity_notices" (
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"threshold_days" integer NOT NULL,
	"activity_at" timestamp(3) with time zone NOT NULL,
	"emitted_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inactivity_notices_tenant_id_user_id_threshold_days_pk" PRIMARY KEY("tenant_id","user_id","threshold_days")
);
--> statement-breakpoint
ALTER TABLE "inactivity_notices" ADD CONSTRAINT "inactivity_notices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inactivity_notices" ADD CONSTRAINT "inactivity_notices_tenant_id_user_id_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;