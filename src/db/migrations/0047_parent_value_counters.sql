-- Issue 20: a filter on one value of a small set within a parent (a course's modules by status, a module's lessons
-- by status or type, a quiz's attempts by status, a bank's questions by status or type, the media
-- library by kind) counted its matches up to the cap on every page: 10,001 index entries, 2-3 ms, against 0.1 ms
-- in a small institution. They now read counters kept like migration 0045's composite buckets, so these totals
-- are exact and cost one lookup at any size. Update triggers are added where a counted column can change
-- (status everywhere, a question's type; a lesson's module already had one). An update that changes no counted
-- column writes no counter: its old and new rows cancel out before the upsert.
DROP TRIGGER IF EXISTS course_modules_count_insert ON course_modules;--> statement-breakpoint
DROP TRIGGER IF EXISTS course_modules_count_delete ON course_modules;--> statement-breakpoint
DROP TRIGGER IF EXISTS course_modules_count_update ON course_modules;--> statement-breakpoint
CREATE TRIGGER course_modules_count_insert AFTER INSERT ON course_modules REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('course_modules', 'course_id', 'course_id+status');
--> statement-breakpoint
CREATE TRIGGER course_modules_count_delete AFTER DELETE ON course_modules REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('course_modules', 'course_id', 'course_id+status');
--> statement-breakpoint
CREATE TRIGGER course_modules_count_update AFTER UPDATE ON course_modules REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('course_modules', 'course_id', 'course_id+status');
--> statement-breakpoint
DROP TRIGGER IF EXISTS lessons_count_insert ON lessons;--> statement-breakpoint
DROP TRIGGER IF EXISTS lessons_count_delete ON lessons;--> statement-breakpoint
DROP TRIGGER IF EXISTS lessons_count_update ON lessons;--> statement-breakpoint
CREATE TRIGGER lessons_count_insert AFTER INSERT ON lessons REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('lessons', 'module_id', 'module_id+status', 'module_id+type');
--> statement-breakpoint
CREATE TRIGGER lessons_count_delete AFTER DELETE ON lessons REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('lessons', 'module_id', 'module_id+status', 'module_id+type');
--> statement-breakpoint
CREATE TRIGGER lessons_count_update AFTER UPDATE ON lessons REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('lessons', 'module_id', 'module_id+status', 'module_id+type');
--> statement-breakpoint
DROP TRIGGER IF EXISTS quiz_attempts_count_insert ON quiz_attempts;--> statement-breakpoint
DROP TRIGGER IF EXISTS quiz_attempts_count_delete ON quiz_attempts;--> statement-breakpoint
DROP TRIGGER IF EXISTS quiz_attempts_count_update ON quiz_attempts;--> statement-breakpoint
CREATE TRIGGER quiz_attempts_count_insert AFTER INSERT ON quiz_attempts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('quiz_attempts', 'quiz_id', 'quiz_id+status');
--> statement-breakpoint
CREATE TRIGGER quiz_attempts_count_delete AFTER DELETE ON quiz_attempts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('quiz_attempts', 'quiz_id', 'quiz_id+status');
--> statement-breakpoint
CREATE TRIGGER quiz_attempts_count_update AFTER UPDATE ON quiz_attempts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('quiz_attempts', 'quiz_id', 'quiz_id+status');
--> statement-breakpoint
DROP TRIGGER IF EXISTS questions_count_insert ON questions;--> statement-breakpoint
DROP TRIGGER IF EXISTS questions_count_delete ON questions;--> statement-breakpoint
DROP TRIGGER IF EXISTS questions_count_update ON questions;--> statement-breakpoint
CREATE TRIGGER questions_count_insert AFTER INSERT ON questions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('questions', 'bank_id', 'bank_id+status', 'bank_id+type');
--> statement-breakpoint
CREATE TRIGGER questions_count_delete AFTER DELETE ON questions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('questions', 'bank_id', 'bank_id+status', 'bank_id+type');
--> statement-breakpoint
CREATE TRIGGER questions_count_update AFTER UPDATE ON questions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('questions', 'bank_id', 'bank_id+status', 'bank_id+type');
--> statement-breakpoint
DROP TRIGGER IF EXISTS media_count_insert ON media;--> statement-breakpoint
DROP TRIGGER IF EXISTS media_count_delete ON media;--> statement-breakpoint
DROP TRIGGER IF EXISTS media_count_update ON media;--> statement-breakpoint
CREATE TRIGGER media_count_insert AFTER INSERT ON media REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('media', 'status', 'kind');
--> statement-breakpoint
CREATE TRIGGER media_count_delete AFTER DELETE ON media REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('media', 'status', 'kind');
--> statement-breakpoint
CREATE TRIGGER media_count_update AFTER UPDATE ON media REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('media', 'status', 'kind');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'course_modules:course_id+status:' || course_id || ':' || status AS counter, count(*) AS n FROM course_modules GROUP BY tenant_id, course_id, status
    UNION ALL
    SELECT tenant_id, 'lessons:module_id+status:' || module_id || ':' || status AS counter, count(*) AS n FROM lessons GROUP BY tenant_id, module_id, status
    UNION ALL
    SELECT tenant_id, 'lessons:module_id+type:' || module_id || ':' || type AS counter, count(*) AS n FROM lessons GROUP BY tenant_id, module_id, type
    UNION ALL
    SELECT tenant_id, 'quiz_attempts:quiz_id+status:' || quiz_id || ':' || status AS counter, count(*) AS n FROM quiz_attempts GROUP BY tenant_id, quiz_id, status
    UNION ALL
    SELECT tenant_id, 'questions:bank_id+status:' || bank_id || ':' || status AS counter, count(*) AS n FROM questions GROUP BY tenant_id, bank_id, status
    UNION ALL
    SELECT tenant_id, 'questions:bank_id+type:' || bank_id || ':' || type AS counter, count(*) AS n FROM questions GROUP BY tenant_id, bank_id, type
    UNION ALL
    SELECT tenant_id, 'media:kind:' || kind AS counter, count(*) AS n FROM media GROUP BY tenant_id, kind
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
