-- Usage filtered by one user or one course reads that subject's rollup rows in the window, not the institution's.
CREATE INDEX "ai_usage_daily_user_day_idx" ON "ai_usage_daily" USING btree ("tenant_id", "user_id", "day");
--> statement-breakpoint
CREATE INDEX "ai_usage_daily_course_day_idx" ON "ai_usage_daily" USING btree ("tenant_id", "course_id", "day");
--> statement-breakpoint
-- A conversation: prompt runs that continue one another. Its messages are personal data, sealed at rest and read
-- only by an administrator's session.
CREATE TABLE "ai_conversations" (
  "tenant_id" uuid NOT NULL,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid,
  "course_id" uuid,
  "lesson_id" uuid,
  "feature" text NOT NULL,
  "started_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "last_message_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "message_count" integer DEFAULT 0 NOT NULL,
  "credits" bigint DEFAULT 0 NOT NULL,
  "rating" smallint,
  "flagged" boolean DEFAULT false NOT NULL,
  "topics" text[] DEFAULT '{}'::text[] NOT NULL,
  CONSTRAINT "ai_conversations_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "ai_conversations_rating_check" CHECK ("rating" BETWEEN 1 AND 5)
);
--> statement-breakpoint
-- Newest first, for the institution and for each filter a list offers.
CREATE INDEX "ai_conversations_tenant_last_idx" ON "ai_conversations" USING btree ("tenant_id", "last_message_at", "id");
--> statement-breakpoint
CREATE INDEX "ai_conversations_user_last_idx" ON "ai_conversations" USING btree ("tenant_id", "user_id", "last_message_at", "id");
--> statement-breakpoint
CREATE INDEX "ai_conversations_course_last_idx" ON "ai_conversations" USING btree ("tenant_id", "course_id", "last_message_at", "id");
--> statement-breakpoint
CREATE INDEX "ai_conversations_feature_last_idx" ON "ai_conversations" USING btree ("tenant_id", "feature", "last_message_at", "id");
--> statement-breakpoint
CREATE INDEX "ai_conversations_flagged_last_idx" ON "ai_conversations" USING btree ("tenant_id", "last_message_at", "id") WHERE "flagged";
--> statement-breakpoint
CREATE TABLE "ai_conversation_messages" (
  "tenant_id" uuid NOT NULL,
  "conversation_id" uuid NOT NULL,
  "seq" integer NOT NULL,
  "role" text NOT NULL,
  "content" text NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "ai_conversation_messages_pk" PRIMARY KEY ("tenant_id", "conversation_id", "seq"),
  CONSTRAINT "ai_conversation_messages_conversation_fk" FOREIGN KEY ("tenant_id", "conversation_id")
    REFERENCES "ai_conversations" ("tenant_id", "id") ON DELETE CASCADE
);
