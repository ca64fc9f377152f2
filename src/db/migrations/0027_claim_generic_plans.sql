-- The claim keeps its statements' plans (plpgsql caches them per session) instead of planning each at every call
-- with the call's values (migrations 0018, 0019). Planning was most of a claim's fixed cost: 0.80 ms for a claim that
-- finds nothing due against 0.28 ms with kept plans, so every wake-up, poll and small claim paid it. The plans do
-- not depend on the values: the head is read through webhook_deliveries_due_idx up to now, the endpoints through
-- webhook_deliveries_endpoint_due_idx, and the rows taken by their physical address (bench (l) checks the claim's
-- cost against a million completed deliveries and against a capped endpoint's backlog of 50,000).
ALTER FUNCTION aula_outbox_claim(int, int, int, int, uuid[], uuid[], int[], text[], uuid[], timestamptz, text)
  RESET plan_cache_mode;
