/** A file as the API answers it: its row as a record, with a short-lived download URL once it is ready. */
import type { Config } from "../../config/index.js";
import type { Executor } from "../../db/client.js";
import type { MediaKind } from "./content-types.js";
import type { MediaRow } from "./repo.js";
import type { MediaErrorCode, MediaRecord, MediaStatus } from "./schemas.js";
import { storesFor } from "./storage/index.js";

/** What the media service works with: the database and the media configuration (stores, limits, keys). */
export interface MediaDeps {
  db: Executor;
  config: Config;
  /** Logs what failed after a commit (a file left behind in the store), without failing the request. */
  warn?: (message: string, err: unknown) => void;
}

export function toRecord(row: MediaRow, url?: { url: string; expiresAt: string }): MediaRecord {
  return {
    id: row.id,
    kind: row.kind as MediaKind,
    filename: row.filename,
    contentType: row.contentType,
    sizeBytes: row.sizeBytes,
    checksumSha256: row.checksumSha256,
    status: row.status as MediaStatus,
    folderId: row.folderId,
    error: row.error as MediaErrorCode | null,
    url: url?.url ?? null,
    urlExpiresAt: url?.expiresAt ?? null,
    readyAt: row.readyAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A short-lived download URL of a ready file. */
export async function downloadUrl(
  deps: MediaDeps,
  row: MediaRow,
  origin: string,
): Promise<{ url: string; expiresAt: string }> {
  const expiresAt = new Date(Date.now() + deps.config.media.downloadUrlTtlSeconds * 1000);
  const store = storesFor(deps.config.media).of(row.storage);
  const url = await store.downloadUrl(
    { tenantId: row.tenantId, mediaId: row.id, key: row.storageKey },
    { filename: row.filename, contentType: row.contentType },
    expiresAt,
    origin,
  );
  return { url, expiresAt: expiresAt.toISOString() };
}

/** The record as `GET /media/:id` answers it: with a download URL when the file is ready. */
export async function withUrl(deps: MediaDeps, row: MediaRow, origin: string): Promise<MediaRecord> {
  return toRecord(row, row.status === "ready" ? await downloadUrl(deps, row, origin) : undefined);
}
