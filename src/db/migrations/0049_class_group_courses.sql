-- Issue 20: the classes of one course (`GET /classes?courseId=`) were paged by walking the tenant's classes in list
-- order and testing each row's course_ids array. Whether the planner used the GIN index instead depended on the
-- array statistics, which a course followed by ten classes of 1,000,000 does not reach: 3 requests/s at that
-- size. class_group_courses holds one row per course of a class with the class's sort keys, kept by the triggers
-- below (as question_tags does for a question's tags, migration 0048), so the page walks (tenant, course, order)
-- and reads only the page; the course's total is the counter `class_group_courses:course_id:<course>`.
CREATE TABLE "class_group_courses" (
  "tenant_id" uuid NOT NULL,
  "class_group_id" uuid NOT NULL,
  "course_id" uuid NOT NULL,
  "name" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  CONSTRAINT "class_group_courses_pk" PRIMARY KEY ("tenant_id", "class_group_id", "course_id"),
  CONSTRAINT "class_group_courses_class_fk" FOREIGN KEY ("tenant_id", "class_group_id")
    REFERENCES "class_groups" ("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX "class_group_courses_created_idx" ON "class_group_courses" USING btree ("tenant_id", "course_id", "created_at", "class_group_id");
--> statement-breakpoint
CREATE INDEX "class_group_courses_name_idx" ON "class_group_courses" USING btree ("tenant_id", "course_id", aula_fold("name"), "class_group_id");
--> statement-breakpoint
CREATE TRIGGER class_group_courses_count_insert AFTER INSERT ON class_group_courses REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('class_group_courses', 'course_id');
--> statement-breakpoint
CREATE TRIGGER class_group_courses_count_delete AFTER DELETE ON class_group_courses REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('class_group_courses', 'course_id');
--> statement-breakpoint
CREATE FUNCTION aula_class_group_courses_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO class_group_courses (tenant_id, class_group_id, course_id, name, created_at)
    SELECT DISTINCT n.tenant_id, n.id, c.course_id, n.name, n.created_at
    FROM new_rows n CROSS JOIN LATERAL unnest(n.course_ids) AS c(course_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- An update rewrites the rows of the classes whose courses, name or creation time changed, and no others.
CREATE FUNCTION aula_class_group_courses_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM class_group_courses k
    USING old_rows o JOIN new_rows n ON n.tenant_id = o.tenant_id AND n.id = o.id
    WHERE k.tenant_id = o.tenant_id AND k.class_group_id = o.id
      AND (o.course_ids IS DISTINCT FROM n.course_ids OR o.name <> n.name OR o.created_at <> n.created_at);
  INSERT INTO class_group_courses (tenant_id, class_group_id, course_id, name, created_at)
    SELECT DISTINCT n.tenant_id, n.id, c.course_id, n.name, n.created_at
    FROM old_rows o JOIN new_rows n ON n.tenant_id = o.tenant_id AND n.id = o.id
    CROSS JOIN LATERAL unnest(n.course_ids) AS c(course_id)
    WHERE o.course_ids IS DISTINCT FROM n.course_ids OR o.name <> n.name OR o.created_at <> n.created_at;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER class_groups_courses_insert AFTER INSERT ON class_groups REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_class_group_courses_insert();
--> statement-breakpoint
CREATE TRIGGER class_groups_courses_update AFTER UPDATE ON class_groups REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_class_group_courses_update();
--> statement-breakpoint
INSERT INTO class_group_courses (tenant_id, class_group_id, course_id, name, created_at)
  SELECT DISTINCT g.tenant_id, g.id, c.course_id, g.name, g.created_at
  FROM class_groups g CROSS JOIN LATERAL unnest(g.course_ids) AS c(course_id);
