import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Executor } from "../db/client.js";

/** A ready image file of the tenant, written directly (badge images; the media module's own tests upload). */
export async function readyImage(db: Executor, tenantId: string): Promise<string> {
  const id = randomUUID();
  await db.execute(sql`INSERT INTO media (tenant_id, id, kind, filename, content_type, size_bytes, status, storage,
      storage_key, upload_expires_at) VALUES (${tenantId}, ${id}, 'image', 'badge.png', 'image/png', 100, 'ready', 'local',
      ${id}, now())`);
  return id;
}

/** A badge of the tenant, written directly (for fixtures that need one to exist). */
export async function makeBadge(db: Executor, tenantId: string, name = "Badge"): Promise<string> {
  const image = await readyImage(db, tenantId);
  const id = randomUUID();
  await db.execute(sql`INSERT INTO gamification_badges (tenant_id, id, name, description, image_media_id,
      criteria_narrative) VALUES (${tenantId}, ${id}, ${name}, 'A badge.', ${image}, 'Do the thing.')`);
  return id;
}
