-- The claim and the batch record always run their statements on the plans plpgsql keeps per session (generic
-- plans), instead of leaving the choice to plan_cache_mode = auto (migration 0027). Auto compares the generic plan's
-- estimated cost with the average of the first five custom plans, and the estimates move with the statistics: on a
-- database where it chose custom plans, every claim was planned again, so a claim that found nothing cost 0.28 ms
-- instead of 0.084 ms (pgbench), and claims of 10 at a time cost PostgreSQL 54 µs a delivery instead of 36.5. The
-- generic plans are the ones 0027 checked (the head through webhook_deliveries_due_idx, the endpoints through
-- webhook_deliveries_endpoint_due_idx, rows taken by physical address), whatever the values; bench (l) keeps them
-- honest against a million completed deliveries and a capped endpoint's backlog.
ALTER FUNCTION aula_outbox_claim(int, int, int, int, uuid[], uuid[], int[], text[], uuid[], timestamptz, text)
  SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
ALTER FUNCTION aula_outbox_record_successes(jsonb, timestamptz) SET plan_cache_mode = force_generic_plan;
