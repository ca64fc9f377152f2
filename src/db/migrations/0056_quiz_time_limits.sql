-- Issue 23 (part 1): quiz time limits are enforced. An attempt of a timed quiz ends at `ends_at` (its start plus the
-- quiz's time limit, pinned at the start, plus the extra time a teacher gives it; null without a limit); a
-- submission later than that plus a short grace is refused, and the worker closes open attempts past it. The
-- partial index is what the worker's minute pass scans, across tenants like the certificate expiry index: only open
-- timed attempts are in it, in the order they fall due.
ALTER TABLE "quiz_attempts" ADD COLUMN "extra_time_seconds" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD COLUMN "ends_at" timestamp(3) with time zone;
--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD CONSTRAINT "quiz_attempts_extra_time_check" CHECK ("extra_time_seconds" >= 0 AND "extra_time_seconds" <= 604800);
--> statement-breakpoint
CREATE INDEX "quiz_attempts_open_ends_idx" ON "quiz_attempts" USING btree ("ends_at") WHERE status = 'in_progress' AND ends_at IS NOT NULL;
