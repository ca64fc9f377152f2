-- Issue 20, the catalogue's lists. A course's quizzes are counted by the triggers (`quizzes:course_id:<id>`), so
-- `GET /quizzes?courseId=` reads an exact total instead of counting a large course's quizzes per request: the
-- quizzes triggers now bucket by course (a quiz's course_id never changes: a lesson moves only within its
-- course), and the existing quizzes' course counters are backfilled. The indexes let a rare value of a filter
-- find its few rows instead of walking the parent's rows in list order: a course's quizzes, a module's lessons of
-- a type, a bank's questions of a type or status, and a bank's questions carrying a tag (GIN over the array,
-- led by tenant and bank through btree_gin; the repository asks `tags @> ARRAY[tag]`, which it answers). That
-- index writes its entries at once (fastupdate off): entries waiting in GIN's pending list until a vacuum are
-- costed as a scan of the whole list, and after a bank's questions were imported the planner scanned the table.
DROP TRIGGER quizzes_count_insert ON quizzes;--> statement-breakpoint
DROP TRIGGER quizzes_count_delete ON quizzes;--> statement-breakpoint
CREATE TRIGGER quizzes_count_insert AFTER INSERT ON quizzes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('quizzes', 'course_id');
--> statement-breakpoint
CREATE TRIGGER quizzes_count_delete AFTER DELETE ON quizzes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('quizzes', 'course_id');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, 'quizzes:course_id:' || course_id, count(*) FROM quizzes GROUP BY tenant_id, course_id
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
--> statement-breakpoint
CREATE INDEX "quizzes_tenant_course_created_idx" ON "quizzes" USING btree ("tenant_id", "course_id", "created_at", "id");--> statement-breakpoint
CREATE INDEX "lessons_module_type_position_idx" ON "lessons" USING btree ("tenant_id", "module_id", "type", "position", "id");--> statement-breakpoint
CREATE INDEX "questions_bank_type_created_idx" ON "questions" USING btree ("tenant_id", "bank_id", "type", "created_at", "id");--> statement-breakpoint
CREATE INDEX "questions_bank_status_created_idx" ON "questions" USING btree ("tenant_id", "bank_id", "status", "created_at", "id");--> statement-breakpoint
CREATE INDEX "questions_bank_tags_idx" ON "questions" USING gin ("tenant_id", "bank_id", "tags") WITH (fastupdate = off);
