-- A theme's logo, favicon and login background are files of the institution's media library. Deleting a file a
-- theme names clears that one id (not tenant_id, part of both keys), and the theme's version moves on, so a client
-- holding the compiled variables by version (ETag) fetches them again and never keeps an id that is gone.
ALTER TABLE "themes" ADD CONSTRAINT "themes_logo_media_fk" FOREIGN KEY ("tenant_id", "logo_media_id")
  REFERENCES "media" ("tenant_id", "id") ON DELETE SET NULL ("logo_media_id");
--> statement-breakpoint
ALTER TABLE "themes" ADD CONSTRAINT "themes_favicon_media_fk" FOREIGN KEY ("tenant_id", "favicon_media_id")
  REFERENCES "media" ("tenant_id", "id") ON DELETE SET NULL ("favicon_media_id");
--> statement-breakpoint
ALTER TABLE "themes" ADD CONSTRAINT "themes_login_background_media_fk"
  FOREIGN KEY ("tenant_id", "login_background_media_id")
  REFERENCES "media" ("tenant_id", "id") ON DELETE SET NULL ("login_background_media_id");
--> statement-breakpoint
-- A file's deletion changes the theme without going through the themes service, which bumps the version itself
-- on every change it makes: only a change that left the version as it was (the foreign key's) is bumped here.
CREATE FUNCTION aula_theme_media_cleared() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.version = OLD.version THEN
    NEW.version := OLD.version + 1;
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER themes_media_cleared BEFORE UPDATE OF logo_media_id, favicon_media_id, login_background_media_id
  ON themes FOR EACH ROW
  WHEN (OLD.logo_media_id IS DISTINCT FROM NEW.logo_media_id
    OR OLD.favicon_media_id IS DISTINCT FROM NEW.favicon_media_id
    OR OLD.login_background_media_id IS DISTINCT FROM NEW.login_background_media_id)
  EXECUTE FUNCTION aula_theme_media_cleared();
