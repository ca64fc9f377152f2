-- Issue 24, part 2: background jobs and reports (RESOURCES.md 4.25 and 4.36). One table of jobs, claimed by the
-- workers with the outbox's lease (src/db/lease.ts: `FOR UPDATE SKIP LOCKED`, a lease, and the attempt number as
-- the fencing token); a report run is a job of type `report` whose `subtype` is the report's type, its parameters
-- in `payload` and its file (store, key, size) in `result`. Nothing about a report lives anywhere else, so the
-- report's status, progress and counts are the job's, and neither can drift from the other.
-- `run_at`: when a queued job may start, and while it runs the end of its lease (kept equal to `lease_until`, until
-- when it belongs to its worker); a job past it is taken over by the next claim (its worker died), up to
-- `max_attempts` claims.
-- Totals: the counters `jobs[:status:<s>|:type:<t>|:type+status:<t>:<s>|:type+subtype:<t>:<st>]`.
CREATE TABLE "jobs" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "type" text NOT NULL,
  "subtype" text,
  "status" text DEFAULT 'queued' NOT NULL,
  "progress" integer DEFAULT 0 NOT NULL,
  "total_items" bigint DEFAULT 0 NOT NULL,
  "processed_items" bigint DEFAULT 0 NOT NULL,
  "succeeded_items" bigint DEFAULT 0 NOT NULL,
  "failed_items" bigint DEFAULT 0 NOT NULL,
  "payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "result" jsonb,
  "error" text,
  "attempts" integer DEFAULT 0 NOT NULL,
  "max_attempts" integer DEFAULT 3 NOT NULL,
  "run_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "lease_until" timestamp(3) with time zone,
  "cancel_requested" boolean DEFAULT false NOT NULL,
  "created_by" jsonb,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "started_at" timestamp(3) with time zone,
  "finished_at" timestamp(3) with time zone,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "jobs_tenant_id_id_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "jobs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id")
    REFERENCES "public"."tenants" ("id") ON DELETE cascade,
  CONSTRAINT "jobs_status_check"
    CHECK (status IN ('queued', 'running', 'succeeded', 'partially_succeeded', 'failed', 'canceled'))
);
--> statement-breakpoint
CREATE INDEX "jobs_tenant_created_idx" ON "jobs" USING btree ("tenant_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "jobs_tenant_status_created_idx" ON "jobs" USING btree ("tenant_id", "status", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "jobs_tenant_type_created_idx" ON "jobs" USING btree ("tenant_id", "type", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "jobs_tenant_type_status_created_idx" ON "jobs" USING btree ("tenant_id", "type", "status", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "jobs_tenant_type_subtype_created_idx" ON "jobs" USING btree ("tenant_id", "type", "subtype", "created_at", "id");
--> statement-breakpoint
-- The claim's: unfinished jobs by `run_at`, when a queued job may start and, while one runs, when its lease ends
-- (the claim and every heartbeat move it with the lease), so one ordered walk finds both kinds of due job and stops
-- at the first it may take; finished jobs are not in it, so the claim costs the same whatever their number.
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE status IN ('queued', 'running');
--> statement-breakpoint
-- The per-tenant cap: a tenant's running jobs, counted by the claim for each candidate.
CREATE INDEX "jobs_tenant_running_idx" ON "jobs" USING btree ("tenant_id", "lease_until") WHERE status = 'running';
--> statement-breakpoint
CREATE TRIGGER jobs_count_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('jobs', 'status', 'type', 'type+status', 'type+subtype');
--> statement-breakpoint
CREATE TRIGGER jobs_count_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('jobs', 'status', 'type', 'type+status', 'type+subtype');
--> statement-breakpoint
-- A job's type and subtype never change; its status does, so only the status buckets move.
CREATE TRIGGER jobs_count_update AFTER UPDATE ON jobs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('jobs', 'status', 'type+status');
