-- Issue 20: a list filtered by a parent (a lesson's completions, a module's lessons, a bank's questions, …) has
-- the tenant and the parent in its WHERE clause. The planner multiplies their selectivities as if independent,
-- so a large parent beside a larger tenant is estimated at a few thousand rows; "the first 10,001 matches" of
-- a capped count then looks cheaper gathered by a bitmap scan and sorted than walked in index order and stopped,
-- and bench (q) read 100,000 rows (34 ms) where 10,001 index entries (2 ms) do. A parent belongs to one tenant:
-- these functional-dependency statistics tell the planner so (ANALYZE fills them; autovacuum keeps them).
CREATE STATISTICS IF NOT EXISTS lesson_completions_parents_stats (dependencies)
  ON tenant_id, lesson_id, user_id, course_id, module_id FROM lesson_completions;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS lessons_parents_stats (dependencies) ON tenant_id, course_id, module_id FROM lessons;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS course_modules_parents_stats (dependencies) ON tenant_id, course_id FROM course_modules;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS enrollments_parents_stats (dependencies)
  ON tenant_id, course_id, user_id, class_group_id FROM enrollments;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS class_group_members_parents_stats (dependencies)
  ON tenant_id, class_group_id, user_id FROM class_group_members;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS tag_assignments_parents_stats (dependencies) ON tenant_id, tag_id FROM tag_assignments;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS questions_parents_stats (dependencies) ON tenant_id, bank_id FROM questions;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS question_banks_parents_stats (dependencies) ON tenant_id, course_id FROM question_banks;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS quiz_attempts_parents_stats (dependencies) ON tenant_id, quiz_id, user_id FROM quiz_attempts;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS live_class_attendance_parents_stats (dependencies)
  ON tenant_id, live_class_id, occurrence_id, user_id FROM live_class_attendance;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS email_messages_parents_stats (dependencies) ON tenant_id, to_user_id FROM email_messages;--> statement-breakpoint
CREATE STATISTICS IF NOT EXISTS media_parents_stats (dependencies) ON tenant_id, folder_id FROM media;
