-- Issue 20: a folder's children and the live classes list cost what their page costs, not what the tenant holds.
--
-- A folder's children are listed folders first, then files, each by folded name (aula_fold) then id. Each part
-- gets an index in exactly that order under the tenant and the parent, the top level keyed as the nil uuid (as
-- in drive_folders_sibling_name_key): an equality on coalesce(...) makes the order of the index the order of the
-- list, where `parent_id IS NULL` would not, so a page walks its rows instead of folding and sorting the folder.
CREATE INDEX "drive_folders_children_idx" ON "drive_folders" USING btree
  ("tenant_id", coalesce("parent_id", '00000000-0000-0000-0000-000000000000'::uuid), aula_fold("name"), "id");
--> statement-breakpoint
CREATE INDEX "media_folder_children_idx" ON "media" USING btree
  ("tenant_id", coalesce("folder_id", '00000000-0000-0000-0000-000000000000'::uuid), aula_fold("filename"), "id");
--> statement-breakpoint
-- The counters behind a folder's `total`, `folderCount` and `fileCount` (`root` for the top level):
--   drive_children:folders:<parent>   sub-folders directly inside
--   drive_children:files:<folder>     files directly inside
--   drive_children:ready:<folder>     of those, the ready ones (what a student sees)
--   drive_roots:institution | drive_roots:course:<id> | drive_roots:class:<id>
--                                     top-level folders per audience: a student's top level is the sum of the
--                                     institution's and those of the courses and classes it is in.
-- A sub-folder carries its root's scope, so a student who reads a folder reads all its sub-folders: the plain
-- count is theirs too. The key is given the row as jsonb so one function serves both tables.
CREATE FUNCTION aula_drive_counters(table_name text, r jsonb) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT 'drive_children:folders:' || coalesce(r ->> 'parent_id', 'root') WHERE table_name = 'drive_folders'
  UNION ALL
  SELECT 'drive_roots:' || (r ->> 'scope') || coalesce(':' || coalesce(r ->> 'course_id', r ->> 'class_id'), '')
  WHERE table_name = 'drive_folders' AND r ->> 'parent_id' IS NULL
  UNION ALL
  SELECT 'drive_children:files:' || coalesce(r ->> 'folder_id', 'root') WHERE table_name = 'media'
  UNION ALL
  SELECT 'drive_children:ready:' || coalesce(r ->> 'folder_id', 'root')
  WHERE table_name = 'media' AND r ->> 'status' = 'ready'
$$;
--> statement-breakpoint
-- Statement-level, in the transaction of the change, like aula_count_rows; an update that moves nothing (most
-- updates of a file: its upload's progress) writes no counter. Each branch names only the transition tables its
-- operation has. A folder deleted leaves its files unfiled through the foreign key's SET NULL, an UPDATE that
-- this trigger follows like any other.
CREATE FUNCTION aula_drive_counts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT n.tenant_id, k.counter, count(*) FROM new_rows n, aula_drive_counters(TG_TABLE_NAME, to_jsonb(n)) k(counter)
      GROUP BY n.tenant_id, k.counter ORDER BY n.tenant_id, k.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT o.tenant_id, k.counter, -count(*) FROM old_rows o, aula_drive_counters(TG_TABLE_NAME, to_jsonb(o)) k(counter)
      GROUP BY o.tenant_id, k.counter ORDER BY o.tenant_id, k.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  ELSE
    INSERT INTO tenant_counters AS c (tenant_id, counter, value)
      SELECT d.tenant_id, d.counter, sum(d.delta) FROM (
        SELECT n.tenant_id, k.counter, 1 AS delta
        FROM new_rows n, aula_drive_counters(TG_TABLE_NAME, to_jsonb(n)) k(counter)
        UNION ALL
        SELECT o.tenant_id, k.counter, -1 FROM old_rows o, aula_drive_counters(TG_TABLE_NAME, to_jsonb(o)) k(counter)
      ) d
      GROUP BY d.tenant_id, d.counter HAVING sum(d.delta) <> 0 ORDER BY d.tenant_id, d.counter
    ON CONFLICT (tenant_id, counter) DO UPDATE SET value = c.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER drive_folders_count_insert AFTER INSERT ON drive_folders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_drive_counts();
--> statement-breakpoint
CREATE TRIGGER drive_folders_count_delete AFTER DELETE ON drive_folders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_drive_counts();
--> statement-breakpoint
CREATE TRIGGER drive_folders_count_update AFTER UPDATE ON drive_folders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_drive_counts();
--> statement-breakpoint
CREATE TRIGGER media_drive_count_insert AFTER INSERT ON media REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_drive_counts();
--> statement-breakpoint
CREATE TRIGGER media_drive_count_delete AFTER DELETE ON media REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_drive_counts();
--> statement-breakpoint
CREATE TRIGGER media_drive_count_update AFTER UPDATE ON media REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_drive_counts();
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, count(*) FROM (
    SELECT f.tenant_id, k.counter FROM drive_folders f, aula_drive_counters('drive_folders', to_jsonb(f)) k(counter)
    UNION ALL
    SELECT m.tenant_id, k.counter FROM media m, aula_drive_counters('media', to_jsonb(m)) k(counter)
  ) d
  GROUP BY tenant_id, counter
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
--> statement-breakpoint
-- Live classes: an index in the order of each sort the list offers (createdAt has live_classes_tenant_created_idx;
-- a backward walk serves the descending sorts), and counters behind `total` (`live_classes`,
-- `live_classes:status:<s>`) instead of a count of the tenant's classes per request.
CREATE INDEX "live_classes_tenant_starts_idx" ON "live_classes" USING btree ("tenant_id", "starts_at", "id");
--> statement-breakpoint
CREATE TRIGGER live_classes_count_insert AFTER INSERT ON live_classes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('live_classes', 'status');
--> statement-breakpoint
CREATE TRIGGER live_classes_count_delete AFTER DELETE ON live_classes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('live_classes', 'status');
--> statement-breakpoint
CREATE TRIGGER live_classes_count_update AFTER UPDATE ON live_classes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION aula_count_rows('live_classes', 'status');
--> statement-breakpoint
INSERT INTO tenant_counters AS c (tenant_id, counter, value)
  SELECT tenant_id, counter, n FROM (
    SELECT tenant_id, 'live_classes' AS counter, count(*) AS n FROM live_classes GROUP BY tenant_id
    UNION ALL
    SELECT tenant_id, 'live_classes:status:' || status, count(*) FROM live_classes GROUP BY tenant_id, status
  ) d
ON CONFLICT (tenant_id, counter) DO UPDATE SET value = EXCLUDED.value;
