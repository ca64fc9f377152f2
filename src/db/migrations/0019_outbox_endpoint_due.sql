CREATE INDEX "webhook_deliveries_endpoint_due_idx" ON "webhook_deliveries" USING btree ("tenant_id","automation_id","next_attempt_at") WHERE "webhook_deliveries"."completed_at" IS NULL;--> statement-breakpoint

-- The claim (claim.ts `claimRound`) no longer reads past one endpoint's backlog. It used to walk the due index,
-- leaving out endpoints at their cap, until it had p_scan candidates: with 50,000 due deliveries of an endpoint
-- that hangs ahead of the others, every claim read all of them (24 ms). Now it reads the head of the due index
-- (at most p_scan rows, whoever they belong to) and keeps each endpoint's allowance of them; only when that head
-- is full and leaves the claim short (one endpoint's backlog, or a capped or suspended tenant's, fills it) does it
-- go endpoint by endpoint: a skip scan over the endpoints with unfinished deliveries
-- (webhook_deliveries_endpoint_due_idx), and each one's oldest due rows up to its allowance. That costs a probe
-- per endpoint with work instead of a row per delivery ahead.
CREATE OR REPLACE FUNCTION aula_outbox_claim(
  p_limit int, p_scan int, p_lease_seconds int, p_endpoint_limit int,
  p_full uuid[], p_busy_ids uuid[], p_busy_free int[], p_inactive text[], p_tenant_ids uuid[],
  p_now timestamptz, p_disabled_error text
) RETURNS TABLE (
  tenant_id uuid, id uuid, automation_id uuid, event_id uuid, event_type text, url text, headers jsonb,
  body text, attempts int, enabled boolean, signing_secret text, scanned bigint, picked bigint
) LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan
AS $$
#variable_conflict use_column
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  v_scanned bigint;
  v_rows tid[];
BEGIN
  -- The head: the oldest p_scan due rows (the bound makes the index scan stop at the first row not yet due, as a
  -- delivering row was due when claimed), then of those the first `free` of each endpoint not at its cap, of
  -- active tenants.
  WITH head AS MATERIALIZED (
    SELECT w.ctid AS row_id, w.tenant_id, w.automation_id, w.next_attempt_at FROM webhook_deliveries AS w
    WHERE w.completed_at IS NULL
      AND w.next_attempt_at <= v_now
      AND ((w.status = 'pending' AND w.next_attempt_at <= v_now) OR (w.status = 'delivering' AND w.lease_until < v_now))
      AND (p_tenant_ids IS NULL OR w.tenant_id = ANY (p_tenant_ids))
    ORDER BY w.next_attempt_at
    LIMIT p_scan
  ), ranked AS (
    SELECT h.row_id, h.next_attempt_at,
      h.automation_id <> ALL (p_full)
        AND row_number() OVER (PARTITION BY h.automation_id ORDER BY h.next_attempt_at) <= coalesce(f.free, p_endpoint_limit)
        AND NOT EXISTS (
          SELECT 1 FROM billing_subscriptions AS b WHERE b.tenant_id = h.tenant_id AND b.status = ANY (p_inactive)
        ) AS allowed
    FROM head AS h
    LEFT JOIN unnest(p_busy_ids, p_busy_free) AS f(automation_id, free) ON f.automation_id = h.automation_id
  )
  SELECT count(*), coalesce(array_agg(r.row_id ORDER BY r.next_attempt_at) FILTER (WHERE r.allowed), '{}')
  INTO v_scanned, v_rows
  FROM ranked AS r;

  IF v_scanned >= p_scan AND cardinality(v_rows) < p_limit THEN
    -- Endpoint by endpoint: every (tenant, automation) with an unfinished delivery, one index probe each, then each
    -- one's oldest due rows up to its allowance; the oldest p_scan of all of them.
    WITH RECURSIVE endpoints AS (
      (SELECT w.tenant_id, w.automation_id FROM webhook_deliveries AS w
       WHERE w.completed_at IS NULL AND (p_tenant_ids IS NULL OR w.tenant_id = ANY (p_tenant_ids))
       ORDER BY w.tenant_id, w.automation_id
       LIMIT 1)
      UNION ALL
      SELECT n.tenant_id, n.automation_id FROM endpoints AS e
      CROSS JOIN LATERAL (
        SELECT w.tenant_id, w.automation_id FROM webhook_deliveries AS w
        WHERE w.completed_at IS NULL AND (w.tenant_id, w.automation_id) > (e.tenant_id, e.automation_id)
          AND (p_tenant_ids IS NULL OR w.tenant_id = ANY (p_tenant_ids))
        ORDER BY w.tenant_id, w.automation_id
        LIMIT 1
      ) AS n
    ), open AS (
      SELECT e.tenant_id, e.automation_id, coalesce(f.free, p_endpoint_limit) AS free FROM endpoints AS e
      LEFT JOIN unnest(p_busy_ids, p_busy_free) AS f(automation_id, free) ON f.automation_id = e.automation_id
      WHERE e.automation_id <> ALL (p_full)
        AND NOT EXISTS (
          SELECT 1 FROM billing_subscriptions AS b WHERE b.tenant_id = e.tenant_id AND b.status = ANY (p_inactive)
        )
    )
    SELECT coalesce(array_agg(d.row_id ORDER BY d.next_attempt_at), '{}') INTO v_rows
    FROM (
      SELECT due.row_id, due.next_attempt_at FROM open AS o
      CROSS JOIN LATERAL (
        SELECT w.ctid AS row_id, w.next_attempt_at FROM webhook_deliveries AS w
        WHERE w.tenant_id = o.tenant_id AND w.automation_id = o.automation_id
          AND w.completed_at IS NULL
          AND w.next_attempt_at <= v_now
          AND ((w.status = 'pending' AND w.next_attempt_at <= v_now) OR (w.status = 'delivering' AND w.lease_until < v_now))
        ORDER BY w.next_attempt_at
        LIMIT o.free
      ) AS due
      ORDER BY due.next_attempt_at
      LIMIT p_scan
    ) AS d;
  END IF;

  RETURN QUERY
    WITH locked AS MATERIALIZED (
      SELECT w.ctid AS row_id FROM webhook_deliveries AS w
      WHERE w.ctid = ANY (v_rows)
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
      SELECT v_scanned AS scanned, least(p_limit, cardinality(v_rows))::bigint AS picked
    )
    SELECT claimed.*, counts.* FROM claimed, counts
    UNION ALL
    SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, counts.* FROM counts
    WHERE NOT EXISTS (SELECT 1 FROM claimed);
END
$$;
