CREATE TABLE "calendar_events" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"starts_at" timestamp(3) with time zone NOT NULL,
	"ends_at" timestamp(3) with time zone NOT NULL,
	"all_day" boolean DEFAULT false NOT NULL,
	"timezone" text,
	"location_name" text,
	"location_address" text,
	"url" text,
	"context_type" text NOT NULL,
	"context_id" uuid,
	"recurrence" text,
	"last_ends_at" timestamp(3) with time zone NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "calendar_feeds" (
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feeds_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "live_class_attendance" (
	"tenant_id" uuid NOT NULL,
	"occurrence_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"live_class_id" uuid NOT NULL,
	"joined_at" timestamp(3) with time zone,
	"left_at" timestamp(3) with time zone,
	"duration_seconds" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"attended_at" timestamp(3) with time zone,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_class_attendance_tenant_id_occurrence_id_user_id_pk" PRIMARY KEY("tenant_id","occurrence_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "live_class_occurrences" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"live_class_id" uuid NOT NULL,
	"starts_at" timestamp(3) with time zone NOT NULL,
	"ends_at" timestamp(3) with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"external_meeting_id" text,
	"external_join_url" text,
	"started_at" timestamp(3) with time zone,
	"ended_at" timestamp(3) with time zone,
	CONSTRAINT "live_class_occurrences_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "live_classes" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"course_id" uuid,
	"lesson_id" uuid,
	"class_group_id" uuid,
	"host_user_id" uuid NOT NULL,
	"co_host_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"invitee_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"starts_at" timestamp(3) with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"timezone" text NOT NULL,
	"recurrence" text,
	"video_provider_id" uuid,
	"room_secret" text NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"recording_enabled" boolean DEFAULT false NOT NULL,
	"attendance_threshold_minutes" integer,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_classes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "video_providers" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"purpose" text NOT NULL,
	"name" text NOT NULL,
	"credentials" text,
	"credentials_fingerprint" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'connected' NOT NULL,
	"last_checked_at" timestamp(3) with time zone,
	"last_error" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_providers_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_tenant_id_user_id_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_class_attendance" ADD CONSTRAINT "live_class_attendance_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_class_attendance" ADD CONSTRAINT "live_class_attendance_tenant_id_occurrence_id_live_class_occurrences_tenant_id_id_fk" FOREIGN KEY ("tenant_id","occurrence_id") REFERENCES "public"."live_class_occurrences"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_class_attendance" ADD CONSTRAINT "live_class_attendance_tenant_id_user_id_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_class_occurrences" ADD CONSTRAINT "live_class_occurrences_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_class_occurrences" ADD CONSTRAINT "live_class_occurrences_tenant_id_live_class_id_live_classes_tenant_id_id_fk" FOREIGN KEY ("tenant_id","live_class_id") REFERENCES "public"."live_classes"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_classes" ADD CONSTRAINT "live_classes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_providers" ADD CONSTRAINT "video_providers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_events_window_idx" ON "calendar_events" USING btree ("tenant_id","starts_at","last_ends_at");--> statement-breakpoint
CREATE INDEX "calendar_events_tenant_created_idx" ON "calendar_events" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_token_key" ON "calendar_feeds" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "live_class_attendance_class_idx" ON "live_class_attendance" USING btree ("tenant_id","live_class_id");--> statement-breakpoint
CREATE INDEX "live_class_occurrences_class_idx" ON "live_class_occurrences" USING btree ("tenant_id","live_class_id","starts_at");--> statement-breakpoint
CREATE INDEX "live_class_occurrences_window_idx" ON "live_class_occurrences" USING btree ("tenant_id","starts_at");--> statement-breakpoint
CREATE INDEX "live_classes_tenant_created_idx" ON "live_classes" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "live_classes_provider_idx" ON "live_classes" USING btree ("tenant_id","video_provider_id");--> statement-breakpoint
CREATE INDEX "video_providers_tenant_created_idx" ON "video_providers" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "video_providers_default_key" ON "video_providers" USING btree ("tenant_id","purpose") WHERE "video_providers"."is_default";