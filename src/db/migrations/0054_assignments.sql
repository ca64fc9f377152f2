-- Issue 23 (part 3): assignments and submissions. An assignment's settings are 1:1 with a lesson of type
-- `assignment` (as a quiz is with a quiz lesson); a student may have an extension that moves their due and lock
-- dates. A submission is one row per (lesson, student): its latest attempt, its grade and its status; earlier
-- attempts are copied to `submission_versions` when a new one replaces them. A `missing` row (attempt 0, nothing
-- submitted) is written by the worker once the student's due date passes. `rubric_assessment_id` is reserved for
-- the rubrics module (not linked here). Comments on a submission are a conversation of its student and the
-- course's staff. Totals come from counters: a lesson's submissions, by status too, and a submission's comments.
CREATE TABLE "assignments" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants" ("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "lesson_id" uuid NOT NULL,
  "course_id" uuid NOT NULL,
  "instructions" text,
  "due_at" timestamp(3) with time zone,
  "lock_at" timestamp(3) with time zone,
  "allowed_kinds" text[] DEFAULT '{text}' NOT NULL,
  "allowed_attempts" integer,
  "points_possible" numeric(10, 2) DEFAULT 100 NOT NULL,
  "late_policy" jsonb DEFAULT '{"deductionPercent":0,"interval":"day","maxDeductionPercent":100}'::jsonb NOT NULL,
  "missing_swept_at" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "assignments_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "assignments_lesson_fk" FOREIGN KEY ("tenant_id", "lesson_id")
    REFERENCES "lessons" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "assignments_points_check" CHECK ("points_possible" > 0),
  CONSTRAINT "assignments_attempts_check" CHECK ("allowed_attempts" IS NULL OR "allowed_attempts" BETWEEN 1 AND 100)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "assignments_lesson_key" ON "assignments" USING btree ("tenant_id", "lesson_id");
--> statement-breakpoint
-- The worker's pass over every tenant: assignments whose due date passed and whose students were not yet swept.
CREATE INDEX "assignments_missing_due_idx" ON "assignments" USING btree ("due_at") WHERE "due_at" IS NOT NULL AND "missing_swept_at" IS NULL;
--> statement-breakpoint
CREATE TABLE "assignment_extensions" (
  "tenant_id" uuid NOT NULL,
  "assignment_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "due_at" timestamp(3) with time zone NOT NULL,
  "lock_at" timestamp(3) with time zone,
  "missing_swept_at" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "assignment_extensions_pk" PRIMARY KEY ("tenant_id", "assignment_id", "user_id"),
  CONSTRAINT "assignment_extensions_assignment_fk" FOREIGN KEY ("tenant_id", "assignment_id")
    REFERENCES "assignments" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "assignment_extensions_user_fk" FOREIGN KEY ("tenant_id", "user_id")
    REFERENCES "users" ("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX "assignment_extensions_missing_due_idx" ON "assignment_extensions" USING btree ("due_at") WHERE "missing_swept_at" IS NULL;
--> statement-breakpoint
CREATE TABLE "submissions" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "assignment_id" uuid NOT NULL,
  "lesson_id" uuid NOT NULL,
  "course_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "enrollment_id" uuid,
  "attempt" integer NOT NULL,
  "status" text NOT NULL,
  "body_text" text,
  "attachment_media_ids" uuid[] DEFAULT '{}' NOT NULL,
  "url" text,
  "submitted_at" timestamp(3) with time zone,
  "late" boolean DEFAULT false NOT NULL,
  "seconds_late" integer DEFAULT 0 NOT NULL,
  "score" numeric(10, 2),
  "deducted_points" numeric(10, 2),
  "final_score" numeric(10, 2),
  "feedback" text,
  "rubric_assessment_id" uuid,
  "graded_at" timestamp(3) with time zone,
  "graded_by" jsonb,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "submissions_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "submissions_assignment_fk" FOREIGN KEY ("tenant_id", "assignment_id")
    REFERENCES "assignments" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "submissions_user_fk" FOREIGN KEY ("tenant_id", "user_id")
    REFERENCES "users" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "submissions_enrollment_fk" FOREIGN KEY ("tenant_id", "enrollment_id")
    REFERENCES "enrollments" ("tenant_id", "id") ON DELETE SET NULL ("enrollment_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_lesson_user_key" ON "submissions" USING btree ("tenant_id", "lesson_id", "user_id");
--> statement-breakpoint
CREATE INDEX "submissions_lesson_created_idx" ON "submissions" USING btree ("tenant_id", "lesson_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "submissions_lesson_status_created_idx" ON "submissions" USING btree ("tenant_id", "lesson_id", "status", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "submissions_assignment_idx" ON "submissions" USING btree ("tenant_id", "assignment_id");
--> statement-breakpoint
CREATE INDEX "submissions_enrollment_idx" ON "submissions" USING btree ("tenant_id", "enrollment_id");
--> statement-breakpoint
-- Earlier attempts of a submission, as they were when the next one replaced them (content and grade).
CREATE TABLE "submission_versions" (
  "tenant_id" uuid NOT NULL,
  "submission_id" uuid NOT NULL,
  "attempt" integer NOT NULL,
  "status" text NOT NULL,
  "body_text" text,
  "attachment_media_ids" uuid[] DEFAULT '{}' NOT NULL,
  "url" text,
  "submitted_at" timestamp(3) with time zone,
  "late" boolean NOT NULL,
  "seconds_late" integer NOT NULL,
  "score" numeric(10, 2),
  "deducted_points" numeric(10, 2),
  "final_score" numeric(10, 2),
  "feedback" text,
  "graded_at" timestamp(3) with time zone,
  "graded_by" jsonb,
  CONSTRAINT "submission_versions_pk" PRIMARY KEY ("tenant_id", "submission_id", "attempt"),
  CONSTRAINT "submission_versions_submission_fk" FOREIGN KEY ("tenant_id", "submission_id")
    REFERENCES "submissions" ("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
-- A conversation on a submission between its student and the course's staff (or an integration's key).
CREATE TABLE "submission_comments" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "submission_id" uuid NOT NULL,
  "author" jsonb NOT NULL,
  "body" text NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "submission_comments_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "submission_comments_submission_fk" FOREIGN KEY ("tenant_id", "submission_id")
    REFERENCES "submissions" ("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX "submission_comments_submission_created_idx" ON "submission_comments" USING btree ("tenant_id", "submission_id", "created_at", "id");
--> statement-breakpoint
CREATE TRIGGER submission_comments_count_insert AFTER INSERT ON submission_comments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('submission_comments', 'submission_id');
--> statement-breakpoint
CREATE TRIGGER submission_comments_count_delete AFTER DELETE ON submission_comments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('submission_comments', 'submission_id');
--> statement-breakpoint
CREATE TRIGGER submissions_count_insert AFTER INSERT ON submissions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('submissions', 'lesson_id', 'lesson_id+status');
--> statement-breakpoint
CREATE TRIGGER submissions_count_delete AFTER DELETE ON submissions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('submissions', 'lesson_id', 'lesson_id+status');
--> statement-breakpoint
CREATE TRIGGER submissions_count_update AFTER UPDATE ON submissions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('submissions', 'lesson_id', 'lesson_id+status');
