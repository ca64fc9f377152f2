-- One row per month (the first day of the month, in the institution's time zone), feature, model, course and user:
-- a report over whole months reads these (a twelfth, or less, of the daily rows of a busy institution) and the
-- daily rollup only for the partial months at its ends (src/modules/ai-analytics/usage.ts). Every call adds itself
-- to both in its transaction (ledger.ts).
CREATE TABLE "ai_usage_monthly" (
  "tenant_id" uuid NOT NULL,
  "month" date NOT NULL,
  "feature" text NOT NULL,
  "model" text NOT NULL,
  "course_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000'::uuid NOT NULL,
  "user_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000'::uuid NOT NULL,
  "requests" integer DEFAULT 0 NOT NULL,
  "input_tokens" bigint DEFAULT 0 NOT NULL,
  "output_tokens" bigint DEFAULT 0 NOT NULL,
  "credits" bigint DEFAULT 0 NOT NULL,
  CONSTRAINT "ai_usage_monthly_pk" PRIMARY KEY ("tenant_id", "month", "feature", "model", "course_id", "user_id"),
  CONSTRAINT "ai_usage_monthly_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE CASCADE,
  CONSTRAINT "ai_usage_monthly_month_check" CHECK (extract(day FROM "month") = 1)
);
--> statement-breakpoint
CREATE INDEX "ai_usage_monthly_user_month_idx" ON "ai_usage_monthly" USING btree ("tenant_id", "user_id", "month");
--> statement-breakpoint
CREATE INDEX "ai_usage_monthly_course_month_idx" ON "ai_usage_monthly" USING btree ("tenant_id", "course_id", "month");
--> statement-breakpoint
INSERT INTO "ai_usage_monthly" ("tenant_id", "month", "feature", "model", "course_id", "user_id", "requests",
  "input_tokens", "output_tokens", "credits")
SELECT "tenant_id", date_trunc('month', "day")::date, "feature", "model", "course_id", "user_id", sum("requests"),
  sum("input_tokens"), sum("output_tokens"), sum("credits")
FROM "ai_usage_daily" GROUP BY 1, 2, 3, 4, 5, 6;
