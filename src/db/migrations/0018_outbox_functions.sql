-- The worker's two hot statements as functions, one round trip each: the record keeps its plan for the session
-- (planning its statements took 1.6 ms per batch), the claim is planned at each call with its values (below).
-- The statements are those of src/modules/outbox/claim.ts and record.ts, which document them; the application
-- passes every value, so both stay the single source of the rules.

-- Claims up to p_limit due deliveries (claim.ts `claimRound`). Returns the claimed rows, each with the counts the
-- caller needs (candidates scanned, rows the allowance picked); one row of nulls with the counts when none.
CREATE FUNCTION aula_outbox_claim(
  p_limit int, p_scan int, p_lease_seconds int, p_endpoint_limit int,
  p_full uuid[], p_busy_ids uuid[], p_busy_free int[], p_inactive text[], p_tenant_ids uuid[],
  p_now timestamptz, p_disabled_error text
) RETURNS TABLE (
  tenant_id uuid, id uuid, automation_id uuid, event_id uuid, event_type text, url text, headers jsonb,
  body text, attempts int, enabled boolean, signing_secret text, scanned bigint, picked bigint
) LANGUAGE plpgsql
-- Planned at each call with the values it is given: a generic plan (PL/pgSQL's choice after five calls) knows
-- neither the time nor the limits, and after a million completed deliveries it once chose a plan five times
-- slower than the one the values give (bench (l)). Planning costs about half a millisecond per claim.
SET plan_cache_mode = force_custom_plan
AS $$
#variable_conflict use_column
DECLARE
  v_now timestamptz := coalesce(p_now, now());
BEGIN
  RETURN QUERY
    WITH candidates AS MATERIALIZED (
      SELECT w.ctid AS row_id, w.automation_id, w.next_attempt_at FROM webhook_deliveries AS w
      WHERE w.completed_at IS NULL
        -- A bound the index can use: true of every row the next line admits (a delivering row was due when it was
        -- claimed, and a claim leaves next_attempt_at alone), so the scan stops at the first row not yet due
        -- instead of walking every retry scheduled for later.
        AND w.next_attempt_at <= v_now
        AND ((w.status = 'pending' AND w.next_attempt_at <= v_now) OR (w.status = 'delivering' AND w.lease_until < v_now))
        AND (p_tenant_ids IS NULL OR w.tenant_id = ANY (p_tenant_ids))
        AND w.automation_id <> ALL (p_full)
        AND NOT EXISTS (
          SELECT 1 FROM billing_subscriptions AS b WHERE b.tenant_id = w.tenant_id AND b.status = ANY (p_inactive)
        )
      ORDER BY w.next_attempt_at
      LIMIT p_scan
    ), allowed AS (
      SELECT c.row_id, c.next_attempt_at,
        row_number() OVER (PARTITION BY c.automation_id ORDER BY c.next_attempt_at) AS nth,
        coalesce(f.free, p_endpoint_limit) AS free
      FROM candidates AS c
      LEFT JOIN unnest(p_busy_ids, p_busy_free) AS f(automation_id, free) ON f.automation_id = c.automation_id
    ), locked AS MATERIALIZED (
      SELECT w.ctid AS row_id FROM webhook_deliveries AS w
      WHERE w.ctid = ANY (ARRAY(SELECT row_id FROM allowed WHERE nth <= free))
        AND w.completed_at IS NULL
        AND ((w.status = 'pending' AND w.next_attempt_at <= v_now) OR (w.status = 'delivering' AND w.lease_until < v_now))
      ORDER BY w.next_attempt_at
      LIMIT p_limit
      FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_deliveries AS d SET
        status = CASE WHEN a.enabled THEN 'delivering' ELSE 'failed' END,
        attempts = CASE WHEN a.enabled THEN d.attempts + 1 ELSE d.attempts END,
        lease_until = CASE WHEN a.enabled THEN v_now + make_interval(secs => p_lease_seconds) END,
        last_error = CASE WHEN a.enabled THEN d.last_error ELSE p_disabled_error END,
        completed_at = CASE WHEN a.enabled THEN NULL ELSE v_now END
      FROM automations AS a
      WHERE d.ctid = ANY (ARRAY(SELECT row_id FROM locked))
        AND a.tenant_id = d.tenant_id AND a.id = d.automation_id
      RETURNING d.tenant_id, d.id, d.automation_id, d.event_id, d.event_type, d.url, d.headers, d.body,
        d.attempts, a.enabled, a.signing_secret
    ), counts AS (
      SELECT (SELECT count(*) FROM candidates) AS scanned,
        least(p_limit, (SELECT count(*) FROM allowed WHERE nth <= free)) AS picked
    )
    SELECT claimed.*, counts.* FROM claimed, counts
    UNION ALL
    SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, counts.* FROM counts
    WHERE NOT EXISTS (SELECT 1 FROM claimed);
END
$$;
--> statement-breakpoint

-- Records successful attempts (record.ts `recordSuccesses`): automations locked FOR KEY SHARE in id order first,
-- then the deliveries succeeded where the claim is still the caller's, every attempt logged, and the failing streak
-- of the endpoints that had one ended. Returns the deliveries it applied to. One statement, so one transaction.
CREATE FUNCTION aula_outbox_record_successes(p_input jsonb, p_now timestamptz)
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
    INSERT INTO delivery_attempts
      (tenant_id, delivery_id, attempt, started_at, duration_ms, outcome, status_code, response_excerpt, error)
    SELECT x.tenant_id, x.id, x.attempt, x.started_at, x.duration_ms, 'succeeded', x.status_code, x.excerpt, NULL
    FROM input AS x
    WHERE EXISTS (SELECT 1 FROM webhook_deliveries AS w WHERE w.tenant_id = x.tenant_id AND w.id = x.id)
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
