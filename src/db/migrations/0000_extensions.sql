-- Search ignores case and accents: unaccent, pg_trgm and btree_gin ship with PostgreSQL's contrib package and
-- with PGlite (loaded in src/db/client.ts), so both databases search the same way, through the same indexes.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change), so it cannot back an index. Naming the dictionary
-- explicitly makes the wrapper safe to declare IMMUTABLE, the documented way to index unaccented text.
CREATE OR REPLACE FUNCTION aula_fold(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;
--> statement-breakpoint
-- Keeps tenant_counters exact inside the transaction that changes the rows. Statement-level, so a bulk insert of
-- a thousand rows updates each counter once. TG_ARGV[0] names the counter ("courses"); TG_ARGV[1], when given,
-- names a column whose value gets its own counter ("courses:status:draft").
CREATE OR REPLACE FUNCTION aula_count_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  counter_name text := TG_ARGV[0];
  bucket_column text := CASE WHEN TG_NARGS > 1 THEN TG_ARGV[1] END;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT n.tenant_id, counter_name AS counter, 1 AS delta FROM new_rows n
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || bucket_column || ':' || (to_jsonb(n) ->> bucket_column), 1
        FROM new_rows n WHERE bucket_column IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id, counter_name AS counter, -1 AS delta FROM old_rows o
        UNION ALL
        SELECT o.tenant_id, counter_name || ':' || bucket_column || ':' || (to_jsonb(o) ->> bucket_column), -1
        FROM old_rows o WHERE bucket_column IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF bucket_column IS NOT NULL THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id, counter_name || ':' || bucket_column || ':' || (to_jsonb(o) ->> bucket_column) AS counter,
          -1 AS delta
        FROM old_rows o
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || bucket_column || ':' || (to_jsonb(n) ->> bucket_column), 1
        FROM new_rows n
      ) d
      GROUP BY d.tenant_id, d.counter HAVING sum(d.delta) <> 0 ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END
$$;
