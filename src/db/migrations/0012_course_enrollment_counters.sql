-- A per-course enrollment count (`course_enrollments:course_id:<id>`), so `GET /enrollments?courseId=` reads its
-- total instead of counting a large course's enrollments on every page. A second counter name, because
-- aula_count_rows also counts its first argument and `enrollments` is already counted by status. course_id never
-- changes, so inserts and deletes are all there is to follow.
CREATE TRIGGER enrollments_course_count_insert AFTER INSERT ON enrollments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('course_enrollments', 'course_id');
--> statement-breakpoint
CREATE TRIGGER enrollments_course_count_delete AFTER DELETE ON enrollments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('course_enrollments', 'course_id');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'course_enrollments' AS counter, count(*) AS n FROM enrollments GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'course_enrollments:course_id:' || course_id, count(*)
    FROM enrollments GROUP BY tenant_id, course_id
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
