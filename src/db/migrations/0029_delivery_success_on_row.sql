ALTER TABLE "webhook_deliveries" ADD COLUMN "success_started_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "success_duration_ms" integer;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "success_excerpt" text;--> statement-breakpoint
-- hand-written below
-- A delivery's successful attempt is kept on its row (success_*, with attempts and last_status_code) instead of as a
-- delivery_attempts row. Its own row (heap tuple, primary key entry, foreign key check, the statistics trigger) was
-- about half of what PostgreSQL spent recording a success; the delivery row is rewritten by the success anyway.
-- Successes already logged move onto their deliveries.
UPDATE "webhook_deliveries" AS d
SET "success_started_at" = a."started_at", "success_duration_ms" = a."duration_ms", "success_excerpt" = a."response_excerpt"
FROM "delivery_attempts" AS a
WHERE a."tenant_id" = d."tenant_id" AND a."delivery_id" = d."id" AND a."attempt" = d."attempts"
  AND a."outcome" = 'succeeded' AND d."status" = 'succeeded';
--> statement-breakpoint
DELETE FROM "delivery_attempts" AS a
USING "webhook_deliveries" AS d
WHERE a."tenant_id" = d."tenant_id" AND a."delivery_id" = d."id" AND a."attempt" = d."attempts"
  AND a."outcome" = 'succeeded' AND d."status" = 'succeeded' AND d."success_started_at" IS NOT NULL;
--> statement-breakpoint
-- The delivery log as one relation: the attempt rows, and each succeeded delivery's attempt from its row. A query by
-- (tenant_id, delivery_id) reaches both through their primary keys.
CREATE VIEW "delivery_attempt_log" AS
  SELECT "tenant_id", "delivery_id", "automation_id", "attempt", "started_at", "duration_ms", "outcome",
    "status_code", "response_excerpt", "error"
  FROM "delivery_attempts"
  UNION ALL
  SELECT "tenant_id", "id", "automation_id", "attempts", "success_started_at", "success_duration_ms", 'succeeded'::text,
    "last_status_code", "success_excerpt", NULL::text
  FROM "webhook_deliveries" WHERE "success_started_at" IS NOT NULL;
--> statement-breakpoint
-- As in migration 0026, but a success applied to its delivery is kept on the delivery row and counted in
-- delivery_stats here (the trigger on delivery_attempts counts only the rows inserted there). An attempt whose claim
-- was no longer the caller's (its lease expired and another worker took the delivery over) is still logged, as a
-- delivery_attempts row, unless the delivery already holds it as its success (a record repeated after a lost reply).
-- CREATE OR REPLACE resets the function's settings, so the generic plans of migration 0028 are stated again.
CREATE OR REPLACE FUNCTION aula_outbox_record_successes(p_input jsonb, p_now timestamptz)
RETURNS TABLE (id uuid) LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
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
      last_status_code = x.status_code, last_error = NULL, completed_at = v_now,
      success_started_at = x.started_at, success_duration_ms = x.duration_ms, success_excerpt = x.excerpt
    FROM input AS x
    WHERE d.tenant_id = x.tenant_id AND d.id = x.id AND d.status = 'delivering' AND d.attempts = x.attempt
    RETURNING d.tenant_id, d.id, d.automation_id, x.started_at
  ), counted AS (
    -- As the trigger counts attempt rows (migration 0026): per automation, minute of the attempt's start, session.
    INSERT INTO delivery_stats AS s (tenant_id, automation_id, minute, slot, attempts, succeeded)
      SELECT done.tenant_id, done.automation_id, date_trunc('minute', done.started_at, 'UTC'), pg_backend_pid(),
        count(*), count(*)
      FROM done
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, automation_id, minute, slot) DO UPDATE
      SET attempts = s.attempts + EXCLUDED.attempts, succeeded = s.succeeded + EXCLUDED.succeeded
  )
  SELECT array_agg(done.id), array_agg(done.tenant_id), array_agg(done.automation_id)
  INTO v_ids, v_tenants, v_automations
  FROM done;

  -- Attempts not applied (rare): logged as rows, with the automation read from the delivery, which also keeps out
  -- deliveries deleted meanwhile.
  IF coalesce(cardinality(v_ids), 0) < jsonb_array_length(p_input) THEN
    INSERT INTO delivery_attempts (tenant_id, delivery_id, automation_id, attempt, started_at, duration_ms, outcome,
      status_code, response_excerpt, error)
    SELECT x.tenant_id, x.id, w.automation_id, x.attempt, x.started_at, x.duration_ms, 'succeeded', x.status_code,
      x.excerpt, NULL
    FROM jsonb_to_recordset(p_input) AS x(tenant_id uuid, id uuid, attempt int, started_at timestamptz,
      duration_ms int, status_code int, excerpt text)
    JOIN webhook_deliveries AS w ON w.tenant_id = x.tenant_id AND w.id = x.id
    WHERE NOT (w.status = 'succeeded' AND w.attempts = x.attempt)
    ON CONFLICT DO NOTHING;
  END IF;

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
