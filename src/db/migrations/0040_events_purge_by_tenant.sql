-- The 30-day purge now walks each tenant's (tenant_id, occurred_at, id) index, so the global time index goes: it
-- was a third index to write on every event, and in a database with one large tenant the planner took it for
-- GET /events, where the cursor's row comparison cannot bound it (it read the tenant's earlier events).
DROP INDEX IF EXISTS "platform_events_occurred_idx";
