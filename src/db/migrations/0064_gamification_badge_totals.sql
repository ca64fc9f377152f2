-- The badges list's totals from counters (all, and per status) rather than a capped count, and an index for its
-- status filter, so a rare status is read from its own range rather than by walking every badge.
CREATE TRIGGER gamification_badges_count_insert AFTER INSERT ON gamification_badges REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('gamification_badges', 'status');
--> statement-breakpoint
CREATE TRIGGER gamification_badges_count_delete AFTER DELETE ON gamification_badges REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('gamification_badges', 'status');
--> statement-breakpoint
CREATE TRIGGER gamification_badges_count_update AFTER UPDATE ON gamification_badges
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('gamification_badges', 'status');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'gamification_badges' AS counter, count(*) AS n FROM gamification_badges GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'gamification_badges:status:' || status, count(*)
    FROM gamification_badges GROUP BY tenant_id, status
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
--> statement-breakpoint
CREATE INDEX "gamification_badges_tenant_status_created_idx" ON "gamification_badges" USING btree ("tenant_id", "status", "created_at", "id");
