-- Dynamic Registration tokens, consumed once: the tool's primary key made a token single-use only while its tool
-- existed, so a tool deleted within the token's hour could register itself again.
CREATE TABLE "lti_registration_tokens" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
  "id" uuid NOT NULL,
  "expires_at" timestamp(3) with time zone NOT NULL,
  "used_at" timestamp(3) with time zone,
  CONSTRAINT "lti_registration_tokens_pk" PRIMARY KEY ("tenant_id", "id")
);
--> statement-breakpoint
CREATE INDEX "lti_registration_tokens_expires_idx" ON "lti_registration_tokens" USING btree ("tenant_id", "expires_at");
