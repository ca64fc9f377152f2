import { createHash, randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { checkContent, TEXT_SAMPLE_BYTES } from "./content-types.js";
import { type MediaDeps, toRecord, withUrl } from "./media-record.js";
import type { MediaRow } from "./repo.js";
import * as repo from "./repo.js";
import type { MediaErrorCode, MediaRecord } from "./schemas.js";
import { removeBytes } from "./service.js";
import { storesFor } from "./storage/index.js";
import type { MediaStore, StoredRef } from "./storage/store.js";

/**
 * A verification not settled after this long is taken to have died with its process, and another completion may
 * claim the file. Copying and hashing the largest file S3 copies in one call (5 GiB) takes a few minutes.
 */
export const VERIFICATION_STALE_SECONDS = 15 * 60;

/** What the upload URL wrote nothing (yet) for: the file goes back to `pending_upload`. */
const NOTHING = "nothing_uploaded" as const;

/** The key a file was created with; the local store keeps its bytes there, S3 its staging key derives from it. */
const baseKey = (row: Pick<MediaRow, "tenantId" | "id">) => `${row.tenantId}/${row.id}`;
const refOf = (row: MediaRow): StoredRef => ({ tenantId: row.tenantId, mediaId: row.id, key: baseKey(row) });

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Checks what was stored against what was declared, reading the store only (no transaction is open): the size,
 * the SHA-256 when one was declared, then the content by its magic bytes. It reads the key of this verification
 * (`row.storageKey`, which only this verification writes), so what it passes is exactly what will be served.
 * Answers the first failure, undefined when all pass, or NOTHING when no bytes arrived.
 */
async function verify(
  store: MediaStore,
  row: MediaRow,
): Promise<MediaErrorCode | undefined | typeof NOTHING> {
  if (row.storage === "local" && row.receivedBytes === null) return NOTHING;
  if (!(await store.fixUpload(refOf(row), row.storageKey, row.contentType))) return NOTHING;
  const size = await store.size(row.storageKey);
  if (size === undefined) return NOTHING;
  if (size !== row.sizeBytes) return "size_mismatch";
  if (row.checksumSha256 !== null) {
    const actual =
      row.storage === "local" && row.receivedSha256 !== null
        ? row.receivedSha256
        : await sha256Of(await store.read(row.storageKey));
    if (actual !== row.checksumSha256) return "checksum_mismatch";
  }
  const sample = await store.head(row.storageKey, TEXT_SAMPLE_BYTES);
  // Loaded at the first completion: the signature tables are not needed before.
  const { fileTypeFromBuffer } = await import("file-type");
  const sniffed = (await fileTypeFromBuffer(sample))?.mime;
  const mismatch = checkContent(row.contentType, sniffed, sample, sample.length >= size);
  return mismatch?.error;
}

type Claim = { ready: MediaRow } | { claimed: MediaRow; abandoned: string | undefined };

/**
 * Claims the file for one verification in a short transaction of its own (the verification itself is network
 * work, done outside any transaction): `pending_upload` → `verifying`, with `storage_key` set to a key only this
 * verification writes. A file another completion is verifying is 409, unless that verification is stale.
 */
async function claim(deps: MediaDeps, store: MediaStore, tenantId: string, id: string): Promise<Claim> {
  return deps.db.transaction(async (tx) => {
    const current = await repo.lockMedia(tx, tenantId, id);
    if (current === undefined) throw notFound();
    if (current.status === "ready") return { ready: current };
    if (current.status === "failed") {
      throw new AppError("conflict", {
        messageKey: "conflict.media_failed",
        params: { error: current.error ?? "" },
      });
    }
    const stale = Date.parse(current.updatedAt) < Date.now() - VERIFICATION_STALE_SECONDS * 1000;
    if (current.status === "verifying" && !stale) {
      throw new AppError("conflict", { messageKey: "conflict.media_verifying" });
    }
    const key = store.verificationKey(refOf(current), randomUUID());
    const claimed = await repo.updateMedia(tx, tenantId, id, { status: "verifying", storageKey: key });
    const abandoned = current.status === "verifying" ? current.storageKey : undefined;
    return { claimed: claimed as MediaRow, abandoned };
  });
}

/** Whether the row is still this verification's: nothing settled, deleted or re-claimed it meanwhile. */
const stillOurs = (current: MediaRow | undefined, claimed: MediaRow): current is MediaRow =>
  current !== undefined && current.status === "verifying" && current.storageKey === claimed.storageKey;

/** Gives the claim back (nothing was uploaded, or the store failed): the file is pending again. */
async function release(deps: MediaDeps, claimed: MediaRow): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const current = await repo.lockMedia(tx, claimed.tenantId, claimed.id);
    if (!stillOurs(current, claimed)) return false;
    await repo.updateMedia(tx, claimed.tenantId, claimed.id, {
      status: "pending_upload",
      storageKey: baseKey(claimed),
    });
    return true;
  });
}

