import type { Readable } from "node:stream";

/** Where a file's bytes are: its tenant, id and key in the store. */
export interface StoredRef {
  tenantId: string;
  mediaId: string;
  key: string;
}

export interface UploadTarget {
  url: string;
  method: "PUT";
  /** Headers the client must send with the bytes (the signature covers them). */
  headers: Record<string, string>;
  expiresAt: string;
}

/**
 * One store of file bytes: the local disk or an S3-compatible bucket. Nothing here touches the database; the
 * media service decides what may be stored, and calls these outside its transactions (they are I/O).
 */
export interface MediaStore {
  readonly name: "local" | "s3";
  /** Where the client sends the bytes, valid until `expiresAt`. `origin` is the public origin of this API. */
  uploadTarget(
    ref: StoredRef,
    file: { contentType: string; sizeBytes: number },
    expiresAt: Date,
    origin: string,
  ): Promise<UploadTarget>;
  /** A short-lived URL that answers the bytes, with a safe `Content-Disposition`. */
  downloadUrl(
    ref: StoredRef,
    file: { filename: string; contentType: string },
    expiresAt: Date,
    origin: string,
  ): Promise<string>;
  /** The stored size, or undefined when nothing is stored under the key. */
  size(key: string): Promise<number | undefined>;
  /** The first `bytes` bytes (fewer for a smaller file). */
  head(key: string, bytes: number): Promise<Buffer>;
  /** The whole content, streamed (never buffered): for hashing. */
  read(key: string): Promise<Readable>;
  /**
   * The key a verification of the file reads and, if it passes, serves. On S3 it is new for each verification
   * (`<tenant>/<file>/<verification>`): nothing but that verification ever writes it, so what was verified is what
   * is served. The local store keeps the bytes where its upload route wrote them (that route takes one body only).
   */
  verificationKey(ref: StoredRef, verification: string): string;
  /**
   * Fixes what the upload URL has received so far as the object under `key` (S3: a server-side copy of the staging
   * object, typed `contentType`), and answers whether anything had arrived. A later PUT to the still-valid upload
   * URL writes the staging key only, never `key`.
   */
  fixUpload(ref: StoredRef, key: string, contentType: string): Promise<boolean>;
  /** Removes what the upload URL wrote (S3's staging object), once a verified copy is in place. */
  dropStaged(ref: StoredRef): Promise<void>;
  /** Removes one object a verification made (a losing verification's copy); a key with nothing is not an error. */
  dropKey(key: string): Promise<void>;
  /**
   * Writes an object this service produces itself (a report's file) under `key`, streamed from `body` with memory
   * flat, and answers its size. Never a key of an uploaded file: its keys are new uuids.
   */
  write(key: string, body: Readable, contentType: string): Promise<number>;
  /** Removes the bytes (and anything staged for them); a key with nothing stored is not an error. */
  remove(ref: StoredRef): Promise<void>;
}

/**
 * `attachment; filename="…"; filename*=UTF-8''…` with the name reduced to what no header parser can misread.
 * `extended: false` leaves out the RFC 5987 form: S3-compatible servers differ in how they canonicalise `'` and `*`
 * in a presigned URL's query (s3rver refuses the signature), so presigned downloads carry the ASCII name only.
 */
export function contentDisposition(
  filename: string,
  disposition: "attachment" | "inline",
  extended = true,
): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\;]/g, "_");
  if (!extended) return `${disposition}; filename="${ascii}"`;
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Images, audio, video and PDF display in the browser; anything else downloads. */
export function dispositionFor(contentType: string): "attachment" | "inline" {
  return /^(image|audio|video)\//.test(contentType) || contentType === "application/pdf"
    ? "inline"
    : "attachment";
}
