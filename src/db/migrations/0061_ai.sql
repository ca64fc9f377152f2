-- Issue 25 (part 1): the AI provider an institution configures, versioned prompts, AI credit limits with their
-- per-window counters, and the usage ledger with its daily rollups (analytics read the rollups, never the ledger).
CREATE TABLE "ai_provider_settings" (
  "tenant_id" uuid NOT NULL,
  "base_url" text NOT NULL,
  "api_key" text NOT NULL,
  "api_key_fingerprint" text NOT NULL,
  "default_model" text NOT NULL,
  "models" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "ai_provider_settings_pk" PRIMARY KEY ("tenant_id"),
  CONSTRAINT "ai_provider_settings_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE TABLE "prompts" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "key" text NOT NULL,
  "name" text NOT NULL,
  "feature" text NOT NULL,
  "scope" text DEFAULT 'institution' NOT NULL,
  "course_id" uuid,
  "status" text DEFAULT 'draft' NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "prompts_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "prompts_course_fk" FOREIGN KEY ("tenant_id", "course_id")
    REFERENCES "courses" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "prompts_scope_check" CHECK (("scope" = 'course') = ("course_id" IS NOT NULL)),
  CONSTRAINT "prompts_status_check" CHECK ("status" IN ('draft', 'active', 'archived'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "prompts_key_key" ON "prompts" USING btree ("tenant_id", "key");
--> statement-breakpoint
-- One active prompt per feature and scope (the institution's, or one course's).
CREATE UNIQUE INDEX "prompts_active_key" ON "prompts" USING btree
  ("tenant_id", "feature", coalesce("course_id", '00000000-0000-0000-0000-000000000000'::uuid))
  WHERE "status" = 'active';
--> statement-breakpoint
CREATE INDEX "prompts_tenant_created_idx" ON "prompts" USING btree ("tenant_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "prompts_tenant_feature_created_idx" ON "prompts" USING btree ("tenant_id", "feature", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "prompts_tenant_status_created_idx" ON "prompts" USING btree ("tenant_id", "status", "created_at", "id");
--> statement-breakpoint
CREATE TABLE "prompt_versions" (
  "tenant_id" uuid NOT NULL,
  "prompt_id" uuid NOT NULL,
  "version" integer NOT NULL,
  "template" text NOT NULL,
  "variables" jsonb NOT NULL,
  "model_params" jsonb NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "prompt_versions_pk" PRIMARY KEY ("tenant_id", "prompt_id", "version"),
  CONSTRAINT "prompt_versions_prompt_fk" FOREIGN KEY ("tenant_id", "prompt_id")
    REFERENCES "prompts" ("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE TABLE "ai_limit_policies" (
  "tenant_id" uuid NOT NULL,
  "enabled" boolean DEFAULT false NOT NULL,
  "unit" text DEFAULT 'credits' NOT NULL,
  "period" text DEFAULT 'month' NOT NULL,
  "per_user_limit" integer,
  "institution_limit" integer,
  "on_exhausted" text DEFAULT 'block' NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "ai_limit_policies_pk" PRIMARY KEY ("tenant_id"),
  CONSTRAINT "ai_limit_policies_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE TABLE "ai_limit_overrides" (
  "tenant_id" uuid NOT NULL,
  "subject_type" text NOT NULL,
  "subject_id" text NOT NULL,
  "limit" integer NOT NULL,
  "expires_at" timestamp(3) with time zone,
  "reason" text,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "ai_limit_overrides_pk" PRIMARY KEY ("tenant_id", "subject_type", "subject_id"),
  CONSTRAINT "ai_limit_overrides_type_check" CHECK ("subject_type" IN ('user', 'class_group', 'course', 'role'))
);
--> statement-breakpoint
-- What a subject (a user, or the whole institution) has spent in one window; a call reserves here first.
CREATE TABLE "ai_limit_counters" (
  "tenant_id" uuid NOT NULL,
  "subject_type" text NOT NULL,
  "subject_id" uuid NOT NULL,
  "window_start" timestamp(3) with time zone NOT NULL,
  "used" bigint DEFAULT 0 NOT NULL,
  "notified" boolean DEFAULT false NOT NULL,
  CONSTRAINT "ai_limit_counters_pk" PRIMARY KEY ("tenant_id", "subject_type", "subject_id", "window_start"),
  CONSTRAINT "ai_limit_counters_used_check" CHECK ("used" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ai_ledger" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "occurred_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "user_id" uuid,
  "course_id" uuid,
  "prompt_id" uuid,
  "feature" text NOT NULL,
  "model" text NOT NULL,
  "outcome" text NOT NULL,
  "input_tokens" integer NOT NULL,
  "output_tokens" integer NOT NULL,
  "credits" integer NOT NULL,
  CONSTRAINT "ai_ledger_pk" PRIMARY KEY ("tenant_id", "id")
);
--> statement-breakpoint
CREATE INDEX "ai_ledger_tenant_occurred_idx" ON "ai_ledger" USING btree ("tenant_id", "occurred_at", "id");
--> statement-breakpoint
-- One row per day (in the institution's time zone), feature, model, course and user: what analytics read.
CREATE TABLE "ai_usage_daily" (
  "tenant_id" uuid NOT NULL,
  "day" date NOT NULL,
  "feature" text NOT NULL,
  "model" text NOT NULL,
  "course_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000'::uuid NOT NULL,
  "user_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000'::uuid NOT NULL,
  "requests" integer DEFAULT 0 NOT NULL,
  "input_tokens" bigint DEFAULT 0 NOT NULL,
  "output_tokens" bigint DEFAULT 0 NOT NULL,
  "credits" bigint DEFAULT 0 NOT NULL,
  CONSTRAINT "ai_usage_daily_pk" PRIMARY KEY ("tenant_id", "day", "feature", "model", "course_id", "user_id")
);
