import { sql } from "drizzle-orm";
import { media } from "../../db/schema/index.js";
import { emitEvents } from "../events/emit.js";
import { mediaAbout, VERIFICATION_STALE_SECONDS } from "./complete.js";
import type { MediaDeps } from "./media-record.js";
import type { MediaRow } from "./repo.js";
import { removeBytes } from "./service.js";

const BATCH = 1000;
/** How long after its upload URL expired a pending upload may still be completed. */
export const PENDING_GRACE_SECONDS = 3600;

/**
 * The worker's hourly pass: an upload still pending an hour after its URL expired is `failed` with
 * `upload_expired` (`media_failed`), which frees the storage it reserved; whatever bytes it had are removed after
 * the commit. So is one whose verification died with its process (`verifying` for longer than a verification
 * takes); a verification still running when its file expires loses its claim and removes its own copy. Rows are taken with SKIP LOCKED, so two workers never take the same one. Answers how many expired.
 */
export async function expireUploads(deps: MediaDeps): Promise<number> {
  const expired = await deps.db.transaction(async (tx) => {
    const rows: MediaRow[] = await tx
      .update(media)
      .set({ status: "failed", error: "upload_expired", updatedAt: sql`now()` })
      .where(
        sql`(${media.tenantId}, ${media.id}) IN (
          SELECT tenant_id, id FROM ${media}
          WHERE status IN ('pending_upload', 'verifying')
            AND upload_expires_at < now() - make_interval(secs => ${PENDING_GRACE_SECONDS})
            AND (status = 'pending_upload'
              OR updated_at < now() - make_interval(secs => ${VERIFICATION_STALE_SECONDS}))
          ORDER BY upload_expires_at LIMIT ${BATCH}
          FOR UPDATE SKIP LOCKED)`,
      )
      .returning();
    const byTenant = new Map<string, MediaRow[]>();
    for (const row of rows) byTenant.set(row.tenantId, [...(byTenant.get(row.tenantId) ?? []), row]);
    for (const [tenantId, list] of byTenant) {
      await emitEvents(
        tx,
        tenantId,
        list.map((row) => ({
          type: "media_failed" as const,
          data: { ...mediaAbout(row), error: "upload_expired" },
          actor: { type: "system" as const },
        })),
      );
    }
    return rows;
  });
  await removeBytes(deps, expired);
  return expired.length;
}
