import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { checkContent, TEXT_SAMPLE_BYTES } from "./content-types.js";
import type { MediaRow } from "./repo.js";
import * as repo from "./repo.js";
import type { MediaErrorCode, MediaRecord } from "./schemas.js";
import { type MediaDeps, removeBytes, toRecord, withUrl } from "./service.js";
import { storesFor } from "./storage/index.js";

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Checks what was stored against what was declared, reading the store only (no transaction is open): the size,
 * the SHA-256 when one was declared, then the content by its magic bytes. Answers the first failure, or undefined.
 * The local store hashed the bytes as they arrived; an S3 object is streamed through the hash here.
 */
async function verify(deps: MediaDeps, row: MediaRow): Promise<MediaErrorCode | undefined> {
  const store = storesFor(deps.config.media).of(row.storage);
  // What is verified is what will be served: the upload is moved into place first (S3), then read back.
  await store.promote(row.storageKey);
  const size = await store.size(row.storageKey);
  if (size === undefined || (row.storage === "local" && row.receivedBytes === null)) {
    throw new AppError("conflict", { messageKey: "conflict.media_not_uploaded" });
  }
  if (size !== row.sizeBytes) return "size_mismatch";
  if (row.checksumSha256 !== null) {
    const actual = row.receivedSha256 ?? (await sha256Of(await store.read(row.storageKey)));
    if (actual !== row.checksumSha256) return "checksum_mismatch";
  }
  const sample = await store.head(row.storageKey, TEXT_SAMPLE_BYTES);
  // Loaded at the first completion: the signature tables are not needed before.
  const { fileTypeFromBuffer } = await import("file-type");
  const sniffed = (await fileTypeFromBuffer(sample))?.mime;
  const mismatch = checkContent(row.contentType, sniffed, sample, sample.length >= size);
  return mismatch?.error;
}

/**
 * Step 3 of 3: verifies the upload and makes the file `ready` (`media_ready`) or `failed` (`media_failed`, its bytes
 * deleted), in one transaction with its event. Completing a ready file again answers it unchanged; a failed one
 * is 409, and so is a file with nothing uploaded yet (it stays pending, so the client can still send the bytes).
 */
export async function completeUpload(
  deps: MediaDeps,
  tenantId: string,
  actor: Actor,
  id: string,
  origin: string,
): Promise<MediaRecord> {
  const row = await repo.findMedia(deps.db, tenantId, id);
  if (row === undefined) throw notFound();
  if (row.status === "ready") return withUrl(deps, row, origin);
  if (row.status === "failed") {
    throw new AppError("conflict", {
      messageKey: "conflict.media_failed",
      params: { error: row.error ?? "" },
    });
  }
  const failure = await verify(deps, row);
  const outcome = await finish(deps, tenantId, actor, id, failure);
  if (outcome.status === "failed") await removeBytes(deps, [outcome]);
  return outcome.status === "ready" ? withUrl(deps, outcome, origin) : toRecord(outcome);
}

/** Records the verdict, unless a concurrent completion recorded one first (then that one is answered). */
async function finish(
  deps: MediaDeps,
  tenantId: string,
  actor: Actor,
  id: string,
  failure: MediaErrorCode | undefined,
): Promise<MediaRow> {
  return deps.db.transaction(async (tx) => {
    const current = await repo.lockMedia(tx, tenantId, id);
    if (current === undefined) throw notFound();
    if (current.status !== "pending_upload") return current;
    return markDone(tx, current, actor, failure);
  });
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
  const common = {
    mediaId: updated.id,
    kind: updated.kind,
    filename: updated.filename,
    contentType: updated.contentType,
    folderId: updated.folderId,
  };
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
