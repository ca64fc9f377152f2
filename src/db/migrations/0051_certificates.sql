-- Issue 23, part 4: certificate templates, the courses that issue them on completion, and certificates.
-- A template's courses are a link table (one template per course), not a column of courses: the course record is
-- the contract's, and a course names at most one template to issue from.
CREATE TABLE "certificate_templates" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"layout" jsonb NOT NULL,
	"orientation" text DEFAULT 'landscape' NOT NULL,
	"background_media_id" uuid,
	"signature_media_id" uuid,
	"expires_after_days" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificate_templates_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "certificate_templates_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX "certificate_templates_tenant_created_idx" ON "certificate_templates" USING btree ("tenant_id","created_at","id");
--> statement-breakpoint
CREATE INDEX "certificate_templates_tenant_status_created_idx" ON "certificate_templates" USING btree ("tenant_id","status","created_at","id");
--> statement-breakpoint
CREATE TRIGGER certificate_templates_count_insert AFTER INSERT ON certificate_templates REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('certificate_templates', 'status');
--> statement-breakpoint
CREATE TRIGGER certificate_templates_count_delete AFTER DELETE ON certificate_templates REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('certificate_templates', 'status');
--> statement-breakpoint
CREATE TRIGGER certificate_templates_count_update AFTER UPDATE ON certificate_templates REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('certificate_templates', 'status');
--> statement-breakpoint
CREATE TABLE "certificate_template_courses" (
	"tenant_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	CONSTRAINT "certificate_template_courses_tenant_id_course_id_pk" PRIMARY KEY("tenant_id","course_id"),
	CONSTRAINT "certificate_template_courses_course_fk" FOREIGN KEY ("tenant_id","course_id") REFERENCES "public"."courses"("tenant_id","id") ON DELETE cascade,
	CONSTRAINT "certificate_template_courses_template_fk" FOREIGN KEY ("tenant_id","template_id") REFERENCES "public"."certificate_templates"("tenant_id","id") ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX "certificate_template_courses_template_idx" ON "certificate_template_courses" USING btree ("tenant_id","template_id","course_id");
--> statement-breakpoint
-- A certificate keeps the student's name and the course's title as issued: it shows what it showed that day.
-- `serial` is the public verification code (80 random bits), unique within the institution whose host serves it.
CREATE TABLE "certificates" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"template_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"enrollment_id" uuid,
	"serial" text NOT NULL,
	"status" text DEFAULT 'valid' NOT NULL,
	"source" text NOT NULL,
	"student_name" text NOT NULL,
	"course_title" text NOT NULL,
	"issued_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp(3) with time zone,
	"revoked_at" timestamp(3) with time zone,
	"revocation_reason" text,
	"expiring_notified_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificates_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "certificates_template_fk" FOREIGN KEY ("tenant_id","template_id") REFERENCES "public"."certificate_templates"("tenant_id","id") ON DELETE cascade,
	CONSTRAINT "certificates_user_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","id") ON DELETE cascade,
	CONSTRAINT "certificates_course_fk" FOREIGN KEY ("tenant_id","course_id") REFERENCES "public"."courses"("tenant_id","id") ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_serial_key" ON "certificates" USING btree ("tenant_id","serial");
--> statement-breakpoint
-- At most one valid certificate per enrollment: a manual issue and the completion's issue cannot both land.
CREATE UNIQUE INDEX "certificates_valid_enrollment_key" ON "certificates" USING btree ("tenant_id","enrollment_id") WHERE status = 'valid';
--> statement-breakpoint
CREATE INDEX "certificates_tenant_issued_idx" ON "certificates" USING btree ("tenant_id","issued_at","id");
--> statement-breakpoint
CREATE INDEX "certificates_tenant_status_issued_idx" ON "certificates" USING btree ("tenant_id","status","issued_at","id");
--> statement-breakpoint
CREATE INDEX "certificates_user_issued_idx" ON "certificates" USING btree ("tenant_id","user_id","issued_at","id");
--> statement-breakpoint
CREATE INDEX "certificates_course_issued_idx" ON "certificates" USING btree ("tenant_id","course_id","issued_at","id");
--> statement-breakpoint
CREATE INDEX "certificates_course_status_issued_idx" ON "certificates" USING btree ("tenant_id","course_id","status","issued_at","id");
--> statement-breakpoint
-- The worker's expiry passes, across tenants: valid certificates by expiry, and those not yet warned.
CREATE INDEX "certificates_expiry_idx" ON "certificates" USING btree ("expires_at") WHERE status = 'valid' AND expires_at IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "certificates_expiring_idx" ON "certificates" USING btree ("expires_at") WHERE status = 'valid' AND expires_at IS NOT NULL AND expiring_notified_at IS NULL;
--> statement-breakpoint
CREATE TRIGGER certificates_count_insert AFTER INSERT ON certificates REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('certificates', 'status', 'user_id', 'course_id', 'user_id+status', 'course_id+status');
--> statement-breakpoint
CREATE TRIGGER certificates_count_delete AFTER DELETE ON certificates REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('certificates', 'status', 'user_id', 'course_id', 'user_id+status', 'course_id+status');
--> statement-breakpoint
-- Only the status of a certificate changes (revoked, expired); user and course never do.
CREATE TRIGGER certificates_count_update AFTER UPDATE ON certificates REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('certificates', 'status', 'user_id+status', 'course_id+status');
