-- Issue 20: two totals still counted rows on every request.
-- A user's enrollments (`GET /users/:id/enrollments`) counted the user's index entries: 56-75 ms for a user with
-- 100,000. The course trigger now also keeps `course_enrollments:user_id:<id>`; one trigger, so the tenant's
-- `course_enrollments` total is still counted once. user_id, like course_id, never changes on a row.
DROP TRIGGER IF EXISTS enrollments_course_count_insert ON enrollments;--> statement-breakpoint
DROP TRIGGER IF EXISTS enrollments_course_count_delete ON enrollments;--> statement-breakpoint
CREATE TRIGGER enrollments_course_count_insert AFTER INSERT ON enrollments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('course_enrollments', 'course_id', 'user_id');
--> statement-breakpoint
CREATE TRIGGER enrollments_course_count_delete AFTER DELETE ON enrollments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('course_enrollments', 'course_id', 'user_id');
--> statement-breakpoint
-- An occurrence's attendance (`?occurrenceId=`) counted the occurrence's rows: `live_class_attendance:occurrence_id:
-- <id>` beside the class's counter. Neither column changes when attendance is updated.
DROP TRIGGER IF EXISTS live_class_attendance_count_insert ON live_class_attendance;--> statement-breakpoint
DROP TRIGGER IF EXISTS live_class_attendance_count_delete ON live_class_attendance;--> statement-breakpoint
CREATE TRIGGER live_class_attendance_count_insert AFTER INSERT ON live_class_attendance REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('live_class_attendance', 'live_class_id', 'occurrence_id');
--> statement-breakpoint
CREATE TRIGGER live_class_attendance_count_delete AFTER DELETE ON live_class_attendance REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('live_class_attendance', 'live_class_id', 'occurrence_id');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'course_enrollments:user_id:' || user_id AS counter, count(*) AS n
    FROM enrollments GROUP BY tenant_id, user_id
    UNION ALL
    SELECT tenant_id, 'live_class_attendance:occurrence_id:' || occurrence_id, count(*)
    FROM live_class_attendance GROUP BY tenant_id, occurrence_id
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
--> statement-breakpoint
-- A filter of a small set of values within a parent (a class's members by role, a tag's resources by type, a
-- user's or a course's enrollments by status) counted its matches up to the cap: 10,001 index entries, about
-- 2 ms, on every page of a large class, tag, user or course. A bucket may now name several columns joined by `+`
-- (`class_group_id+role`): the counter `class_group_members:class_group_id+role:<class>:<role>` then counts the
-- rows holding that combination, kept exactly like a one-column bucket. Columns of a composite bucket are NOT
-- NULL. A one-column bucket's counter is spelled as before.
CREATE OR REPLACE FUNCTION aula_bucket_key(row_data jsonb, bucket text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN strpos(bucket, '+') = 0 THEN row_data ->> bucket
    ELSE (SELECT string_agg(row_data ->> c.name, ':' ORDER BY c.n)
          FROM unnest(string_to_array(bucket, '+')) WITH ORDINALITY AS c(name, n)) END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION aula_count_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  counter_name text := TG_ARGV[0];
  bucket_columns text[] := TG_ARGV[1:TG_NARGS - 1];
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT n.tenant_id, counter_name AS counter, 1 AS delta FROM new_rows n WHERE n.tenant_id IS NOT NULL
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(n), b.col), 1
        FROM new_rows n CROSS JOIN unnest(bucket_columns) AS b(col) WHERE n.tenant_id IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id, counter_name AS counter, -1 AS delta FROM old_rows o WHERE o.tenant_id IS NOT NULL
        UNION ALL
        SELECT o.tenant_id, counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(o), b.col), -1
        FROM old_rows o CROSS JOIN unnest(bucket_columns) AS b(col) WHERE o.tenant_id IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF cardinality(bucket_columns) > 0 THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id,
               counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(o), b.col) AS counter, -1 AS delta
        FROM old_rows o CROSS JOIN unnest(bucket_columns) AS b(col) WHERE o.tenant_id IS NOT NULL
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(n), b.col), 1
        FROM new_rows n CROSS JOIN unnest(bucket_columns) AS b(col) WHERE n.tenant_id IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter HAVING sum(d.delta) <> 0 ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS enrollments_count_insert ON enrollments;--> statement-breakpoint
