-- Totals of the prompts list (all, per feature, per status, per both), of a prompt's versions and of the AI limit
-- overrides (all, per subject type) from counters, as every list's, rather than counted up to a cap.
CREATE TRIGGER prompts_count_insert AFTER INSERT ON prompts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('prompts', 'feature', 'status', 'feature+status');
--> statement-breakpoint
CREATE TRIGGER prompts_count_delete AFTER DELETE ON prompts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('prompts', 'feature', 'status', 'feature+status');
--> statement-breakpoint
CREATE TRIGGER prompts_count_update AFTER UPDATE ON prompts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('prompts', 'feature', 'status', 'feature+status');
--> statement-breakpoint
-- Versions are written once and go with their prompt: no update moves them.
CREATE TRIGGER prompt_versions_count_insert AFTER INSERT ON prompt_versions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('prompt_versions', 'prompt_id');
--> statement-breakpoint
CREATE TRIGGER prompt_versions_count_delete AFTER DELETE ON prompt_versions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('prompt_versions', 'prompt_id');
--> statement-breakpoint
-- An override's subject type is part of its key: an update never moves it between buckets.
CREATE TRIGGER ai_limit_overrides_count_insert AFTER INSERT ON ai_limit_overrides REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('ai_limit_overrides', 'subject_type');
--> statement-breakpoint
CREATE TRIGGER ai_limit_overrides_count_delete AFTER DELETE ON ai_limit_overrides REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('ai_limit_overrides', 'subject_type');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'prompts' AS counter, count(*) AS n FROM prompts GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'prompts:feature:' || feature, count(*) FROM prompts GROUP BY tenant_id, feature
    UNION ALL
    SELECT tenant_id, 'prompts:status:' || status, count(*) FROM prompts GROUP BY tenant_id, status
    UNION ALL
    SELECT tenant_id, 'prompts:feature+status:' || feature || ':' || status, count(*)
    FROM prompts GROUP BY tenant_id, feature, status
    UNION ALL
    SELECT tenant_id, 'prompt_versions', count(*) FROM prompt_versions GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'prompt_versions:prompt_id:' || prompt_id, count(*)
    FROM prompt_versions GROUP BY tenant_id, prompt_id
    UNION ALL
    SELECT tenant_id, 'ai_limit_overrides', count(*) FROM ai_limit_overrides GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'ai_limit_overrides:subject_type:' || subject_type, count(*)
    FROM ai_limit_overrides GROUP BY tenant_id, subject_type
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