/** Records the verdict if the claim still holds, in one transaction with its event; undefined if it was lost. */
async function settle(
  deps: MediaDeps,
  actor: Actor,
  claimed: MediaRow,
  failure: MediaErrorCode | undefined,
): Promise<MediaRow | undefined> {
  return deps.db.transaction(async (tx) => {
    const current = await repo.lockMedia(tx, claimed.tenantId, claimed.id);
    if (!stillOurs(current, claimed)) return undefined;
    return markDone(tx, current, actor, failure);
  });
}

/** Removes a copy this verification made and no row names any more; the file's own key is never one. */
async function dropCopy(deps: MediaDeps, store: MediaStore, row: MediaRow, key: string): Promise<void> {
  if (key === baseKey(row)) return;
  try {
    await store.dropKey(key);
  } catch (err) {
    deps.warn?.(`could not remove a verification copy of media ${row.id}`, err);
  }
}

const lost = () => new AppError("conflict", { messageKey: "conflict.media_completion_lost" });

/**
 * Step 3 of 3: verifies the upload and makes the file `ready` (`media_ready`) or `failed` (`media_failed`, its bytes
 * deleted). One completion at a time: it claims the file (`verifying`), verifies a copy of the upload that only it
 * wrote, and settles the verdict only if its claim still holds; a concurrent completion, or one that lost its
 * claim meanwhile, is 409 and leaves nothing behind. Completing a ready file again answers it unchanged; a failed
 * one is 409, and so is a file with nothing uploaded yet (it stays pending, so the client can still send the bytes).
 */
export async function completeUpload(
  deps: MediaDeps,
  tenantId: string,
  actor: Actor,
  id: string,
  origin: string,
): Promise<MediaRecord> {
  const found = await repo.findMedia(deps.db, tenantId, id);
  if (found === undefined) throw notFound();
  if (found.status === "ready") return withUrl(deps, found, origin);
  // 503 before anything is claimed when this process cannot reach the file's store.
  const store = storesFor(deps.config.media).of(found.storage);
  const claimed = await claim(deps, store, tenantId, id);
  if ("ready" in claimed) return withUrl(deps, claimed.ready, origin);
  const row = claimed.claimed;
  if (claimed.abandoned !== undefined) await dropCopy(deps, store, row, claimed.abandoned);

  let failure: Awaited<ReturnType<typeof verify>>;
  try {
    failure = await verify(store, row);
  } catch (err) {
    await release(deps, row);
    await dropCopy(deps, store, row, row.storageKey);
    throw err;
  }
  if (failure === NOTHING) {
    if (await release(deps, row)) {
      throw new AppError("conflict", { messageKey: "conflict.media_not_uploaded" });
    }
    throw lost();
  }
  const settled = await settle(deps, actor, row, failure);
  if (settled === undefined) {
    await dropCopy(deps, store, row, row.storageKey);
    throw lost();
  }
  if (settled.status === "failed") {
    await removeBytes(deps, [settled]);
    return toRecord(settled);
  }
  try {
    await store.dropStaged(refOf(settled));
  } catch (err) {
    deps.warn?.(`could not remove the staged upload of media ${settled.id}`, err);
  }
  return withUrl(deps, settled, origin);
}

/**
 * The ids, names and object every media event carries: the file as `GET /media/:id` answers it, without a
 * download link (a signed link is a credential, and it would expire before a retried delivery).
 */
export function mediaAbout(row: MediaRow) {
  return {
    mediaId: row.id,
    kind: row.kind,
    filename: row.filename,
    contentType: row.contentType,
    folderId: row.folderId,
    media: toRecord(row),
  };
}

/** Sets the file `ready` or `failed` and emits its event, inside the caller's transaction. */
export async function markDone(
  tx: Parameters<typeof repo.updateMedia>[0],
  current: MediaRow,
  actor: Actor,
  failure: MediaErrorCode | undefined,
): Promise<MediaRow> {
  const now = new Date().toISOString();
  const updated = (await repo.updateMedia(
    tx,
    current.tenantId,
    current.id,
    failure === undefined
      ? { status: "ready", readyAt: now, error: null }
      : { status: "failed", error: failure },
  )) as MediaRow;
  const common = mediaAbout(updated);
  if (failure === undefined) {
    await emitEvent(tx, {
      tenantId: updated.tenantId,
      type: "media_ready",
      actor: eventActorOf(actor),
      data: { ...common, sizeBytes: updated.sizeBytes, readyAt: updated.readyAt ?? now },
    });
  } else {
    await emitEvent(tx, {
      tenantId: updated.tenantId,
      type: "media_failed",
      actor: eventActorOf(actor),
      data: { ...common, error: failure },
    });
  }
  return updated;
}