DROP TRIGGER IF EXISTS enrollments_count_delete ON enrollments;--> statement-breakpoint
DROP TRIGGER IF EXISTS enrollments_count_update ON enrollments;--> statement-breakpoint
CREATE TRIGGER enrollments_count_insert AFTER INSERT ON enrollments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('enrollments', 'status', 'user_id+status', 'course_id+status');
--> statement-breakpoint
CREATE TRIGGER enrollments_count_delete AFTER DELETE ON enrollments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('enrollments', 'status', 'user_id+status', 'course_id+status');
--> statement-breakpoint
CREATE TRIGGER enrollments_count_update AFTER UPDATE ON enrollments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('enrollments', 'status', 'user_id+status', 'course_id+status');
--> statement-breakpoint
DROP TRIGGER IF EXISTS class_group_members_count_insert ON class_group_members;--> statement-breakpoint
DROP TRIGGER IF EXISTS class_group_members_count_delete ON class_group_members;--> statement-breakpoint
CREATE TRIGGER class_group_members_count_insert AFTER INSERT ON class_group_members REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('class_group_members', 'class_group_id', 'class_group_id+role');
--> statement-breakpoint
CREATE TRIGGER class_group_members_count_delete AFTER DELETE ON class_group_members REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('class_group_members', 'class_group_id', 'class_group_id+role');
--> statement-breakpoint
-- A member's role can be changed by an update; the class never is, so only the role's counter moves.
CREATE TRIGGER class_group_members_count_update AFTER UPDATE ON class_group_members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('class_group_members', 'class_group_id+role');
--> statement-breakpoint
DROP TRIGGER IF EXISTS tag_assignments_count_insert ON tag_assignments;--> statement-breakpoint
DROP TRIGGER IF EXISTS tag_assignments_count_delete ON tag_assignments;--> statement-breakpoint
CREATE TRIGGER tag_assignments_count_insert AFTER INSERT ON tag_assignments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('tag_assignments', 'tag_id', 'tag_id+resource_type');
--> statement-breakpoint
CREATE TRIGGER tag_assignments_count_delete AFTER DELETE ON tag_assignments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('tag_assignments', 'tag_id', 'tag_id+resource_type');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'enrollments:user_id+status:' || user_id || ':' || status AS counter, count(*) AS n
    FROM enrollments GROUP BY tenant_id, user_id, status
    UNION ALL
    SELECT tenant_id, 'enrollments:course_id+status:' || course_id || ':' || status, count(*)
    FROM enrollments GROUP BY tenant_id, course_id, status
    UNION ALL
    SELECT tenant_id, 'class_group_members:class_group_id+role:' || class_group_id || ':' || role, count(*)
    FROM class_group_members GROUP BY tenant_id, class_group_id, role
    UNION ALL
    SELECT tenant_id, 'tag_assignments:tag_id+resource_type:' || tag_id || ':' || resource_type, count(*)
    FROM tag_assignments GROUP BY tenant_id, tag_id, resource_type
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
--> statement-breakpoint
-- A user's enrollments by status, in list order: the page walked the user's index and filtered on status, reading
-- all of a user's 100,000 enrollments to find the ten suspended ones.
CREATE INDEX "enrollments_user_status_created_idx" ON "enrollments" USING btree ("tenant_id", "user_id", "status", "created_at", "id");
--> statement-breakpoint
-- A course's enrollments by status likewise (the roster integrations poll: `?courseId=&status=active`).
CREATE INDEX "enrollments_course_status_created_idx" ON "enrollments" USING btree ("tenant_id", "course_id", "status", "created_at", "id");
