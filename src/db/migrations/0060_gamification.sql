-- Issue 24 (part 3): gamification. Settings hold the point rules, levels and the leaderboard's options, and
-- `trigger_events`, the event types any rule or active badge rule reacts to, so that emitting an event costs one
-- indexed lookup that finds nothing unless gamification cares about it. Points live in an append-only ledger: a
-- row is never updated or deleted (a trigger refuses both), and carries the balance after it; a rule's award is
-- unique per (user, rule event, source key), so a repeated completion adds nothing. The balance row is what
-- concurrent awards of one user lock, so cooldowns and daily caps are checked one award at a time. Standings are
-- the leaderboards' rollups per (scope, scope id, period, window start), written in the award's transaction and
-- read in (points desc, user) order through their own index. Badges are Open Badges 3.0 achievements; an award
-- is a credential signed on read with the institution's Ed25519 key (sealed at rest), from the badge and the
-- recipient as they were when it was awarded (`achievement`, `recipient`: a salted hash of the e-mail); its
-- `status_index` is its bit in the institution's W3C Bitstring Status List of revocations (one global sequence, so
-- indexes never collide; each list covers 131,072 of them).
CREATE TABLE "gamification_settings" (
  "tenant_id" uuid PRIMARY KEY NOT NULL REFERENCES "tenants" ("id") ON DELETE CASCADE,
  "enabled" boolean DEFAULT false NOT NULL,
  "point_rules" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "levels" jsonb DEFAULT '[{"level":1,"name":"Level 1","minPoints":0}]'::jsonb NOT NULL,
  "leaderboard" jsonb DEFAULT '{"enabled":false,"scope":"institution","period":"all_time","anonymize":false}'::jsonb NOT NULL,
  "trigger_events" text[] DEFAULT '{}' NOT NULL,
  "issuer_key" text,
  "issuer_public_key" text,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gamification_balances" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants" ("id") ON DELETE CASCADE,
  "user_id" uuid NOT NULL,
  "points" bigint DEFAULT 0 NOT NULL,
  "level" integer DEFAULT 1 NOT NULL,
  "entries" integer DEFAULT 0 NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "gamification_balances_pk" PRIMARY KEY ("tenant_id", "user_id"),
  CONSTRAINT "gamification_balances_user_fk" FOREIGN KEY ("tenant_id", "user_id")
    REFERENCES "users" ("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE TABLE "gamification_ledger" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants" ("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL,
  "points" integer NOT NULL,
  "reason" text NOT NULL,
  "rule_event" text,
  "source_key" text,
  "event_id" uuid,
  "course_id" uuid,
  "note" text,
  "balance_after" bigint NOT NULL,
  "actor" jsonb NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "gamification_ledger_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "gamification_ledger_user_fk" FOREIGN KEY ("tenant_id", "user_id")
    REFERENCES "users" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "gamification_ledger_reason_check" CHECK ("reason" IN ('rule', 'manual', 'adjustment')),
  CONSTRAINT "gamification_ledger_rule_check" CHECK (("reason" = 'rule') = ("rule_event" IS NOT NULL AND "source_key" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "gamification_ledger_award_key" ON "gamification_ledger" USING btree ("tenant_id", "user_id", "rule_event", "source_key") WHERE "reason" = 'rule';
--> statement-breakpoint
CREATE INDEX "gamification_ledger_user_rule_idx" ON "gamification_ledger" USING btree ("tenant_id", "user_id", "rule_event", "created_at") WHERE "reason" = 'rule';
--> statement-breakpoint
CREATE INDEX "gamification_ledger_user_created_idx" ON "gamification_ledger" USING btree ("tenant_id", "user_id", "created_at", "id");
--> statement-breakpoint
CREATE FUNCTION "gamification_ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A cascade (the user's or the institution's removal) runs below another trigger; nothing else may remove.
  IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'gamification_ledger is append-only';
END $$;
--> statement-breakpoint
CREATE TRIGGER "gamification_ledger_append_only" BEFORE UPDATE OR DELETE ON "gamification_ledger"
  FOR EACH ROW EXECUTE FUNCTION "gamification_ledger_append_only"();
--> statement-breakpoint
CREATE TABLE "gamification_standings" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants" ("id") ON DELETE CASCADE,
  "scope" text NOT NULL,
  "scope_id" uuid NOT NULL,
  "period" text NOT NULL,
  "window_start" date NOT NULL,
  "user_id" uuid NOT NULL,
  "points" bigint NOT NULL,
  CONSTRAINT "gamification_standings_pk" PRIMARY KEY ("tenant_id", "scope", "scope_id", "period", "window_start", "user_id"),
  CONSTRAINT "gamification_standings_user_fk" FOREIGN KEY ("tenant_id", "user_id")
    REFERENCES "users" ("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX "gamification_standings_rank_idx" ON "gamification_standings" USING btree ("tenant_id", "scope", "scope_id", "period", "window_start", "points" DESC, "user_id");
--> statement-breakpoint
CREATE TABLE "gamification_badges" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants" ("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "name" text NOT NULL,
  "description" text NOT NULL,
  "image_media_id" uuid NOT NULL,
  "criteria_narrative" text NOT NULL,
  "criteria_url" text,
  "alignment" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "tags" text[] DEFAULT '{}' NOT NULL,
  "award_rule" jsonb DEFAULT '{"type":"manual"}'::jsonb NOT NULL,
  "trigger_event" text,
  "expires_after_days" integer,
  "status" text DEFAULT 'active' NOT NULL,
  "awarded_count" integer DEFAULT 0 NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "gamification_badges_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "gamification_badges_expiry_check" CHECK ("expires_after_days" IS NULL OR "expires_after_days" BETWEEN 1 AND 36500)
);
--> statement-breakpoint
CREATE INDEX "gamification_badges_tenant_created_idx" ON "gamification_badges" USING btree ("tenant_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "gamification_badges_trigger_idx" ON "gamification_badges" USING btree ("tenant_id", "trigger_event") WHERE "status" = 'active' AND "trigger_event" IS NOT NULL;
--> statement-breakpoint
CREATE SEQUENCE "gamification_status_index_seq" AS bigint;
--> statement-breakpoint
CREATE TABLE "gamification_awards" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants" ("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "badge_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "issued_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "expires_at" timestamp(3) with time zone,
  "evidence" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "awarded_by" text NOT NULL,
  "event_id" uuid,
  "achievement" jsonb NOT NULL,
  "recipient" jsonb NOT NULL,
  "status_index" bigint DEFAULT nextval('gamification_status_index_seq') NOT NULL,
  "revoked" boolean DEFAULT false NOT NULL,
  "revoked_at" timestamp(3) with time zone,
  "revocation_reason" text,
  CONSTRAINT "gamification_awards_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "gamification_awards_badge_fk" FOREIGN KEY ("tenant_id", "badge_id")
    REFERENCES "gamification_badges" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "gamification_awards_user_fk" FOREIGN KEY ("tenant_id", "user_id")
    REFERENCES "users" ("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "gamification_awards_by_check" CHECK ("awarded_by" IN ('rule', 'user', 'automation', 'api'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "gamification_awards_held_key" ON "gamification_awards" USING btree ("tenant_id", "badge_id", "user_id") WHERE NOT "revoked";
--> statement-breakpoint
CREATE UNIQUE INDEX "gamification_awards_status_key" ON "gamification_awards" USING btree ("tenant_id", "status_index");
--> statement-breakpoint
CREATE INDEX "gamification_awards_revoked_idx" ON "gamification_awards" USING btree ("tenant_id", "status_index") WHERE "revoked";
--> statement-breakpoint
CREATE INDEX "gamification_awards_user_idx" ON "gamification_awards" USING btree ("tenant_id", "user_id", "issued_at", "id");
