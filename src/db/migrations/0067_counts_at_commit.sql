-- Counters written at COMMIT, for tables whose rows are written in the middle of other work: the leaderboard's
-- learners per window (institution, course or class; all time, month or ISO week), and AI conversations (all, per
-- user, course, feature and flag). Their lists counted up to the cap instead, which made the leaderboard's page cost
-- more as the institution grew (0.59 as fast at 100,000 learners as at 1,000).
--
-- aula_count_rows writes its counters in the statement that inserts the rows, so the counter rows stay locked
-- until commit. An award inserts standings in the middle of other work (a bulk enrollment awards a thousand
-- learners, one statement each, after locking each learner's balance); had each of those statements taken the
-- window counters' locks, two such transactions could each hold a counter the other needs next (one created a
-- learner's weekly row first, the other an all-time row), and a single award could wait on a bulk one holding its
-- counter while holding the balance the bulk one wants: deadlocks that awards without counters never had. A prompt
-- run that starts a conversation would likewise hold the institution's conversation counter for the whole call's
-- settlement. Instead each statement adds its deltas to counter_deltas under its own transaction's id (no other
-- transaction writes those rows, so nothing waits), and a deferred trigger moves them into tenant_counters at
-- commit, in one statement, in counter order: the locks are taken last, all at once and in the same order by
-- every transaction.
CREATE TABLE "counter_deltas" (
  "xact" bigint NOT NULL,
  "tenant_id" uuid NOT NULL,
  "counter" text NOT NULL,
  "delta" bigint NOT NULL,
  CONSTRAINT "counter_deltas_pk" PRIMARY KEY ("xact", "tenant_id", "counter")
);
--> statement-breakpoint
-- Statement-level, with aula_count_rows's arguments and counter names: INSERT adds one per row to `TG_ARGV[0]` and
-- to each bucket's counter, DELETE takes one off, UPDATE moves rows between buckets.
CREATE FUNCTION aula_count_rows_at_commit() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  counter_name text := TG_ARGV[0];
  bucket_columns text[] := TG_ARGV[1:TG_NARGS - 1];
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO counter_deltas AS d (xact, tenant_id, counter, delta)
      SELECT txid_current(), x.tenant_id, x.counter, count(*) FROM (
        SELECT n.tenant_id, counter_name AS counter FROM new_rows n WHERE n.tenant_id IS NOT NULL
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(n), b.col)
        FROM new_rows n CROSS JOIN unnest(bucket_columns) AS b(col)
        WHERE n.tenant_id IS NOT NULL AND aula_bucket_key(to_jsonb(n), b.col) IS NOT NULL
      ) x
      GROUP BY x.tenant_id, x.counter
    ON CONFLICT (xact, tenant_id, counter) DO UPDATE SET delta = d.delta + EXCLUDED.delta;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO counter_deltas AS d (xact, tenant_id, counter, delta)
      SELECT txid_current(), x.tenant_id, x.counter, -count(*) FROM (
        SELECT o.tenant_id, counter_name AS counter FROM old_rows o WHERE o.tenant_id IS NOT NULL
        UNION ALL
        SELECT o.tenant_id, counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(o), b.col)
        FROM old_rows o CROSS JOIN unnest(bucket_columns) AS b(col)
        WHERE o.tenant_id IS NOT NULL AND aula_bucket_key(to_jsonb(o), b.col) IS NOT NULL
      ) x
      GROUP BY x.tenant_id, x.counter
    ON CONFLICT (xact, tenant_id, counter) DO UPDATE SET delta = d.delta + EXCLUDED.delta;
  ELSIF cardinality(bucket_columns) > 0 THEN
    -- An update moves rows between buckets; the base counter is unchanged.
    INSERT INTO counter_deltas AS d (xact, tenant_id, counter, delta)
      SELECT txid_current(), x.tenant_id, x.counter, sum(x.delta) FROM (
        SELECT o.tenant_id, counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(o), b.col) AS counter,
          -1 AS delta
        FROM old_rows o CROSS JOIN unnest(bucket_columns) AS b(col)
        WHERE o.tenant_id IS NOT NULL AND aula_bucket_key(to_jsonb(o), b.col) IS NOT NULL
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(n), b.col), 1
        FROM new_rows n CROSS JOIN unnest(bucket_columns) AS b(col)
        WHERE n.tenant_id IS NOT NULL AND aula_bucket_key(to_jsonb(n), b.col) IS NOT NULL
      ) x
      GROUP BY x.tenant_id, x.counter HAVING sum(x.delta) <> 0
    ON CONFLICT (xact, tenant_id, counter) DO UPDATE SET delta = d.delta + EXCLUDED.delta;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Fires at commit once per staged counter; the first firing applies the transaction's deltas and the others find
-- none left.
CREATE FUNCTION aula_apply_counter_deltas() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  WITH taken AS (DELETE FROM counter_deltas WHERE xact = txid_current() RETURNING tenant_id, counter, delta)
  INSERT INTO tenant_counters AS c (tenant_id, counter, value)
    SELECT tenant_id, counter, sum(delta) FROM taken
    -- An institution deleted in this transaction takes its counters with it.
    WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = taken.tenant_id)
    GROUP BY tenant_id, counter HAVING sum(delta) <> 0 ORDER BY tenant_id, counter
  ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER counter_deltas_apply AFTER INSERT ON counter_deltas
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION aula_apply_counter_deltas();
--> statement-breakpoint
CREATE TRIGGER gamification_standings_count_insert AFTER INSERT ON gamification_standings
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows_at_commit('gamification_standings', 'scope+scope_id+period+window_start');
--> statement-breakpoint
CREATE TRIGGER gamification_standings_count_delete AFTER DELETE ON gamification_standings
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows_at_commit('gamification_standings', 'scope+scope_id+period+window_start');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'gamification_standings' AS counter, count(*) AS n FROM gamification_standings GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'gamification_standings:scope+scope_id+period+window_start:'
      || aula_bucket_key(to_jsonb(s), 'scope+scope_id+period+window_start'), count(*)
    FROM gamification_standings s
    GROUP BY tenant_id, aula_bucket_key(to_jsonb(s), 'scope+scope_id+period+window_start')
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
--> statement-breakpoint
CREATE TRIGGER ai_conversations_count_insert AFTER INSERT ON ai_conversations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows_at_commit('ai_conversations', 'user_id', 'course_id', 'feature', 'flagged');
--> statement-breakpoint
CREATE TRIGGER ai_conversations_count_delete AFTER DELETE ON ai_conversations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows_at_commit('ai_conversations', 'user_id', 'course_id', 'feature', 'flagged');
--> statement-breakpoint
CREATE TRIGGER ai_conversations_count_update AFTER UPDATE ON ai_conversations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows_at_commit('ai_conversations', 'user_id', 'course_id', 'feature', 'flagged');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'ai_conversations' AS counter, count(*) AS n FROM ai_conversations GROUP BY tenant_id
    UNION ALL
    SELECT c.tenant_id, 'ai_conversations:' || b.col || ':' || aula_bucket_key(to_jsonb(c), b.col), count(*)
    FROM ai_conversations c CROSS JOIN unnest(ARRAY['user_id', 'course_id', 'feature', 'flagged']) AS b(col)
    WHERE aula_bucket_key(to_jsonb(c), b.col) IS NOT NULL
    GROUP BY c.tenant_id, b.col, aula_bucket_key(to_jsonb(c), b.col)
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
