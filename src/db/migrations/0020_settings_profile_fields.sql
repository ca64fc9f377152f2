CREATE TABLE "enrollment_inactivity_notices" (
	"tenant_id" uuid NOT NULL,
	"enrollment_id" uuid NOT NULL,
	"activity_at" timestamp(3) with time zone NOT NULL,
	"emitted_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enrollment_inactivity_notices_tenant_id_enrollment_id_pk" PRIMARY KEY("tenant_id","enrollment_id")
);
--> statement-breakpoint
CREATE TABLE "institution_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"overrides" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_fields" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"label" text NOT NULL,
	"type" text NOT NULL,
	"options" jsonb,
	"required" boolean DEFAULT false NOT NULL,
	"unique" boolean DEFAULT false NOT NULL,
	"validation" jsonb,
	"position" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profile_fields_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "themes" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"logo_media_id" uuid,
	"favicon_media_id" uuid,
	"login_background_media_id" uuid,
	"custom_css" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "themes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "user_profile_values" (
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"field_id" uuid NOT NULL,
	"value" jsonb NOT NULL,
	"match_key" text,
	"unique_key" text,
	CONSTRAINT "user_profile_values_tenant_id_user_id_field_id_pk" PRIMARY KEY("tenant_id","user_id","field_id")
);
--> statement-breakpoint
ALTER TABLE "enrollment_inactivity_notices" ADD CONSTRAINT "enrollment_inactivity_notices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_inactivity_notices" ADD CONSTRAINT "enrollment_inactivity_notices_tenant_id_enrollment_id_enrollments_tenant_id_id_fk" FOREIGN KEY ("tenant_id","enrollment_id") REFERENCES "public"."enrollments"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institution_settings" ADD CONSTRAINT "institution_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_fields" ADD CONSTRAINT "profile_fields_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "themes" ADD CONSTRAINT "themes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_profile_values" ADD CONSTRAINT "user_profile_values_tenant_id_user_id_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_profile_values" ADD CONSTRAINT "user_profile_values_tenant_id_field_id_profile_fields_tenant_id_id_fk" FOREIGN KEY ("tenant_id","field_id") REFERENCES "public"."profile_fields"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_fields_tenant_key_key" ON "profile_fields" USING btree ("tenant_id","key");--> statement-breakpoint
CREATE INDEX "profile_fields_tenant_position_idx" ON "profile_fields" USING btree ("tenant_id","position");--> statement-breakpoint
CREATE INDEX "themes_tenant_created_idx" ON "themes" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "themes_one_active_key" ON "themes" USING btree ("tenant_id") WHERE "themes"."status" = 'active';--> statement-breakpoint
CREATE INDEX "user_profile_values_match_idx" ON "user_profile_values" USING btree ("tenant_id","field_id","match_key");--> statement-breakpoint
CREATE UNIQUE INDEX "user_profile_values_unique_key" ON "user_profile_values" USING btree ("tenant_id","field_id","unique_key") WHERE "user_profile_values"."unique_key" IS NOT NULL;