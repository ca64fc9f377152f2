-- Counters behind the learning catalogue's list totals (see aula_count_rows), and tag assignments that go with
-- the resource they tag. class_groups and their members existed before these triggers: their counters are backfilled.
CREATE TRIGGER course_modules_count_insert AFTER INSERT ON course_modules REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('course_modules', 'course_id');
--> statement-breakpoint
CREATE TRIGGER course_modules_count_delete AFTER DELETE ON course_modules REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('course_modules', 'course_id');
--> statement-breakpoint
CREATE TRIGGER lessons_count_insert AFTER INSERT ON lessons REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('lessons', 'module_id');
--> statement-breakpoint
CREATE TRIGGER lessons_count_delete AFTER DELETE ON lessons REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('lessons', 'module_id');
--> statement-breakpoint
CREATE TRIGGER lessons_count_update AFTER UPDATE ON lessons REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('lessons', 'module_id');
--> statement-breakpoint
CREATE TRIGGER enrollments_count_insert AFTER INSERT ON enrollments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('enrollments', 'status');
--> statement-breakpoint
CREATE TRIGGER enrollments_count_delete AFTER DELETE ON enrollments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('enrollments', 'status');
--> statement-breakpoint
CREATE TRIGGER enrollments_count_update AFTER UPDATE ON enrollments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('enrollments', 'status');
--> statement-breakpoint
CREATE TRIGGER lesson_completions_count_insert AFTER INSERT ON lesson_completions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('lesson_completions', 'lesson_id');
--> statement-breakpoint
CREATE TRIGGER lesson_completions_count_delete AFTER DELETE ON lesson_completions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('lesson_completions', 'lesson_id');
--> statement-breakpoint
CREATE TRIGGER question_banks_count_insert AFTER INSERT ON question_banks REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('question_banks', 'status');
--> statement-breakpoint
CREATE TRIGGER question_banks_count_delete AFTER DELETE ON question_banks REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('question_banks', 'status');
--> statement-breakpoint
CREATE TRIGGER question_banks_count_update AFTER UPDATE ON question_banks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('question_banks', 'status');
--> statement-breakpoint
CREATE TRIGGER questions_count_insert AFTER INSERT ON questions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('questions', 'bank_id');
--> statement-breakpoint
CREATE TRIGGER questions_count_delete AFTER DELETE ON questions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('questions', 'bank_id');
--> statement-breakpoint
CREATE TRIGGER quizzes_count_insert AFTER INSERT ON quizzes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('quizzes');
--> statement-breakpoint
CREATE TRIGGER quizzes_count_delete AFTER DELETE ON quizzes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('quizzes');
--> statement-breakpoint
CREATE TRIGGER quiz_attempts_count_insert AFTER INSERT ON quiz_attempts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('quiz_attempts', 'quiz_id');
--> statement-breakpoint
CREATE TRIGGER quiz_attempts_count_delete AFTER DELETE ON quiz_attempts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('quiz_attempts', 'quiz_id');
--> statement-breakpoint
CREATE TRIGGER class_groups_count_insert AFTER INSERT ON class_groups REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('class_groups', 'status');
--> statement-breakpoint
CREATE TRIGGER class_groups_count_delete AFTER DELETE ON class_groups REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('class_groups', 'status');
--> statement-breakpoint
CREATE TRIGGER class_groups_count_update AFTER UPDATE ON class_groups REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('class_groups', 'status');
--> statement-breakpoint
CREATE TRIGGER class_group_members_count_insert AFTER INSERT ON class_group_members REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('class_group_members', 'class_group_id');
--> statement-breakpoint
CREATE TRIGGER class_group_members_count_delete AFTER DELETE ON class_group_members REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('class_group_members', 'class_group_id');
--> statement-breakpoint
CREATE TRIGGER invites_count_insert AFTER INSERT ON invites REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('invites', 'status');
--> statement-breakpoint
CREATE TRIGGER invites_count_delete AFTER DELETE ON invites REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('invites', 'status');
--> statement-breakpoint
CREATE TRIGGER invites_count_update AFTER UPDATE ON invites REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('invites', 'status');
--> statement-breakpoint
CREATE TRIGGER tags_count_insert AFTER INSERT ON tags REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('tags');
--> statement-breakpoint
CREATE TRIGGER tags_count_delete AFTER DELETE ON tags REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('tags');
--> statement-breakpoint
CREATE TRIGGER tag_assignments_count_insert AFTER INSERT ON tag_assignments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('tag_assignments', 'tag_id');
--> statement-breakpoint
CREATE TRIGGER tag_assignments_count_delete AFTER DELETE ON tag_assignments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('tag_assignments', 'tag_id');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'class_groups' AS counter, count(*) AS n FROM class_groups GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'class_groups:status:' || status, count(*) FROM class_groups GROUP BY tenant_id, status
    UNION ALL
    SELECT tenant_id, 'class_group_members', count(*) FROM class_group_members GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'class_group_members:class_group_id:' || class_group_id, count(*)
    FROM class_group_members GROUP BY tenant_id, class_group_id
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
--> statement-breakpoint
CREATE FUNCTION aula_detach_tags() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM tag_assignments a USING old_rows o
  WHERE a.tenant_id = o.tenant_id AND a.resource_type = TG_ARGV[0] AND a.resource_id = o.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_detach_tags AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_detach_tags('user');
--> statement-breakpoint
CREATE TRIGGER courses_detach_tags AFTER DELETE ON courses REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_detach_tags('course');
--> statement-breakpoint
CREATE TRIGGER class_groups_detach_tags AFTER DELETE ON class_groups REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_detach_tags('class');
--> statement-breakpoint
CREATE TRIGGER questions_detach_tags AFTER DELETE ON questions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_detach_tags('question');
