CREATE TABLE "question_banks" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"course_id" uuid,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_banks_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "question_versions" (
	"tenant_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_versions_tenant_id_question_id_version_pk" PRIMARY KEY("tenant_id","question_id","version")
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"bank_id" uuid NOT NULL,
	"type" text NOT NULL,
	"stem" text NOT NULL,
	"content" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"points" numeric(8, 2) DEFAULT 1 NOT NULL,
	"difficulty" text,
	"explanation" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "questions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "quiz_attempts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"quiz_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"enrollment_id" uuid,
	"attempt_number" integer NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"started_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp(3) with time zone,
	"time_spent_seconds" integer,
	"score" numeric(10, 2),
	"max_score" numeric(10, 2),
	"percent" numeric(5, 2),
	"passed" boolean,
	"questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"answers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"graded_by" jsonb,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quiz_attempts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "quizzes" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"lesson_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"instructions" text,
	"time_limit_seconds" integer,
	"allowed_attempts" integer,
	"scoring_policy" text DEFAULT 'highest' NOT NULL,
	"pass_percent" numeric(5, 2) DEFAULT 60 NOT NULL,
	"shuffle_questions" boolean DEFAULT false NOT NULL,
	"show_correct_answers" boolean DEFAULT false NOT NULL,
	"sections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quizzes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "invites" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"role" text DEFAULT 'student' NOT NULL,
	"course_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"class_group_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"message" text,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"sent_at" timestamp(3) with time zone,
	"accepted_at" timestamp(3) with time zone,
	"accepted_user_id" uuid,
	"invited_by" jsonb,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invites_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "tag_assignments" (
	"tenant_id" uuid NOT NULL,
	"tag_id" uuid NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" uuid NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tag_assignments_tenant_id_tag_id_resource_type_resource_id_pk" PRIMARY KEY("tenant_id","tag_id","resource_type","resource_id")
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"color" text,
	"applies_to" text[] NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tags_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "course_modules" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"course_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"position" integer NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"unlock_at" timestamp(3) with time zone,
	"prerequisite_module_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"completion_requirement" text DEFAULT 'all' NOT NULL,
	"sequential" boolean DEFAULT false NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_modules_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "enrollments" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"class_group_id" uuid,
	"role" text DEFAULT 'student' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"source" text DEFAULT 'api' NOT NULL,
	"enrolled_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp(3) with time zone,
	"completed_at" timestamp(3) with time zone,
	"expires_at" timestamp(3) with time zone,
	"last_activity_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enrollments_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "lesson_completions" (
	"tenant_id" uuid NOT NULL,
	"lesson_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"module_id" uuid NOT NULL,
	"enrollment_id" uuid,
	"completed_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"time_spent_seconds" integer,
	"score_percent" numeric(5, 2),
	"source" text DEFAULT 'api' NOT NULL,
	CONSTRAINT "lesson_completions_tenant_id_lesson_id_user_id_pk" PRIMARY KEY("tenant_id","lesson_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lessons" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"course_id" uuid NOT NULL,
	"module_id" uuid NOT NULL,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"content" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"position" integer NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"is_preview" boolean DEFAULT false NOT NULL,
	"duration_seconds" integer,
	"required_for_completion" boolean DEFAULT true NOT NULL,
	"completion_criteria" jsonb DEFAULT '{"type":"view"}'::jsonb NOT NULL,
	"unlock_at" timestamp(3) with time zone,
	"due_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lessons_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "tenant_domains" ADD COLUMN "last_checked_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "tenant_domains" ADD COLUMN "last_check_error" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "default_locale" text DEFAULT 'pt-BR' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "timezone" text DEFAULT 'America/Sao_Paulo' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "contact_email" text;--> statement-breakpoint
ALTER TABLE "class_group_members" ADD COLUMN "role" text DEFAULT 'student' NOT NULL;--> statement-breakpoint
ALTER TABLE "class_groups" ADD COLUMN "code" text;--> statement-breakpoint
ALTER TABLE "class_groups" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "class_groups" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "class_groups" ADD COLUMN "capacity" integer;--> statement-breakpoint
ALTER TABLE "class_groups" ADD COLUMN "course_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "class_groups" ADD COLUMN "starts_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "class_groups" ADD COLUMN "ends_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "question_banks" ADD CONSTRAINT "question_banks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_versions" ADD CONSTRAINT "question_versions_tenant_id_question_id_questions_tenant_id_id_fk" FOREIGN KEY ("tenant_id","question_id") REFERENCES "public"."questions"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_tenant_id_bank_id_question_banks_tenant_id_id_fk" FOREIGN KEY ("tenant_id","bank_id") REFERENCES "public"."question_banks"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD CONSTRAINT "quiz_attempts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD CONSTRAINT "quiz_attempts_tenant_id_quiz_id_quizzes_tenant_id_id_fk" FOREIGN KEY ("tenant_id","quiz_id") REFERENCES "public"."quizzes"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD CONSTRAINT "quiz_attempts_tenant_id_user_id_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_tenant_id_lesson_id_lessons_tenant_id_id_fk" FOREIGN KEY ("tenant_id","lesson_id") REFERENCES "public"."lessons"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_assignments" ADD CONSTRAINT "tag_assignments_tenant_id_tag_id_tags_tenant_id_id_fk" FOREIGN KEY ("tenant_id","tag_id") REFERENCES "public"."tags"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_modules" ADD CONSTRAINT "course_modules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_modules" ADD CONSTRAINT "course_modules_tenant_id_course_id_courses_tenant_id_id_fk" FOREIGN KEY ("tenant_id","course_id") REFERENCES "public"."courses"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_tenant_id_user_id_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_tenant_id_course_id_courses_tenant_id_id_fk" FOREIGN KEY ("tenant_id","course_id") REFERENCES "public"."courses"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_class_group_fk" FOREIGN KEY ("tenant_id","class_group_id") REFERENCES "public"."class_groups"("tenant_id","id") ON DELETE SET NULL ("class_group_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_completions" ADD CONSTRAINT "lesson_completions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_completions" ADD CONSTRAINT "lesson_completions_tenant_id_lesson_id_lessons_tenant_id_id_fk" FOREIGN KEY ("tenant_id","lesson_id") REFERENCES "public"."lessons"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_completions" ADD CONSTRAINT "lesson_completions_tenant_id_user_id_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lessons" ADD CONSTRAINT "lessons_tenant_id_module_id_course_modules_tenant_id_id_fk" FOREIGN KEY ("tenant_id","module_id") REFERENCES "public"."course_modules"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_banks_tenant_created_idx" ON "question_banks" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "questions_bank_created_idx" ON "questions" USING btree ("tenant_id","bank_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "quiz_attempts_number_key" ON "quiz_attempts" USING btree ("tenant_id","quiz_id","user_id","attempt_number");--> statement-breakpoint
CREATE INDEX "quiz_attempts_quiz_created_idx" ON "quiz_attempts" USING btree ("tenant_id","quiz_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "quizzes_lesson_key" ON "quizzes" USING btree ("tenant_id","lesson_id");--> statement-breakpoint
CREATE INDEX "quizzes_tenant_created_idx" ON "quizzes" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "invites_token_hash_key" ON "invites" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invites_tenant_created_idx" ON "invites" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "invites_tenant_email_idx" ON "invites" USING btree ("tenant_id",lower("email"));--> statement-breakpoint
CREATE INDEX "tag_assignments_resource_idx" ON "tag_assignments" USING btree ("tenant_id","resource_type","resource_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_tenant_name_key" ON "tags" USING btree ("tenant_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "tags_tenant_slug_key" ON "tags" USING btree ("tenant_id","slug");--> statement-breakpoint
CREATE INDEX "tags_tenant_created_idx" ON "tags" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "course_modules_course_position_idx" ON "course_modules" USING btree ("tenant_id","course_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "enrollments_current_key" ON "enrollments" USING btree ("tenant_id","user_id","course_id") WHERE "enrollments"."status" <> 'dropped';--> statement-breakpoint
CREATE INDEX "enrollments_tenant_created_idx" ON "enrollments" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "enrollments_course_created_idx" ON "enrollments" USING btree ("tenant_id","course_id","created_at","id");--> statement-breakpoint
CREATE INDEX "enrollments_user_created_idx" ON "enrollments" USING btree ("tenant_id","user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "enrollments_class_idx" ON "enrollments" USING btree ("tenant_id","class_group_id");--> statement-breakpoint
CREATE INDEX "lesson_completions_course_user_idx" ON "lesson_completions" USING btree ("tenant_id","course_id","user_id");--> statement-breakpoint
CREATE INDEX "lesson_completions_lesson_completed_idx" ON "lesson_completions" USING btree ("tenant_id","lesson_id","completed_at");--> statement-breakpoint
CREATE INDEX "lessons_module_position_idx" ON "lessons" USING btree ("tenant_id","module_id","position");--> statement-breakpoint
CREATE INDEX "lessons_course_idx" ON "lessons" USING btree ("tenant_id","course_id");--> statement-breakpoint
CREATE INDEX "class_group_members_class_created_idx" ON "class_group_members" USING btree ("tenant_id","class_group_id","created_at","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "class_groups_tenant_code_key" ON "class_groups" USING btree ("tenant_id","code");--> statement-breakpoint
CREATE INDEX "class_groups_tenant_created_idx" ON "class_groups" USING btree ("tenant_id","created_at","id");