-- Issue 20: the settings lists (themes, video providers, domains, profile fields, e-mail templates) and a live
-- class's attendance counted every row of the tenant (or class) for their `total` on each request. Their totals
-- now come from aula_count_rows counters, and each filter has an index in the list's default order.
--
-- aula_count_rows takes any number of bucket columns after the counter's name (before: at most one), so one
-- trigger keeps a list's total and a counter per value of each of its filters (`video_providers:purpose:live`,
-- `video_providers:provider:zoom`, …) without a second trigger counting the total twice. With none or one bucket
-- column it keeps exactly the counters it kept before; rows without a tenant are still not counted (0004).
CREATE OR REPLACE FUNCTION aula_count_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  counter_name text := TG_ARGV[0];
  bucket_columns text[] := TG_ARGV[1:TG_NARGS - 1];
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT n.tenant_id, counter_name AS counter, 1 AS delta FROM new_rows n WHERE n.tenant_id IS NOT NULL
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || b.col || ':' || (to_jsonb(n) ->> b.col), 1
        FROM new_rows n CROSS JOIN unnest(bucket_columns) AS b(col) WHERE n.tenant_id IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id, counter_name AS counter, -1 AS delta FROM old_rows o WHERE o.tenant_id IS NOT NULL
        UNION ALL
        SELECT o.tenant_id, counter_name || ':' || b.col || ':' || (to_jsonb(o) ->> b.col), -1
        FROM old_rows o CROSS JOIN unnest(bucket_columns) AS b(col) WHERE o.tenant_id IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF cardinality(bucket_columns) > 0 THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id, counter_name || ':' || b.col || ':' || (to_jsonb(o) ->> b.col) AS counter, -1 AS delta
        FROM old_rows o CROSS JOIN unnest(bucket_columns) AS b(col) WHERE o.tenant_id IS NOT NULL
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || b.col || ':' || (to_jsonb(n) ->> b.col), 1
        FROM new_rows n CROSS JOIN unnest(bucket_columns) AS b(col) WHERE n.tenant_id IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter HAVING sum(d.delta) <> 0 ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER themes_count_insert AFTER INSERT ON themes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('themes', 'status');
--> statement-breakpoint
CREATE TRIGGER themes_count_delete AFTER DELETE ON themes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('themes', 'status');
--> statement-breakpoint
CREATE TRIGGER themes_count_update AFTER UPDATE ON themes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('themes', 'status');
--> statement-breakpoint
CREATE TRIGGER video_providers_count_insert AFTER INSERT ON video_providers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('video_providers', 'status', 'purpose', 'provider');
--> statement-breakpoint
CREATE TRIGGER video_providers_count_delete AFTER DELETE ON video_providers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('video_providers', 'status', 'purpose', 'provider');
--> statement-breakpoint
CREATE TRIGGER video_providers_count_update AFTER UPDATE ON video_providers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('video_providers', 'status', 'purpose', 'provider');
--> statement-breakpoint
CREATE TRIGGER tenant_domains_count_insert AFTER INSERT ON tenant_domains REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('tenant_domains');
--> statement-breakpoint
CREATE TRIGGER tenant_domains_count_delete AFTER DELETE ON tenant_domains REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('tenant_domains');
--> statement-breakpoint
CREATE TRIGGER profile_fields_count_insert AFTER INSERT ON profile_fields REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('profile_fields', 'status', 'type');
--> statement-breakpoint
CREATE TRIGGER profile_fields_count_delete AFTER DELETE ON profile_fields REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('profile_fields', 'status', 'type');
--> statement-breakpoint
CREATE TRIGGER profile_fields_count_update AFTER UPDATE ON profile_fields REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('profile_fields', 'status', 'type');
--> statement-breakpoint
CREATE TRIGGER email_templates_count_insert AFTER INSERT ON email_templates REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('email_templates', 'locale');
--> statement-breakpoint
CREATE TRIGGER email_templates_count_delete AFTER DELETE ON email_templates REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('email_templates', 'locale');
--> statement-breakpoint
CREATE TRIGGER live_class_attendance_count_insert AFTER INSERT ON live_class_attendance REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('live_class_attendance', 'live_class_id');
--> statement-breakpoint
CREATE TRIGGER live_class_attendance_count_delete AFTER DELETE ON live_class_attendance REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('live_class_attendance', 'live_class_id');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'themes' AS counter, count(*) AS n FROM themes GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'themes:status:' || status, count(*) FROM themes GROUP BY tenant_id, status
    UNION ALL
    SELECT tenant_id, 'video_providers', count(*) FROM video_providers GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'video_providers:status:' || status, count(*) FROM video_providers GROUP BY tenant_id, status
    UNION ALL
    SELECT tenant_id, 'video_providers:purpose:' || purpose, count(*) FROM video_providers GROUP BY tenant_id, purpose
    UNION ALL
    SELECT tenant_id, 'video_providers:provider:' || provider, count(*) FROM video_providers
    GROUP BY tenant_id, provider
    UNION ALL
    SELECT tenant_id, 'tenant_domains', count(*) FROM tenant_domains GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'profile_fields', count(*) FROM profile_fields GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'profile_fields:status:' || status, count(*) FROM profile_fields GROUP BY tenant_id, status
    UNION ALL
    SELECT tenant_id, 'profile_fields:type:' || type, count(*) FROM profile_fields GROUP BY tenant_id, type
    UNION ALL
    SELECT tenant_id, 'email_templates', count(*) FROM email_templates GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'email_templates:locale:' || locale, count(*) FROM email_templates GROUP BY tenant_id, locale
    UNION ALL
    SELECT tenant_id, 'live_class_attendance', count(*) FROM live_class_attendance GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'live_class_attendance:live_class_id:' || live_class_id, count(*) FROM live_class_attendance
    GROUP BY tenant_id, live_class_id
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
--> statement-breakpoint
CREATE INDEX "themes_tenant_status_created_idx" ON "themes" USING btree ("tenant_id", "status", "created_at", "id");--> statement-breakpoint
CREATE INDEX "video_providers_tenant_status_created_idx" ON "video_providers" USING btree ("tenant_id", "status", "created_at", "id");--> statement-breakpoint
CREATE INDEX "video_providers_tenant_purpose_created_idx" ON "video_providers" USING btree ("tenant_id", "purpose", "created_at", "id");--> statement-breakpoint
CREATE INDEX "video_providers_tenant_provider_created_idx" ON "video_providers" USING btree ("tenant_id", "provider", "created_at", "id");--> statement-breakpoint
CREATE INDEX "profile_fields_tenant_status_position_idx" ON "profile_fields" USING btree ("tenant_id", "status", "position", "id");--> statement-breakpoint
CREATE INDEX "profile_fields_tenant_type_position_idx" ON "profile_fields" USING btree ("tenant_id", "type", "position", "id");--> statement-breakpoint
CREATE INDEX "email_templates_tenant_locale_key_idx" ON "email_templates" USING btree ("tenant_id", "locale", "key");--> statement-breakpoint
DROP INDEX IF EXISTS "live_class_attendance_class_idx";--> statement-breakpoint
CREATE INDEX "live_class_attendance_class_idx" ON "live_class_attendance" USING btree ("tenant_id", "live_class_id", "occurrence_id", "user_id");
