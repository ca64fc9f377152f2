-- Counters behind the automation, endpoint and delivery lists' `total` (see aula_count_rows).
CREATE TRIGGER automations_count_insert AFTER INSERT ON automations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('automations', 'kind');
--> statement-breakpoint
CREATE TRIGGER automations_count_delete AFTER DELETE ON automations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('automations', 'kind');
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_count_insert AFTER INSERT ON webhook_deliveries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('webhook_deliveries', 'automation_id');
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_count_delete AFTER DELETE ON webhook_deliveries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('webhook_deliveries', 'automation_id');
