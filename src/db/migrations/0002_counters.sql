-- Counters behind every list's `total` (see aula_count_rows in 0000_extensions.sql).
CREATE TRIGGER courses_count_insert AFTER INSERT ON courses REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('courses', 'status');
--> statement-breakpoint
CREATE TRIGGER courses_count_delete AFTER DELETE ON courses REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('courses', 'status');
--> statement-breakpoint
CREATE TRIGGER courses_count_update AFTER UPDATE ON courses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('courses', 'status');
--> statement-breakpoint
CREATE TRIGGER users_count_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('users', 'role');
--> statement-breakpoint
CREATE TRIGGER users_count_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('users', 'role');
--> statement-breakpoint
CREATE TRIGGER users_count_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('users', 'role');
--> statement-breakpoint
CREATE TRIGGER api_keys_count_insert AFTER INSERT ON api_keys REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('api_keys', 'status');
--> statement-breakpoint
CREATE TRIGGER api_keys_count_delete AFTER DELETE ON api_keys REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('api_keys', 'status');
--> statement-breakpoint
CREATE TRIGGER api_keys_count_update AFTER UPDATE ON api_keys REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('api_keys', 'status');
