ALTER TABLE "delivery_attempts" ADD COLUMN "automation_id" uuid;
--> statement-breakpoint
-- hand-written below
-- Attempts logged before this migration take their delivery's automation; then the column is required.
UPDATE "delivery_attempts" AS a SET "automation_id" = d."automation_id"
FROM "webhook_deliveries" AS d
WHERE d."tenant_id" = a."tenant_id" AND d."id" = a."delivery_id";
--> statement-breakpoint
ALTER TABLE "delivery_attempts" ALTER COLUMN "automation_id" SET NOT NULL;
--> statement-breakpoint
-- The per-minute statistics count the inserted rows alone. Joining each back to its delivery (migration 0016) cost
-- a quarter of a batch record's time, and its plan, cached for the trigger, could read the whole deliveries table.
CREATE OR REPLACE FUNCTION aula_delivery_stats() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO delivery_stats AS s (tenant_id, automation_id, minute, slot, attempts, succeeded)
    SELECT n.tenant_id, n.automation_id, date_trunc('minute', n.started_at, 'UTC'), pg_backend_pid(),
      count(*), count(*) FILTER (WHERE n.outcome = 'succeeded')
    FROM new_rows AS n
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (tenant_id, automation_id, minute, slot) DO UPDATE
    SET attempts = s.attempts + EXCLUDED.attempts, succeeded = s.succeeded + EXCLUDED.succeeded;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- As in migration 0018, but each attempt is logged with its delivery's automation, read from the delivery row (the
-- probe that already kept out deliveries deleted meanwhile).
CREATE OR REPLACE FUNCTION aula_outbox_record_successes(p_input jsonb, p_now timestamptz)
RETURNS TABLE (id uuid) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  v_ids uuid[];
  v_tenants uuid[];
  v_automations uuid[];
BEGIN
  PERFORM 1 FROM automations AS a
  WHERE (a.tenant_id, a.id) IN (
    SELECT x.tenant_id, x.automation_id FROM jsonb_to_recordset(p_input) AS x(tenant_id uuid, automation_id uuid))
  ORDER BY a.tenant_id, a.id
  FOR KEY SHARE;

  WITH input AS (
    SELECT * FROM jsonb_to_recordset(p_input) AS x(tenant_id uuid, id uuid, automation_id uuid, attempt int,
      started_at timestamptz, duration_ms int, status_code int, excerpt text)
  ), done AS (
    UPDATE webhook_deliveries AS d SET status = 'succeeded', lease_until = NULL,
      last_status_code = x.status_code, last_error = NULL, completed_at = v_now
    FROM input AS x
    WHERE d.tenant_id = x.tenant_id AND d.id = x.id AND d.status = 'delivering' AND d.attempts = x.attempt
    RETURNING d.tenant_id, d.id, d.automation_id
  ), logged AS (
    INSERT INTO delivery_attempts (tenant_id, delivery_id, automation_id, attempt, started_at, duration_ms, outcome,
      status_code, response_excerpt, error)
    SELECT x.tenant_id, x.id, w.automation_id, x.attempt, x.started_at, x.duration_ms, 'succeeded', x.status_code,
      x.excerpt, NULL
    FROM input AS x
    JOIN webhook_deliveries AS w ON w.tenant_id = x.tenant_id AND w.id = x.id
    ON CONFLICT DO NOTHING
  )
  SELECT array_agg(done.id), array_agg(done.tenant_id), array_agg(done.automation_id)
  INTO v_ids, v_tenants, v_automations
  FROM done;

  -- A success ends an endpoint's failing streak (rare: only after failures); locked in id order, as above.
  PERFORM 1 FROM automations AS a
  WHERE (a.tenant_id, a.id) IN (SELECT * FROM unnest(v_tenants, v_automations)) AND a.failing_since IS NOT NULL
  ORDER BY a.tenant_id, a.id
  FOR NO KEY UPDATE;
  UPDATE automations AS a SET failing_since = NULL
  WHERE (a.tenant_id, a.id) IN (SELECT * FROM unnest(v_tenants, v_automations)) AND a.failing_since IS NOT NULL;

  RETURN QUERY SELECT unnest(coalesce(v_ids, '{}'::uuid[]));
END
$$;
