-- Issue 23, part 5: learning paths (RESOURCES.md 4.37). A path is an ordered set of 1-50 courses of its tenant,
-- each required or optional, with prerequisites between them (course ids of the same path, kept acyclic by the
-- service). `required_count` is the number of its required courses, kept by the service with the course rows.
-- A user's enrollment in a path keeps its progress (`required_completed`: required courses of the path the user
-- holds a completed enrollment in), refreshed in the transaction of every change that can move it (a course
-- completion or its reset, an enrollment dropped or deleted, the path's courses changed, a course deleted), so
-- lists read it instead of recomputing it per page. Totals: the counters `learning_paths[:status:<s>]` and
-- `learning_path_enrollments:path_id[+status]:<path>[:<status>]` (a path's `enrolledCount`).
CREATE TABLE "learning_paths" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "title" text NOT NULL,
  "description" text,
  "sequential" boolean DEFAULT false NOT NULL,
  "status" text DEFAULT 'draft' NOT NULL,
  "required_count" integer DEFAULT 0 NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "learning_paths_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "learning_paths_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id")
    REFERENCES "public"."tenants" ("id") ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX "learning_paths_tenant_created_idx" ON "learning_paths" USING btree ("tenant_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "learning_paths_tenant_status_created_idx" ON "learning_paths" USING btree ("tenant_id", "status", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "learning_paths_tenant_title_idx" ON "learning_paths" USING btree ("tenant_id", aula_fold("title"), "title", "id");
--> statement-breakpoint
CREATE INDEX "learning_paths_search_idx" ON "learning_paths" USING gin ("tenant_id", aula_fold("title" || ' ' || coalesce("description", '')) gin_trgm_ops);
--> statement-breakpoint
CREATE TABLE "learning_path_courses" (
  "tenant_id" uuid NOT NULL,
  "path_id" uuid NOT NULL,
  "course_id" uuid NOT NULL,
  "position" integer NOT NULL,
  "required" boolean DEFAULT true NOT NULL,
  "prerequisites" uuid[] DEFAULT '{}' NOT NULL,
  CONSTRAINT "learning_path_courses_tenant_id_path_id_course_id_pk" PRIMARY KEY ("tenant_id", "path_id", "course_id"),
  CONSTRAINT "learning_path_courses_path_fk" FOREIGN KEY ("tenant_id", "path_id")
    REFERENCES "public"."learning_paths" ("tenant_id", "id") ON DELETE cascade,
  CONSTRAINT "learning_path_courses_course_fk" FOREIGN KEY ("tenant_id", "course_id")
    REFERENCES "public"."courses" ("tenant_id", "id") ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX "learning_path_courses_course_idx" ON "learning_path_courses" USING btree ("tenant_id", "course_id");
--> statement-breakpoint
CREATE TABLE "learning_path_enrollments" (
  "tenant_id" uuid NOT NULL,
  "path_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "status" text DEFAULT 'active' NOT NULL,
  "required_completed" integer DEFAULT 0 NOT NULL,
  "enrolled_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "completed_at" timestamp(3) with time zone,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "learning_path_enrollments_tenant_id_path_id_user_id_pk" PRIMARY KEY ("tenant_id", "path_id", "user_id"),
  CONSTRAINT "learning_path_enrollments_path_fk" FOREIGN KEY ("tenant_id", "path_id")
    REFERENCES "public"."learning_paths" ("tenant_id", "id") ON DELETE cascade,
  CONSTRAINT "learning_path_enrollments_user_fk" FOREIGN KEY ("tenant_id", "user_id")
    REFERENCES "public"."users" ("tenant_id", "id") ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX "learning_path_enrollments_path_enrolled_idx" ON "learning_path_enrollments" USING btree ("tenant_id", "path_id", "enrolled_at", "user_id");
--> statement-breakpoint
CREATE INDEX "learning_path_enrollments_path_status_enrolled_idx" ON "learning_path_enrollments" USING btree ("tenant_id", "path_id", "status", "enrolled_at", "user_id");
--> statement-breakpoint
CREATE INDEX "learning_path_enrollments_user_idx" ON "learning_path_enrollments" USING btree ("tenant_id", "user_id");
--> statement-breakpoint
CREATE TRIGGER learning_paths_count_insert AFTER INSERT ON learning_paths REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('learning_paths', 'status');
--> statement-breakpoint
CREATE TRIGGER learning_paths_count_delete AFTER DELETE ON learning_paths REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('learning_paths', 'status');
--> statement-breakpoint
CREATE TRIGGER learning_paths_count_update AFTER UPDATE ON learning_paths REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('learning_paths', 'status');
--> statement-breakpoint
CREATE TRIGGER learning_path_enrollments_count_insert AFTER INSERT ON learning_path_enrollments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('learning_path_enrollments', 'path_id', 'path_id+status');
--> statement-breakpoint
CREATE TRIGGER learning_path_enrollments_count_delete AFTER DELETE ON learning_path_enrollments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('learning_path_enrollments', 'path_id', 'path_id+status');
--> statement-breakpoint
-- A path enrollment's status moves (active <-> completed); its path never does, so only the status bucket moves.
CREATE TRIGGER learning_path_enrollments_count_update AFTER UPDATE ON learning_path_enrollments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('learning_path_enrollments', 'path_id+status');
--> statement-breakpoint
-- A path belongs to one tenant (see 0046): the planner is told so, or it estimates a large path's enrollments
-- beside a larger tenant as a few rows.
CREATE STATISTICS IF NOT EXISTS learning_path_enrollments_parents_stats (dependencies)
  ON tenant_id, path_id FROM learning_path_enrollments;
--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS learning_path_courses_parents_stats (dependencies)
  ON tenant_id, path_id FROM learning_path_courses;
