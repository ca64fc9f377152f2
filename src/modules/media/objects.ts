/**
 * Objects the service produces itself (report files), kept in the same store as uploads but outside the media
 * table: no quota row, no listing, no upload flow. Their keys are `<tenant>/<new uuid>`, so they can never be an
 * uploaded file's. On S3 the signed URL is a presigned GET; on the local disk a URL of the caller's own route,
 * carrying an HMAC token of purpose `report` that the media download route refuses.
 */
import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { MediaConfig } from "../../config/media.js";
import { storesFor } from "./storage/index.js";
import { signToken, verifyToken } from "./tokens.js";

export interface StoredObject {
  storage: "local" | "s3";
  key: string;
  /** The uuid after the tenant in the key: what a local URL's token is signed for. */
  objectId: string;
  sizeBytes: number;
}

export async function writeObject(
  config: MediaConfig,
  tenantId: string,
  body: Readable,
  contentType: string,
): Promise<StoredObject> {
  const store = storesFor(config).current;
  const objectId = randomUUID();
  const key = `${tenantId}/${objectId}`;
  const sizeBytes = await store.write(key, body, contentType);
  return { storage: store.name, key, objectId, sizeBytes };
}

export async function removeObject(
  config: MediaConfig,
  object: { storage: string; key: string },
): Promise<void> {
  await storesFor(config).of(object.storage).dropKey(object.key);
}

/** A signed URL to the object: S3's presigned GET, or `localPath` (the caller's route) with a token. */
export async function objectUrl(
  config: MediaConfig,
  tenantId: string,
  object: Pick<StoredObject, "storage" | "key" | "objectId">,
  file: { filename: string; contentType: string },
  expiresAt: Date,
  localUrl: string,
): Promise<string> {
  const store = storesFor(config).of(object.storage);
  if (store.name === "s3") {
    return store.downloadUrl({ tenantId, mediaId: object.objectId, key: object.key }, file, expiresAt, "");
  }
  return `${localUrl}?token=${signToken(config.urlSigningKey, "report", tenantId, object.objectId, expiresAt)}`;
}

export function objectTokenValid(
  config: MediaConfig,
  tenantId: string,
  objectId: string,
  token: string,
): boolean {
  return verifyToken(config.urlSigningKey, "report", tenantId, objectId, token);
}

/** The local store's bytes of an object (its size, then a stream or a range of it). */
export function localObjects(config: MediaConfig) {
  return storesFor(config).local;
}
