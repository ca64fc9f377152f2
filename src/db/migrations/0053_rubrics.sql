-- Issue 23 (part 2): rubrics. A rubric's criteria live in versions: the rubric points at its current version, and
-- a version an assessment was made with is never changed (an edit of the criteria then writes the next one).
-- Assessments keep the version they were made with. A grade item may name the rubric its grades come from.
-- Totals come from counters: the tenant's rubrics by status and scope, a rubric's assessments (and by version:
-- whether the current version is in use is one counter read).
CREATE TABLE "rubrics" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "title" text NOT NULL,
  "description" text,
  "scope" text DEFAULT 'institution' NOT NULL,
  "course_id" uuid,
  "free_form_comments" boolean DEFAULT false NOT NULL,
  "hide_score_total" boolean DEFAULT false NOT NULL,
  "status" text DEFAULT 'active' NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "rubrics_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "rubrics_course_fk" FOREIGN KEY ("tenant_id", "course_id")
    REFERENCES "courses" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "rubrics_scope_check" CHECK (("scope" = 'course') = ("course_id" IS NOT NULL)),
  CONSTRAINT "rubrics_status_check" CHECK ("status" IN ('active', 'archived'))
);
--> statement-breakpoint
CREATE INDEX "rubrics_tenant_created_idx" ON "rubrics" USING btree ("tenant_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "rubrics_tenant_status_created_idx" ON "rubrics" USING btree ("tenant_id", "status", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "rubrics_tenant_scope_created_idx" ON "rubrics" USING btree ("tenant_id", "scope", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "rubrics_tenant_course_created_idx" ON "rubrics" USING btree ("tenant_id", "course_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "rubrics_tenant_title_idx" ON "rubrics" USING btree ("tenant_id", aula_fold("title"), "title", "id");
--> statement-breakpoint
CREATE INDEX "rubrics_search_idx" ON "rubrics" USING gin ("tenant_id", aula_fold("title") gin_trgm_ops);
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS rubrics_parents_stats (dependencies) ON tenant_id, course_id FROM rubrics;
--> statement-breakpoint
CREATE TABLE "rubric_versions" (
  "tenant_id" uuid NOT NULL,
  "rubric_id" uuid NOT NULL,
  "version" integer NOT NULL,
  "criteria" jsonb NOT NULL,
  "points_possible" numeric(10, 2) NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "rubric_versions_pk" PRIMARY KEY ("tenant_id", "rubric_id", "version"),
  CONSTRAINT "rubric_versions_rubric_fk" FOREIGN KEY ("tenant_id", "rubric_id")
    REFERENCES "rubrics" ("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE TABLE "rubric_assessments" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "rubric_id" uuid NOT NULL,
  "rubric_version" integer NOT NULL,
  "target_type" text NOT NULL,
  "target_id" uuid NOT NULL,
  "course_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "assessed_by" jsonb NOT NULL,
  "type" text NOT NULL,
  "criterion_scores" jsonb NOT NULL,
  "total_points" numeric(10, 2) NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "rubric_assessments_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "rubric_assessments_version_fk" FOREIGN KEY ("tenant_id", "rubric_id", "rubric_version")
    REFERENCES "rubric_versions" ("tenant_id", "rubric_id", "version") ON DELETE CASCADE,
  CONSTRAINT "rubric_assessments_course_fk" FOREIGN KEY ("tenant_id", "course_id")
    REFERENCES "courses" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "rubric_assessments_user_fk" FOREIGN KEY ("tenant_id", "user_id")
    REFERENCES "users" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "rubric_assessments_type_check" CHECK ("type" IN ('grading', 'peer_review', 'self'))
);
--> statement-breakpoint
CREATE INDEX "rubric_assessments_rubric_created_idx" ON "rubric_assessments" USING btree ("tenant_id", "rubric_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "rubric_assessments_target_idx" ON "rubric_assessments" USING btree ("tenant_id", "target_type", "target_id");
--> statement-breakpoint
-- The rubric a grade item's grades come from: a grading assessment with it writes the item's grade.
ALTER TABLE "grade_items" ADD COLUMN "rubric_id" uuid;
--> statement-breakpoint
ALTER TABLE "grade_items" ADD CONSTRAINT "grade_items_rubric_fk" FOREIGN KEY ("tenant_id", "rubric_id")
  REFERENCES "rubrics" ("tenant_id", "id") ON DELETE SET NULL ("rubric_id");
--> statement-breakpoint
CREATE INDEX "grade_items_rubric_idx" ON "grade_items" USING btree ("tenant_id", "rubric_id") WHERE "rubric_id" IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER rubrics_count_insert AFTER INSERT ON rubrics REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('rubrics', 'status', 'scope');
--> statement-breakpoint
CREATE TRIGGER rubrics_count_delete AFTER DELETE ON rubrics REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('rubrics', 'status', 'scope');
--> statement-breakpoint
CREATE TRIGGER rubrics_count_update AFTER UPDATE ON rubrics REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('rubrics', 'status', 'scope');
--> statement-breakpoint
CREATE TRIGGER rubric_assessments_count_insert AFTER INSERT ON rubric_assessments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('rubric_assessments', 'rubric_id', 'rubric_id+rubric_version');
--> statement-breakpoint
CREATE TRIGGER rubric_assessments_count_delete AFTER DELETE ON rubric_assessments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('rubric_assessments', 'rubric_id', 'rubric_id+rubric_version');
