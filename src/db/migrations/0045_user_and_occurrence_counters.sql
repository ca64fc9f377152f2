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
