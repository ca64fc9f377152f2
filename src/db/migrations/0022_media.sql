CREATE TABLE "drive_folders" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"parent_id" uuid,
	"name" text NOT NULL,
	"scope" text DEFAULT 'institution' NOT NULL,
	"course_id" uuid,
	"class_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drive_folders_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "media" (
	"tenant_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"checksum_sha256" text,
	"status" text DEFAULT 'pending_upload' NOT NULL,
	"storage" text NOT NULL,
	"storage_key" text NOT NULL,
	"folder_id" uuid,
	"error" text,
	"received_bytes" bigint,
	"received_sha256" text,
	"upload_expires_at" timestamp(3) with time zone NOT NULL,
	"created_by" jsonb,
	"ready_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "drive_folders" ADD CONSTRAINT "drive_folders_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drive_folders" ADD CONSTRAINT "drive_folders_tenant_id_parent_id_drive_folders_tenant_id_id_fk" FOREIGN KEY ("tenant_id","parent_id") REFERENCES "public"."drive_folders"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drive_folders" ADD CONSTRAINT "drive_folders_tenant_id_course_id_courses_tenant_id_id_fk" FOREIGN KEY ("tenant_id","course_id") REFERENCES "public"."courses"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drive_folders" ADD CONSTRAINT "drive_folders_tenant_id_class_id_class_groups_tenant_id_id_fk" FOREIGN KEY ("tenant_id","class_id") REFERENCES "public"."class_groups"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "drive_folders_sibling_name_key" ON "drive_folders" USING btree ("tenant_id",coalesce("parent_id", '00000000-0000-0000-0000-000000000000'::uuid),lower("name"));--> statement-breakpoint
CREATE INDEX "media_tenant_created_idx" ON "media" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "media_tenant_folder_idx" ON "media" USING btree ("tenant_id","folder_id");--> statement-breakpoint
CREATE INDEX "media_filename_search_idx" ON "media" USING gin ("tenant_id",aula_fold("filename") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "media_pending_expiry_idx" ON "media" USING btree ("upload_expires_at") WHERE "media"."status" = 'pending_upload';--> statement-breakpoint
-- hand-written below
-- A file whose folder is deleted stays, unfiled: only folder_id is cleared (tenant_id is part of the key).
ALTER TABLE "media" ADD CONSTRAINT "media_folder_fk" FOREIGN KEY ("tenant_id", "folder_id")
  REFERENCES "drive_folders" ("tenant_id", "id") ON DELETE SET NULL ("folder_id");
--> statement-breakpoint
CREATE INDEX "drive_folders_parent_idx" ON "drive_folders" ("tenant_id", "parent_id");
--> statement-breakpoint
CREATE TRIGGER media_count_insert AFTER INSERT ON media REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('media', 'status');
--> statement-breakpoint
CREATE TRIGGER media_count_delete AFTER DELETE ON media REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('media', 'status');
--> statement-breakpoint
CREATE TRIGGER media_count_update AFTER UPDATE ON media REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('media', 'status');
--> statement-breakpoint
-- The storage a tenant holds (`media:bytes`): the declared size of every file that is not `failed`, so a pending
-- upload reserves its room. Kept by this trigger for any statement, in the transaction of the change; the
-- service locks the counter row before it reads it and inserts, so concurrent reservations queue.
CREATE FUNCTION aula_media_bytes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names only the transition tables its operation has.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT n.tenant_id, 'media:bytes', sum(n.size_bytes) FROM new_rows n WHERE n.status <> 'failed'
      GROUP BY n.tenant_id ORDER BY n.tenant_id
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT o.tenant_id, 'media:bytes', -sum(o.size_bytes) FROM old_rows o WHERE o.status <> 'failed'
      GROUP BY o.tenant_id ORDER BY o.tenant_id
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSE
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, 'media:bytes', sum(d.delta) FROM (
        SELECT n.tenant_id, n.size_bytes AS delta FROM new_rows n WHERE n.status <> 'failed'
        UNION ALL
        SELECT o.tenant_id, -o.size_bytes FROM old_rows o WHERE o.status <> 'failed'
      ) d
      GROUP BY d.tenant_id HAVING sum(d.delta) <> 0 ORDER BY d.tenant_id
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER media_bytes_insert AFTER INSERT ON media REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_media_bytes();
--> statement-breakpoint
CREATE TRIGGER media_bytes_delete AFTER DELETE ON media REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_media_bytes();
--> statement-breakpoint
CREATE TRIGGER media_bytes_update AFTER UPDATE ON media REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_media_bytes();
--> statement-breakpoint
-- Lessons that use a file (`content.mediaId`), found through this index when the file is deleted.
CREATE INDEX "lessons_media_ref_idx" ON "lessons" ("tenant_id", (("content" ->> 'mediaId')))
  WHERE "content" ? 'mediaId';
