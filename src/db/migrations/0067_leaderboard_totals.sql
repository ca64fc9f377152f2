-- The leaderboard's total from a counter per window (institution, course or class; all time, month or ISO week)
-- instead of counting the window's standings up to the cap, which made the page cost more as the institution grew.
--
-- These counters are written at COMMIT, not by the statement that inserts the standings as aula_count_rows does.
-- An award inserts standings in the middle of other work (a bulk enrollment awards a thousand learners, one
-- statement each, after locking each learner's balance). Had each of those statements taken the window counters'
-- row locks, two such transactions could each hold a counter the other needs next (one created a learner's
-- weekly row first, the other an all-time row), and a single award could wait on a bulk one holding its counter
-- while holding the balance the bulk one wants: deadlocks that awards without counters never had. Instead each
-- statement adds its deltas to counter_deltas under its own transaction's id (no other transaction writes those
-- rows, so nothing waits), and a deferred trigger moves them into tenant_counters at commit, in one statement, in
-- counter order: the locks are taken last, all at once and in the same order by every transaction.
CREATE TABLE "counter_deltas" (
  "xact" bigint NOT NULL,
  "tenant_id" uuid NOT NULL,
  "counter" text NOT NULL,
  "delta" bigint NOT NULL,
  CONSTRAINT "counter_deltas_pk" PRIMARY KEY ("xact", "tenant_id", "counter")
);
--> statement-breakpoint
-- Statement-level, for tables whose bucket columns never change (no UPDATE trigger): INSERT adds one per row to
-- `TG_ARGV[0]` and to each bucket's counter (the buckets as aula_count_rows names them), DELETE takes one off.
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
