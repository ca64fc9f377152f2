import type { Readable } from "node:stream";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { megabytes } from "../../platform/i18n/units.js";
import type { MediaDeps } from "./media-record.js";
import type { MediaRow } from "./repo.js";
import * as repo from "./repo.js";
import { storesFor } from "./storage/index.js";
import { AlreadyStored, TooLarge } from "./storage/local.js";
import { verifyToken } from "./tokens.js";

const refused = () => new AppError("forbidden", { messageKey: "forbidden.media_token" });

/**
 * Step 2 of 3 on the local store: the bytes of a pending upload, authorised by the URL's token, streamed to disk
 * with their SHA-256 computed on the way and cut off past the declared size (413). Only the first complete body
 * is kept: the URL cannot replace a file once its bytes arrived. Two bodies sent at once both pass the first check;
 * the store keeps the first to be whole and refuses the other (409), and only the one it kept records its SHA-256,
 * so the checksum completion compares is that of the bytes that will be served.
 */
export async function receiveUpload(
  deps: MediaDeps,
  tenantId: string,
  id: string,
  token: string,
  declaredLength: number | undefined,
  body: Readable,
): Promise<void> {
  if (!verifyToken(deps.config.media.urlSigningKey, "upload", tenantId, id, token)) throw refused();
  const row = await repo.findMedia(deps.db, tenantId, id);
  if (row === undefined || row.storage !== "local") throw notFound();
  const already = () => new AppError("conflict", { messageKey: "conflict.media_already_uploaded" });
  if (row.status !== "pending_upload" || row.receivedBytes !== null) throw already();
  const tooLarge = () =>
    new AppError("payload_too_large", {
      messageKey: "payload_too_large.upload_size",
      params: { sizeBytes: row.sizeBytes, sizeMb: megabytes(row.sizeBytes) },
    });
  // A Content-Length over the declared size is refused before a byte is read.
  if (declaredLength !== undefined && declaredLength > row.sizeBytes) throw tooLarge();
  const store = storesFor(deps.config.media).local;
  let received: { bytes: number; sha256: string };
  try {
    received = await store.receive(row.storageKey, body, row.sizeBytes);
  } catch (err) {
    if (err instanceof TooLarge) throw tooLarge();
    if (err instanceof AlreadyStored) throw already();
    // The client went away mid-body: nothing was kept, and the answer (if it still listens) is the client's fault.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ERR_STREAM_PREMATURE_CLOSE" || code === "ECONNRESET" || code === "ECONNABORTED") {
      throw new AppError("validation_failed", {
        details: [{ field: "body", key: "field.upload_interrupted" }],
      });
    }
    throw err;
  }
  const updated = await deps.db.transaction(async (tx) => {
    const current = await repo.lockMedia(tx, tenantId, id);
    if (current === undefined || current.status !== "pending_upload" || current.receivedBytes !== null) {
      return undefined;
    }
    return repo.updateMedia(tx, tenantId, id, {
      receivedBytes: received.bytes,
      receivedSha256: received.sha256,
    });
  });
  if (updated === undefined) {
    // The file was completed, failed or deleted while its bytes arrived: the stored bytes are this body's alone
    // (no other could be linked in their place) and no row will name them, so they go.
    await store.dropKey(row.storageKey);
    throw already();
  }
}

/** A ready local file for the download route, when the token was issued for it and has not expired. */
export async function downloadable(
  deps: MediaDeps,
  tenantId: string,
  id: string,
  token: string,
): Promise<MediaRow> {
  if (!verifyToken(deps.config.media.urlSigningKey, "download", tenantId, id, token)) throw refused();
  const row = await repo.findMedia(deps.db, tenantId, id);
  if (row === undefined || row.status !== "ready" || row.storage !== "local") throw notFound();
  return row;
}
