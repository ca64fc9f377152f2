import { sql } from "drizzle-orm";
import { media } from "../../db/schema/index.js";
import { emitEvents } from "../events/emit.js";
import { VERIFICATION_STALE_SECONDS } from "./complete.js";
import type { MediaRow } from "./repo.js";
import { type MediaDeps, removeBytes } from "./service.js";

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
    const result = (await tx.execute(sql`
      UPDATE ${media} SET status = 'failed', error = 'upload_expired', updated_at = now()
      WHERE (tenant_id, id) IN (
        SELECT tenant_id, id FROM ${media}
        WHERE status IN ('pending_upload', 'verifying')
          AND upload_expires_at < now() - make_interval(secs => ${PENDING_GRACE_SECONDS})
          AND (status = 'pending_upload'
            OR updated_at < now() - make_interval(secs => ${VERIFICATION_STALE_SECONDS}))
        ORDER BY upload_expires_at LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED)
      RETURNING tenant_id AS "tenantId", id, kind, filename, content_type AS "contentType",
        folder_id AS "folderId", storage, storage_key AS "storageKey"`)) as unknown as {
      rows: Pick<
        MediaRow,
        "tenantId" | "id" | "kind" | "filename" | "contentType" | "folderId" | "storage" | "storageKey"
      >[];
    };
    const byTenant = new Map<string, typeof result.rows>();
    for (const row of result.rows) byTenant.set(row.tenantId, [...(byTenant.get(row.tenantId) ?? []), row]);
    for (const [tenantId, rows] of byTenant) {
      await emitEvents(
        tx,
        tenantId,
        rows.map((row) => ({
          type: "media_failed" as const,
          data: {
            mediaId: row.id,
            kind: row.kind,
            filename: row.filename,
            contentType: row.contentType,
            folderId: row.folderId,
            error: "upload_expired",
          },
          actor: { type: "system" as const },
        })),
      );
    }
    return result.rows;
  });
  await removeBytes(deps, expired);
  return expired.length;
}
