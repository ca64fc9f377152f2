import { randomUUID } from "node:crypto";
import type { Config } from "../../config/index.js";
import { isPlan } from "../../config/plans.js";
import type { Executor } from "../../db/client.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { megabytes } from "../../platform/i18n/units.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import { sourceDeleted } from "../rag/reindex.js";
import { assertMayShare } from "./audience.js";
import { kindOf, type MediaKind } from "./content-types.js";
import { type MediaDeps, toRecord, withUrl } from "./media-record.js";
import type { MediaRow } from "./repo.js";
import * as repo from "./repo.js";
import type { CreateUploadInput, ListMediaQueryType, MediaRecord, UpdateMediaInput } from "./schemas.js";
import { storesFor } from "./storage/index.js";
import type { UploadTarget } from "./storage/store.js";

// Other modules (the drive) and the routes reach media through this file: what they use of media-record.ts is
// exported here too.
export { type MediaDeps, toRecord, withUrl } from "./media-record.js";

function storageLimit(config: Config, plan: string): number | undefined {
  return isPlan(plan) ? config.media.storageLimits[plan] : undefined;
}

/** The tenant's storage: bytes in use (ready files and pending reservations) and the plan's limit. */
export async function storageUsage(
  deps: MediaDeps,
  tenantId: string,
): Promise<{ usedBytes: number; limitBytes: number; plan: string }> {
  const { used, plan } = await repo.readStorage(deps.db, tenantId);
  return { usedBytes: used, limitBytes: storageLimit(deps.config, plan) ?? 0, plan };
}

/**
 * A file going into a drive folder (`folderId`, if any): the folder must exist (400) and the actor may share the
 * file with its audience (403, see audience.ts). `from`: the file's folder now, undefined for a new file.
 */
async function assertFolder(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  folderId: string | null | undefined,
  from?: string | null,
): Promise<void> {
  if (folderId === undefined || folderId === null) return;
  if (from !== undefined && from !== null && folderId.toLowerCase() === from) return;
  const audience = await repo.lockFolder(tx, tenantId, folderId);
  if (audience === undefined) throw validationError("folderId", "field.unknown_folder", { id: folderId });
  await assertMayShare(tx, tenantId, actor, from, audience);
}

/**
 * Step 1 of 3: reserves the declared size against the plan's storage and answers where to send the bytes. The
 * tenant's storage counter is locked before it is read and stays locked until the insert commits (the trigger
 * adds the new file to it), so concurrent reservations are counted one after another and never pass the limit.
 */
export async function createUpload(
  deps: MediaDeps,
  tenantId: string,
  actor: Actor,
  input: CreateUploadInput,
  origin: string,
): Promise<{ media: MediaRecord; upload: UploadTarget }> {
  const { media: config } = deps.config;
  if (input.sizeBytes > config.maxUploadBytes) {
    const params = { max: config.maxUploadBytes, maxMb: megabytes(config.maxUploadBytes) };
    throw new AppError("payload_too_large", {
      messageKey: "payload_too_large.max_upload",
      params,
      details: [{ field: "sizeBytes", key: "payload_too_large.max_upload", params }],
    });
  }
  const store = storesFor(config).current;
  const id = randomUUID();
  const key = `${tenantId}/${id}`;
  const expiresAt = new Date(Date.now() + config.uploadUrlTtlSeconds * 1000);
  const row = await deps.db.transaction(async (tx) => {
    await assertFolder(tx, tenantId, actor, input.folderId);
    const { used, plan } = await repo.lockStorage(tx, tenantId);
    const limit = storageLimit(deps.config, plan) ?? 0;
    if (used + input.sizeBytes > limit) {
      const available = Math.max(0, limit - used);
      const params = {
        needed: input.sizeBytes,
        neededMb: megabytes(input.sizeBytes),
        available,
        availableMb: megabytes(available),
      };
      throw new AppError("payload_too_large", {
        messageKey: "payload_too_large.storage_quota",
        params,
        details: [{ field: "sizeBytes", key: "payload_too_large.storage_quota", params }],
      });
    }
    return repo.insertMedia(tx, {
      tenantId,
      id,
      kind: kindOf(input.contentType) as MediaKind,
      filename: input.filename.trim(),
      contentType: input.contentType,
      sizeBytes: input.sizeBytes,
      checksumSha256: input.checksumSha256?.toLowerCase() ?? null,
      storage: store.name,
      storageKey: key,
      folderId: input.folderId ?? null,
      uploadExpiresAt: expiresAt.toISOString(),
      createdBy: eventActorOf(actor),
    });
  });
  // Signing is local computation for both stores (no network), done after the commit.
  const upload = await store.uploadTarget(
    { tenantId, mediaId: id, key },
    { contentType: input.contentType, sizeBytes: input.sizeBytes },
    expiresAt,
    origin,
  );
  return { media: toRecord(row), upload };
}

export async function getMedia(
  deps: MediaDeps,
  tenantId: string,
  id: string,
  origin: string,
): Promise<MediaRecord> {
  const row = await repo.findMedia(deps.db, tenantId, id);
  if (row === undefined) throw notFound();
  return withUrl(deps, row, origin);
}

