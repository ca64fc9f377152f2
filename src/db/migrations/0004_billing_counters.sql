-- The payment log keeps events that name no known tenant with tenant_id NULL; counters are per tenant, so rows
-- without one are not counted (the function is otherwise unchanged from 0000_extensions.sql).
CREATE OR REPLACE FUNCTION aula_count_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  counter_name text := TG_ARGV[0];
  bucket_column text := CASE WHEN TG_NARGS > 1 THEN TG_ARGV[1] END;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT n.tenant_id, counter_name AS counter, 1 AS delta FROM new_rows n WHERE n.tenant_id IS NOT NULL
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || bucket_column || ':' || (to_jsonb(n) ->> bucket_column), 1
        FROM new_rows n WHERE bucket_column IS NOT NULL AND n.tenant_id IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id, counter_name AS counter, -1 AS delta FROM old_rows o WHERE o.tenant_id IS NOT NULL
        UNION ALL
        SELECT o.tenant_id, counter_name || ':' || bucket_column || ':' || (to_jsonb(o) ->> bucket_column), -1
        FROM old_rows o WHERE bucket_column IS NOT NULL AND o.tenant_id IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF bucket_column IS NOT NULL THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id, counter_name || ':' || bucket_column || ':' || (to_jsonb(o) ->> bucket_column) AS counter,
          -1 AS delta
        FROM old_rows o WHERE o.tenant_id IS NOT NULL
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || bucket_column || ':' || (to_jsonb(n) ->> bucket_column), 1
        FROM new_rows n WHERE n.tenant_id IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter HAVING sum(d.delta) <> 0 ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payment_events_count_insert AFTER INSERT ON payment_events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('payment_events');
--> statement-breakpoint
CREATE TRIGGER payment_events_count_delete AFTER DELETE ON payment_events REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('payment_events');
