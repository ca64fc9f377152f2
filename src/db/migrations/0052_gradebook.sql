-- Issue 23 (part 1): the gradebook. Categories and items per course, one grade per (item, student), the course
-- grade per enrollment kept by every grade write (so the gradebook page reads it and never recomputes a course),
-- and an append-only log of grade changes. Totals come from counters: a course's categories, items and log
-- entries, an item's grades, and a course's students by enrollment status (a new `course_id+role+status`
-- bucket on enrollments, so the gradebook's rows are counted without reading the course's enrollments).
CREATE TABLE "grade_categories" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "course_id" uuid NOT NULL,
  "name" text NOT NULL,
  "weight" numeric(5, 2),
  "drop_lowest" integer DEFAULT 0 NOT NULL,
  "position" integer NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "grade_categories_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "grade_categories_course_fk" FOREIGN KEY ("tenant_id", "course_id")
    REFERENCES "courses" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "grade_categories_weight_check" CHECK ("weight" IS NULL OR ("weight" >= 0 AND "weight" <= 100)),
  CONSTRAINT "grade_categories_drop_lowest_check" CHECK ("drop_lowest" >= 0)
);
--> statement-breakpoint
CREATE INDEX "grade_categories_course_position_idx" ON "grade_categories" USING btree ("tenant_id", "course_id", "position", "id");
--> statement-breakpoint
CREATE TABLE "grade_items" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "course_id" uuid NOT NULL,
  "category_id" uuid,
  "title" text NOT NULL,
  "source_type" text DEFAULT 'manual' NOT NULL,
  "source_id" uuid,
  "max_points" numeric(10, 2) NOT NULL,
  "pass_percent" numeric(5, 2),
  "due_at" timestamp(3) with time zone,
  "position" integer NOT NULL,
  "visible_to_students" boolean DEFAULT true NOT NULL,
  "post_policy" text DEFAULT 'automatic' NOT NULL,
  "excluded_from_final" boolean DEFAULT false NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "grade_items_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "grade_items_course_fk" FOREIGN KEY ("tenant_id", "course_id")
    REFERENCES "courses" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "grade_items_category_fk" FOREIGN KEY ("tenant_id", "category_id")
    REFERENCES "grade_categories" ("tenant_id", "id") ON DELETE SET NULL ("category_id"),
  CONSTRAINT "grade_items_max_points_check" CHECK ("max_points" > 0)
);
--> statement-breakpoint
CREATE INDEX "grade_items_course_position_idx" ON "grade_items" USING btree ("tenant_id", "course_id", "position", "id");
--> statement-breakpoint
CREATE INDEX "grade_items_category_idx" ON "grade_items" USING btree ("tenant_id", "category_id");
--> statement-breakpoint
-- A quiz (or any source) feeds one grade item of its course.
CREATE UNIQUE INDEX "grade_items_source_key" ON "grade_items" USING btree ("tenant_id", "course_id", "source_type", "source_id") WHERE "source_id" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "grades" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "grade_item_id" uuid NOT NULL,
  "course_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "enrollment_id" uuid,
  "score" numeric(10, 2),
  "override_score" numeric(10, 2),
  "status" text DEFAULT 'pending' NOT NULL,
  "feedback" text,
  "graded_by" jsonb,
  "graded_at" timestamp(3) with time zone,
  "posted_at" timestamp(3) with time zone,
  "source" text DEFAULT 'manual' NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "grades_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "grades_item_fk" FOREIGN KEY ("tenant_id", "grade_item_id")
    REFERENCES "grade_items" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "grades_user_fk" FOREIGN KEY ("tenant_id", "user_id")
    REFERENCES "users" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "grades_enrollment_fk" FOREIGN KEY ("tenant_id", "enrollment_id")
    REFERENCES "enrollments" ("tenant_id", "id") ON DELETE SET NULL ("enrollment_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "grades_item_user_key" ON "grades" USING btree ("tenant_id", "grade_item_id", "user_id");
--> statement-breakpoint
CREATE INDEX "grades_item_created_idx" ON "grades" USING btree ("tenant_id", "grade_item_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "grades_course_user_idx" ON "grades" USING btree ("tenant_id", "course_id", "user_id");
--> statement-breakpoint
CREATE INDEX "grades_enrollment_idx" ON "grades" USING btree ("tenant_id", "enrollment_id");
--> statement-breakpoint
CREATE TABLE "course_grades" (
  "tenant_id" uuid NOT NULL,
  "course_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "enrollment_id" uuid,
  "current_score" numeric(7, 2),
  "final_score" numeric(7, 2),
  "unposted_current_score" numeric(7, 2),
  "unposted_final_score" numeric(7, 2),
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "course_grades_pk" PRIMARY KEY ("tenant_id", "course_id", "user_id"),
  CONSTRAINT "course_grades_course_fk" FOREIGN KEY ("tenant_id", "course_id")
    REFERENCES "courses" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "course_grades_user_fk" FOREIGN KEY ("tenant_id", "user_id")
    REFERENCES "users" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "course_grades_enrollment_fk" FOREIGN KEY ("tenant_id", "enrollment_id")
    REFERENCES "enrollments" ("tenant_id", "id") ON DELETE SET NULL ("enrollment_id")
);
--> statement-breakpoint
CREATE INDEX "course_grades_enrollment_idx" ON "course_grades" USING btree ("tenant_id", "enrollment_id");
--> statement-breakpoint
-- Append-only: who changed which grade, when, through what, from what to what. `seq` orders it (a bulk write's
-- rows share their transaction's time). Not tied to the grade: the log outlives a deleted item.
CREATE TABLE "grade_changes" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "seq" bigint GENERATED ALWAYS AS IDENTITY,
  "course_id" uuid NOT NULL,
  "grade_item_id" uuid NOT NULL,
  "grade_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "actor_type" text NOT NULL,
  "actor_id" uuid,
  "via" text NOT NULL,
  "score_before" numeric(10, 2),
  "score_after" numeric(10, 2),
  "status_before" text,
  "status_after" text,
  "override_before" numeric(10, 2),
  "override_after" numeric(10, 2),
  "posted_before" timestamp(3) with time zone,
  "posted_after" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "grade_changes_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "grade_changes_course_fk" FOREIGN KEY ("tenant_id", "course_id")
    REFERENCES "courses" ("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX "grade_changes_course_seq_idx" ON "grade_changes" USING btree ("tenant_id", "course_id", "seq");
--> statement-breakpoint
CREATE TRIGGER grade_categories_count_insert AFTER INSERT ON grade_categories REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('grade_categories', 'course_id');
--> statement-breakpoint
CREATE TRIGGER grade_categories_count_delete AFTER DELETE ON grade_categories REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('grade_categories', 'course_id');
--> statement-breakpoint
CREATE TRIGGER grade_items_count_insert AFTER INSERT ON grade_items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('grade_items', 'course_id');
--> statement-breakpoint
CREATE TRIGGER grade_items_count_delete AFTER DELETE ON grade_items REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('grade_items', 'course_id');
--> statement-breakpoint
CREATE TRIGGER grades_count_insert AFTER INSERT ON grades REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('grades', 'grade_item_id');
--> statement-breakpoint
CREATE TRIGGER grades_count_delete AFTER DELETE ON grades REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('grades', 'grade_item_id');
--> statement-breakpoint
CREATE TRIGGER grade_changes_count_insert AFTER INSERT ON grade_changes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('grade_changes', 'course_id');
--> statement-breakpoint
CREATE TRIGGER grade_changes_count_delete AFTER DELETE ON grade_changes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('grade_changes', 'course_id');
--> statement-breakpoint
-- The gradebook's rows are a course's student enrollments that are not dropped: its total is the sum of the
-- `course_id+role+status` counters of the other statuses. A role or status update moves them.
DROP TRIGGER IF EXISTS enrollments_count_insert ON enrollments;--> statement-breakpoint
DROP TRIGGER IF EXISTS enrollments_count_delete ON enrollments;--> statement-breakpoint
DROP TRIGGER IF EXISTS enrollments_count_update ON enrollments;--> statement-breakpoint
CREATE TRIGGER enrollments_count_insert AFTER INSERT ON enrollments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('enrollments', 'status', 'user_id+status', 'course_id+status', 'course_id+role+status');
--> statement-breakpoint
CREATE TRIGGER enrollments_count_delete AFTER DELETE ON enrollments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('enrollments', 'status', 'user_id+status', 'course_id+status', 'course_id+role+status');
--> statement-breakpoint
CREATE TRIGGER enrollments_count_update AFTER UPDATE ON enrollments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('enrollments', 'status', 'user_id+status', 'course_id+status', 'course_id+role+status');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, 'enrollments:course_id+role+status:' || course_id || ':' || role || ':' || status, count(*)
  FROM enrollments GROUP BY tenant_id, course_id, role, status
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
