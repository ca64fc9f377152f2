-- Issue 20: three filters of one value still counted their matches up to the cap on every request (10,001 index
-- entries for a common value at 100,000 rows, 5 to 7 times the cost of the page at 1,000): the messages of one
-- e-mail template, the users holding one value of a profile field, and pending or expired invitations. The first
-- two get counters here; invitations reuse their status counters (invites/repo.ts).
--
-- Both new buckets can be NULL (an ad-hoc message has no template; a multi-choice value has no match key): a
-- row whose bucket is NULL has no value counter. aula_bucket_key answers NULL when any column of a composite
-- bucket is NULL (string_agg skipped NULLs, which named a different counter), and aula_count_rows skips it; before
-- this, a NULL made the counter's name NULL and the write failed, which is why no bucket was nullable.
CREATE OR REPLACE FUNCTION aula_bucket_key(row_data jsonb, bucket text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN strpos(bucket, '+') = 0 THEN row_data ->> bucket
    ELSE (SELECT CASE WHEN bool_or(row_data ->> c.name IS NULL) THEN NULL
                      ELSE string_agg(row_data ->> c.name, ':' ORDER BY c.n) END
          FROM unnest(string_to_array(bucket, '+')) WITH ORDINALITY AS c(name, n)) END
$$;
--> statement-breakpoint
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
        SELECT n.tenant_id, counter_name || ':' || b.col || ':' || k.key, 1
        FROM new_rows n CROSS JOIN unnest(bucket_columns) AS b(col)
          CROSS JOIN LATERAL (SELECT aula_bucket_key(to_jsonb(n), b.col) AS key) k
        WHERE n.tenant_id IS NOT NULL AND k.key IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id, counter_name AS counter, -1 AS delta FROM old_rows o WHERE o.tenant_id IS NOT NULL
        UNION ALL
        SELECT o.tenant_id, counter_name || ':' || b.col || ':' || k.key, -1
        FROM old_rows o CROSS JOIN unnest(bucket_columns) AS b(col)
          CROSS JOIN LATERAL (SELECT aula_bucket_key(to_jsonb(o), b.col) AS key) k
        WHERE o.tenant_id IS NOT NULL AND k.key IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF cardinality(bucket_columns) > 0 THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id, counter_name || ':' || b.col || ':' || k.key AS counter, -1 AS delta
        FROM old_rows o CROSS JOIN unnest(bucket_columns) AS b(col)
          CROSS JOIN LATERAL (SELECT aula_bucket_key(to_jsonb(o), b.col) AS key) k
        WHERE o.tenant_id IS NOT NULL AND k.key IS NOT NULL
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || b.col || ':' || k.key, 1
        FROM new_rows n CROSS JOIN unnest(bucket_columns) AS b(col)
          CROSS JOIN LATERAL (SELECT aula_bucket_key(to_jsonb(n), b.col) AS key) k
        WHERE n.tenant_id IS NOT NULL AND k.key IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter HAVING sum(d.delta) <> 0 ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- `email_messages:template_key:<key>`: the template never changes on a message; the update trigger moves only the
-- status's counter (an unchanged template nets to zero and is not written).
DROP TRIGGER IF EXISTS email_messages_count_insert ON email_messages;--> statement-breakpoint
DROP TRIGGER IF EXISTS email_messages_count_delete ON email_messages;--> statement-breakpoint
DROP TRIGGER IF EXISTS email_messages_count_update ON email_messages;--> statement-breakpoint
CREATE TRIGGER email_messages_count_insert AFTER INSERT ON email_messages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('email_messages', 'status', 'template_key');
--> statement-breakpoint
CREATE TRIGGER email_messages_count_delete AFTER DELETE ON email_messages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('email_messages', 'status', 'template_key');
--> statement-breakpoint
CREATE TRIGGER email_messages_count_update AFTER UPDATE ON email_messages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('email_messages', 'status');
--> statement-breakpoint
-- `user_profile_values:field_id+match_key:<field>:<key>`: the users holding one value of one field. A value is
-- rewritten in place (an upsert), so the update trigger moves it from its old key to its new one. The trigger
-- also keeps the table's total (`user_profile_values`), which nothing reads yet.
CREATE TRIGGER user_profile_values_count_insert AFTER INSERT ON user_profile_values REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('user_profile_values', 'field_id+match_key');
--> statement-breakpoint
CREATE TRIGGER user_profile_values_count_delete AFTER DELETE ON user_profile_values REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('user_profile_values', 'field_id+match_key');
--> statement-breakpoint
CREATE TRIGGER user_profile_values_count_update AFTER UPDATE ON user_profile_values REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('user_profile_values', 'field_id+match_key');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'email_messages:template_key:' || template_key AS counter, count(*) AS n
    FROM email_messages WHERE template_key IS NOT NULL GROUP BY tenant_id, template_key
    UNION ALL
    SELECT tenant_id, 'user_profile_values', count(*)
    FROM user_profile_values GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'user_profile_values:field_id+match_key:' || field_id || ':' || match_key, count(*)
    FROM user_profile_values WHERE match_key IS NOT NULL GROUP BY tenant_id, field_id, match_key
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
