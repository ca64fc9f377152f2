-- Issue 23, part 4: mail that carries files, and certificates of learning paths.
-- An outbox message names its attachments (`[{"kind": "certificate", "id": "…"}]`) and never holds their bytes:
-- the worker renders each one when it sends, so a certificate revoked after the mail was queued is not mailed.
ALTER TABLE "email_messages" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
-- A message written by a change that has no request behind it (a course or a path completed by a quiz, a
-- live-class attendance sync) is composed by the worker when it sends: its template is rendered then, on the
-- institution's own host, and only then does it get a Message-ID. Until then these two are NULL.
ALTER TABLE "email_messages" ALTER COLUMN "body_sealed" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "email_messages" ALTER COLUMN "message_id" DROP NOT NULL;
--> statement-breakpoint
-- A row holding NULL in a bucket's column is in no bucket of it: a certificate of a learning path has no course.
-- Before, such a row made the counter's name NULL and the write failed, so no table relied on it; a composite
-- bucket with a NULL column (string_agg would skip it and land the row in a shorter bucket) is none either.
CREATE OR REPLACE FUNCTION aula_bucket_key(row_data jsonb, bucket text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN strpos(bucket, '+') = 0 THEN row_data ->> bucket
    ELSE (SELECT CASE WHEN bool_or(row_data ->> c.name IS NULL) THEN NULL
                 ELSE string_agg(row_data ->> c.name, ':' ORDER BY c.n) END
          FROM unnest(string_to_array(bucket, '+')) WITH ORDINALITY AS c(name, n)) END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION aula_count_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  counter_name text := TG_ARGV[0];
  bucket_columns text[] := TG_ARGV[1:TG_NARGS - 1];
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT n.tenant_id, counter_name AS counter, 1 AS delta FROM new_rows n WHERE n.tenant_id IS NOT NULL
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(n), b.col), 1
        FROM new_rows n CROSS JOIN unnest(bucket_columns) AS b(col)
        WHERE n.tenant_id IS NOT NULL AND aula_bucket_key(to_jsonb(n), b.col) IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id, counter_name AS counter, -1 AS delta FROM old_rows o WHERE o.tenant_id IS NOT NULL
        UNION ALL
        SELECT o.tenant_id, counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(o), b.col), -1
        FROM old_rows o CROSS JOIN unnest(bucket_columns) AS b(col)
        WHERE o.tenant_id IS NOT NULL AND aula_bucket_key(to_jsonb(o), b.col) IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF cardinality(bucket_columns) > 0 THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT o.tenant_id,
               counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(o), b.col) AS counter, -1 AS delta
        FROM old_rows o CROSS JOIN unnest(bucket_columns) AS b(col)
        WHERE o.tenant_id IS NOT NULL AND aula_bucket_key(to_jsonb(o), b.col) IS NOT NULL
        UNION ALL
        SELECT n.tenant_id, counter_name || ':' || b.col || ':' || aula_bucket_key(to_jsonb(n), b.col), 1
        FROM new_rows n CROSS JOIN unnest(bucket_columns) AS b(col)
        WHERE n.tenant_id IS NOT NULL AND aula_bucket_key(to_jsonb(n), b.col) IS NOT NULL
      ) d
      GROUP BY d.tenant_id, d.counter HAVING sum(d.delta) <> 0 ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Learning paths issue certificates too: a template names paths as it names courses (one template per path).
CREATE TABLE "certificate_template_paths" (
	"tenant_id" uuid NOT NULL,
	"learning_path_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	CONSTRAINT "certificate_template_paths_tenant_id_learning_path_id_pk" PRIMARY KEY("tenant_id","learning_path_id"),
	CONSTRAINT "certificate_template_paths_path_fk" FOREIGN KEY ("tenant_id","learning_path_id") REFERENCES "public"."learning_paths"("tenant_id","id") ON DELETE cascade,
	CONSTRAINT "certificate_template_paths_template_fk" FOREIGN KEY ("tenant_id","template_id") REFERENCES "public"."certificate_templates"("tenant_id","id") ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX "certificate_template_paths_template_idx" ON "certificate_template_paths" USING btree ("tenant_id","template_id","learning_path_id");
--> statement-breakpoint
-- A certificate is of a course (and, issued on completion or by hand, of an enrollment in it) or of a learning
-- path (of the user's enrollment in the path, keyed by path and user): exactly one, with its title as issued.
ALTER TABLE "certificates" ALTER COLUMN "course_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "certificates" ALTER COLUMN "course_title" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "learning_path_id" uuid;
--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "learning_path_title" text;
--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_learning_path_fk" FOREIGN KEY ("tenant_id","learning_path_id") REFERENCES "public"."learning_paths"("tenant_id","id") ON DELETE cascade;
--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_course_or_path_check" CHECK (
  (course_id IS NOT NULL AND course_title IS NOT NULL AND learning_path_id IS NULL AND learning_path_title IS NULL)
  OR (course_id IS NULL AND course_title IS NULL AND enrollment_id IS NULL
      AND learning_path_id IS NOT NULL AND learning_path_title IS NOT NULL));
--> statement-breakpoint
-- At most one valid certificate per path enrollment (a path and a user).
CREATE UNIQUE INDEX "certificates_valid_path_key" ON "certificates" USING btree ("tenant_id","learning_path_id","user_id") WHERE status = 'valid' AND learning_path_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "certificates_path_issued_idx" ON "certificates" USING btree ("tenant_id","learning_path_id","issued_at","id") WHERE learning_path_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "certificates_path_status_issued_idx" ON "certificates" USING btree ("tenant_id","learning_path_id","status","issued_at","id") WHERE learning_path_id IS NOT NULL;
--> statement-breakpoint
DROP TRIGGER certificates_count_insert ON certificates;
--> statement-breakpoint
DROP TRIGGER certificates_count_delete ON certificates;
--> statement-breakpoint
DROP TRIGGER certificates_count_update ON certificates;
--> statement-breakpoint
CREATE TRIGGER certificates_count_insert AFTER INSERT ON certificates REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('certificates', 'status', 'user_id', 'course_id', 'learning_path_id', 'user_id+status', 'course_id+status', 'learning_path_id+status');
--> statement-breakpoint
CREATE TRIGGER certificates_count_delete AFTER DELETE ON certificates REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('certificates', 'status', 'user_id', 'course_id', 'learning_path_id', 'user_id+status', 'course_id+status', 'learning_path_id+status');
--> statement-breakpoint
-- Only the status of a certificate changes (revoked, expired); user, course and path never do.
CREATE TRIGGER certificates_count_update AFTER UPDATE ON certificates REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('certificates', 'status', 'user_id+status', 'course_id+status', 'learning_path_id+status');
