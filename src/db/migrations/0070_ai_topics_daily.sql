-- Topics of AI questions per day (in the institution's time zone) and course: stemmed lexemes of the questions, never
-- their text. A run adds its question's topics in its settling transaction; GET /ai-analytics/topics reads only this.
-- "No course" is the nil UUID, as in ai_usage_daily, so it stays part of the primary key.
CREATE TABLE "ai_topics_daily" (
  "tenant_id" uuid NOT NULL,
  "day" date NOT NULL,
  "course_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000'::uuid NOT NULL,
  "topic" text NOT NULL,
  "count" integer DEFAULT 0 NOT NULL,
  "conversations" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "ai_topics_daily_pk" PRIMARY KEY ("tenant_id", "day", "course_id", "topic")
);
--> statement-breakpoint
-- The primary key serves (tenant, day); a course's topics read that course's rows in the window.
CREATE INDEX "ai_topics_daily_course_day_idx" ON "ai_topics_daily" USING btree ("tenant_id", "course_id", "day");
