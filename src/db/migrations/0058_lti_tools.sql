-- Issue 24 (part 1): LTI 1.3 tools. The institution is the platform, each registered tool an external client.
-- lti_tools: a tool's registration (clientId is issued by us and unique across the platform, since the token
-- endpoint and a deep-linking response name the tool by it before the tenant is known from anything else).
-- lti_platform_keys: the institution's RS256 signing keys; the private key is sealed with the secrets keyring.
-- A rotation marks the current key `previous` with `published_until` = rotation + the longest lifetime of
-- anything it signed, so the JWKS keeps it until those tokens have expired.
-- lti_launches: one row per launch started by a user; the OIDC authorization request claims it once
-- (`used_at`), and the tool's nonce is unique per tool, so a replayed initiation or nonce is refused.
-- lti_assertion_jtis: the `jti` of each client assertion a tool used at the token endpoint, until it expires.
-- lti_links: a lesson made from a deep-linking content item launches its tool with the item's URL and custom.
-- lti_line_items: AGS line items, each mapped to one gradebook grade item.
CREATE TABLE "lti_tools" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "name" text NOT NULL,
  "description" text,
  "vendor" text,
  "icon_url" text,
  "registration_method" text DEFAULT 'manual' NOT NULL,
  "client_id" text NOT NULL,
  "deployment_id" text NOT NULL,
  "target_link_uri" text NOT NULL,
  "oidc_initiation_url" text NOT NULL,
  "redirect_uris" jsonb NOT NULL,
  "jwks_url" text,
  "public_jwk" jsonb,
  "scopes" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "placements" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "custom_parameters" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "privacy_level" text DEFAULT 'anonymous' NOT NULL,
  "status" text DEFAULT 'active' NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "lti_tools_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "lti_tools_key_check" CHECK ("jwks_url" IS NOT NULL OR "public_jwk" IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "lti_tools_client_id_key" ON "lti_tools" USING btree ("client_id");
--> statement-breakpoint
CREATE INDEX "lti_tools_tenant_created_idx" ON "lti_tools" USING btree ("tenant_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "lti_tools_tenant_status_created_idx" ON "lti_tools" USING btree ("tenant_id", "status", "created_at", "id");
--> statement-breakpoint
CREATE TRIGGER lti_tools_count_insert AFTER INSERT ON lti_tools REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('lti_tools', 'status');
--> statement-breakpoint
CREATE TRIGGER lti_tools_count_delete AFTER DELETE ON lti_tools REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('lti_tools', 'status');
--> statement-breakpoint
CREATE TRIGGER lti_tools_count_update AFTER UPDATE ON lti_tools REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('lti_tools', 'status');
--> statement-breakpoint
CREATE TABLE "lti_platform_keys" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "kid" text NOT NULL,
  "private_key" text NOT NULL,
  "public_jwk" jsonb NOT NULL,
  "status" text DEFAULT 'current' NOT NULL,
  "published_until" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "lti_platform_keys_pk" PRIMARY KEY ("tenant_id", "kid"),
  CONSTRAINT "lti_platform_keys_status_check" CHECK ("status" IN ('current', 'previous'))
);
--> statement-breakpoint
-- One current key per institution: two concurrent first launches or rotations cannot leave two.
CREATE UNIQUE INDEX "lti_platform_keys_current_key" ON "lti_platform_keys" USING btree ("tenant_id") WHERE status = 'current';
--> statement-breakpoint
CREATE TABLE "lti_launches" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "tool_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "message_type" text NOT NULL,
  "course_id" uuid,
  "lesson_id" uuid,
  "nonce" text,
  "expires_at" timestamp(3) with time zone NOT NULL,
  "used_at" timestamp(3) with time zone,
  "returned_at" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "lti_launches_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "lti_launches_tool_fk" FOREIGN KEY ("tenant_id", "tool_id") REFERENCES "lti_tools"("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE UNIQUE INDEX "lti_launches_nonce_key" ON "lti_launches" USING btree ("tenant_id", "tool_id", "nonce");
--> statement-breakpoint
CREATE INDEX "lti_launches_expires_idx" ON "lti_launches" USING btree ("expires_at");
--> statement-breakpoint
CREATE TABLE "lti_assertion_jtis" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "tool_id" uuid NOT NULL,
  "jti" text NOT NULL,
  "expires_at" timestamp(3) with time zone NOT NULL,
  CONSTRAINT "lti_assertion_jtis_pk" PRIMARY KEY ("tenant_id", "tool_id", "jti"),
  CONSTRAINT "lti_assertion_jtis_tool_fk" FOREIGN KEY ("tenant_id", "tool_id") REFERENCES "lti_tools"("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX "lti_assertion_jtis_expires_idx" ON "lti_assertion_jtis" USING btree ("expires_at");
--> statement-breakpoint
CREATE TABLE "lti_line_items" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "tool_id" uuid NOT NULL,
  "course_id" uuid NOT NULL,
  "grade_item_id" uuid NOT NULL,
  "resource_link_id" text,
  "resource_id" text,
  "tag" text,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "lti_line_items_pk" PRIMARY KEY ("tenant_id", "id"),
  CONSTRAINT "lti_line_items_tool_fk" FOREIGN KEY ("tenant_id", "tool_id") REFERENCES "lti_tools"("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE UNIQUE INDEX "lti_line_items_grade_item_key" ON "lti_line_items" USING btree ("tenant_id", "grade_item_id");
--> statement-breakpoint
CREATE INDEX "lti_line_items_course_idx" ON "lti_line_items" USING btree ("tenant_id", "tool_id", "course_id", "created_at", "id");
--> statement-breakpoint
CREATE TABLE "lti_links" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "lesson_id" uuid NOT NULL,
  "tool_id" uuid NOT NULL,
  "url" text,
  "custom" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "lti_links_pk" PRIMARY KEY ("tenant_id", "lesson_id"),
  CONSTRAINT "lti_links_lesson_fk" FOREIGN KEY ("tenant_id", "lesson_id") REFERENCES "lessons"("tenant_id", "id") ON DELETE CASCADE,
  CONSTRAINT "lti_links_tool_fk" FOREIGN KEY ("tenant_id", "tool_id") REFERENCES "lti_tools"("tenant_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX "lti_links_tool_idx" ON "lti_links" USING btree ("tenant_id", "tool_id");