export async function listMedia(deps: MediaDeps, tenantId: string, query: ListMediaQueryType) {
  const window = pageWindow(query);
  const filter = {
    kind: query.kind,
    status: query.status,
    folderId: query.folderId?.toLowerCase(),
    search: query.search,
  };
  const [rows, total] = await Promise.all([
    repo.listMedia(deps.db, tenantId, filter, query.sort ?? "-createdAt", window),
    repo.countMedia(deps.db, tenantId, filter),
  ]);
  return cappedPageEnvelope(
    rows.map((row) => toRecord(row)),
    total,
    window,
  );
}

export async function updateMedia(
  deps: MediaDeps,
  tenantId: string,
  actor: Actor,
  id: string,
  input: UpdateMediaInput,
  origin: string,
): Promise<MediaRecord> {
  const row = await deps.db.transaction(async (tx) => {
    const current = await repo.lockMedia(tx, tenantId, id);
    if (current === undefined) throw notFound();
    // The answer carries a download URL: a file this process cannot reach is 503 before anything changes.
    assertStoreReachable(deps, [current]);
    await assertFolder(tx, tenantId, actor, input.folderId, current.folderId);
    return repo.updateMedia(tx, tenantId, id, {
      ...(input.filename === undefined ? {} : { filename: input.filename.trim() }),
      ...(input.folderId === undefined ? {} : { folderId: input.folderId }),
    });
  });
  return withUrl(deps, row as MediaRow, origin);
}

/** 503 `storage_unavailable` when any of these files is in a store this process is not configured for. */
export function assertStoreReachable(deps: MediaDeps, rows: readonly Pick<MediaRow, "storage">[]): void {
  const stores = storesFor(deps.config.media);
  for (const row of rows) stores.of(row.storage);
}

/** Removes stored bytes after the transaction that forgot them committed; a failure is logged, not raised. */
export async function removeBytes(
  deps: MediaDeps,
  rows: readonly Pick<MediaRow, "tenantId" | "id" | "storage" | "storageKey">[],
): Promise<void> {
  const stores = storesFor(deps.config.media);
  await Promise.all(
    rows.map(async (row) => {
      try {
        await stores.of(row.storage).remove({ tenantId: row.tenantId, mediaId: row.id, key: row.storageKey });
      } catch (err) {
        deps.warn?.(`could not remove the bytes of media ${row.id}`, err);
      }
    }),
  );
}

/**
 * Deletes a file. A lesson whose `content.mediaId` names it makes this 409 unless `force` (the lesson then keeps
 * an id that resolves to nothing, as a deleted course's lessons go with it). The row is locked first, so a lesson
 * being pointed at it (which share-locks it, see `assertUsableMedia`) waits or is waited for.
 */
export async function deleteMedia(
  deps: MediaDeps,
  tenantId: string,
  id: string,
  force: boolean,
): Promise<void> {
  const row = await deps.db.transaction(async (tx) => {
    const locked = await repo.lockMedia(tx, tenantId, id);
    if (locked === undefined) throw notFound();
    // Its bytes could not be removed by this process (503): the row stays, so nothing is left behind unnamed.
    assertStoreReachable(deps, [locked]);
    if (!force) {
      const lessons = await repo.countLessonsUsing(tx, tenantId, [id]);
      if (lessons > 0)
        throw new AppError("conflict", { messageKey: "conflict.media_in_use", params: { lessons } });
    }
    await sourceDeleted(tx, tenantId, { mediaId: id });
    await repo.deleteMedia(tx, tenantId, id);
    return locked;
  });
  await removeBytes(deps, [row]);
}

/**
 * For services that point at a file (lessons, themes): the file must exist in the tenant, be ready and, when
 * `kind` is given, be of that kind (as its bytes showed at completion). It is share-locked until the caller's
 * transaction ends, so it cannot be deleted between this check and the caller's write.
 */
export async function assertUsableMedia(
  tx: Executor,
  tenantId: string,
  id: string,
  field: string,
  kind?: MediaKind,
): Promise<void> {
  const row = await repo.lockMedia(tx, tenantId, id, "share");
  if (row === undefined) throw validationError(field, "field.unknown_media", { id });
  if (row.status !== "ready") throw validationError(field, "conflict.media_not_ready", { id });
  if (kind !== undefined && row.kind !== kind) throw validationError(field, "field.media_kind", { id, kind });
}

/** How many lessons name any of these files (`content.mediaId`), for callers deleting files in bulk (drive). */
export const countLessonsUsing = repo.countLessonsUsing;

/** Deletes file rows inside the caller's transaction; the caller removes their bytes after it commits. */
export async function deleteRows(tx: Executor, tenantId: string, ids: readonly string[]): Promise<void> {
  await repo.deleteMany(tx, tenantId, ids);
}

/** A file of the tenant, or undefined (drive reads files through this). */
export const findRow = repo.findMedia;
export const lockRow = repo.lockMedia;

/** Changes a file's folder or name inside the caller's transaction (the caller locked and checked it). */
export async function moveRow(
  tx: Executor,
  tenantId: string,
  id: string,
  changes: { folderId?: string | null; filename?: string },
): Promise<MediaRow> {
  return (await repo.updateMedia(tx, tenantId, id, changes)) as MediaRow;
}

/** For the drive: the files of a folder (`null`: in no folder), counted and paged by name. */
export const listInFolder = repo.listInFolder;
export const lockInFolders = repo.lockInFolders;

export {
  localObjects,
  objectTokenValid,
  objectUrl,
  removeObject,
  type StoredObject,
  writeObject,
} from "./objects.js";
