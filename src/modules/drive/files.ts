import type { Executor } from "../../db/client.js";
import type { Principal } from "../../platform/auth/types.js";
import { notFound, validationError } from "../../platform/errors/app-error.js";
import { assertMayShare } from "../media/audience.js";
import * as media from "../media/service.js";
import type { FolderRow } from "./repo.js";
import * as repo from "./repo.js";
import type { DriveFileRecord, PlaceFileInput, UpdateFileInput } from "./schemas.js";

/**
 * Drive files are media placed in a folder (`media.folder_id`): one file, one place. Placing, moving and
 * renaming change the media record; taking a file out of the drive leaves the media as it is. Placing or moving a
 * file shares it with the folder's audience, which the principal needs the right to (media/audience.ts). The
 * answers carry a download URL, so a file in a store this process cannot reach is 503 before anything changes.
 */
type MediaRow = NonNullable<Awaited<ReturnType<typeof media.findRow>>>;

async function toFile(deps: media.MediaDeps, row: MediaRow, origin: string): Promise<DriveFileRecord> {
  const record = await media.withUrl(deps, row, origin);
  return {
    id: row.id,
    name: row.filename,
    folderId: row.folderId,
    kind: record.kind,
    contentType: row.contentType,
    sizeBytes: row.sizeBytes,
    status: record.status,
    url: record.url,
    urlExpiresAt: record.urlExpiresAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function assertFolder(tx: Executor, tenantId: string, folderId: string): Promise<FolderRow> {
  const folder = await repo.findFolder(tx, tenantId, folderId);
  if (folder === undefined) throw validationError("folderId", "field.unknown_folder", { id: folderId });
  return folder;
}

/** The file goes into `folderId`: the folder must exist, and the principal may share the file with its audience. */
async function assertMayPlace(
  tx: Executor,
  tenantId: string,
  principal: Principal,
  file: MediaRow,
  folderId: string,
): Promise<void> {
  const folder = await assertFolder(tx, tenantId, folderId);
  if (file.folderId === folderId) return;
  await assertMayShare(tx, tenantId, principal, file.folderId, folder);
}

export async function placeFile(
  deps: media.MediaDeps,
  tenantId: string,
  principal: Principal,
  input: PlaceFileInput,
  origin: string,
) {
  const row = await deps.db.transaction(async (tx) => {
    const file = await media.lockRow(tx, tenantId, input.mediaId.toLowerCase());
    if (file === undefined) throw validationError("mediaId", "field.unknown_media", { id: input.mediaId });
    media.assertStoreReachable(deps, [file]);
    await assertMayPlace(tx, tenantId, principal, file, input.folderId.toLowerCase());
    return media.moveRow(tx, tenantId, file.id, { folderId: input.folderId.toLowerCase() });
  });
  return toFile(deps, row, origin);
}

/** A file in the drive; a student reads it only in a folder shared with it, and only once ready. */
export async function getFile(
  deps: media.MediaDeps,
  tenantId: string,
  id: string,
  origin: string,
  readerId?: string,
): Promise<DriveFileRecord> {
  const row = await media.findRow(deps.db, tenantId, id);
  if (row === undefined || row.folderId === null) throw notFound();
  if (readerId !== undefined) {
    const visible = await repo.findFolder(deps.db, tenantId, row.folderId, readerId);
    if (visible === undefined || row.status !== "ready") throw notFound();
  }
  return toFile(deps, row, origin);
}

export async function updateFile(
  deps: media.MediaDeps,
  tenantId: string,
  principal: Principal,
  id: string,
  input: UpdateFileInput,
  origin: string,
) {
  const row = await deps.db.transaction(async (tx) => {
    const file = await media.lockRow(tx, tenantId, id);
    if (file === undefined || file.folderId === null) throw notFound();
    media.assertStoreReachable(deps, [file]);
    if (input.folderId !== undefined)
      await assertMayPlace(tx, tenantId, principal, file, input.folderId.toLowerCase());
    return media.moveRow(tx, tenantId, id, {
      ...(input.folderId === undefined ? {} : { folderId: input.folderId.toLowerCase() }),
      ...(input.name === undefined ? {} : { filename: input.name.trim() }),
    });
  });
  return toFile(deps, row, origin);
}

/** Takes a file out of the drive (the media stays; `DELETE /media/:id` deletes it). */
export async function removeFile(deps: media.MediaDeps, tenantId: string, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const file = await media.lockRow(tx, tenantId, id);
    if (file === undefined || file.folderId === null) throw notFound();
    await media.moveRow(tx, tenantId, id, { folderId: null });
  });
}
