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
   * Moves what the upload URL received into `key`, where it is verified and then served, if anything arrived
   * since the last call. On S3 the presigned PUT stays valid until it expires, so it writes to a staging key that
   * is never served: a second PUT after completion cannot replace verified bytes. The local store writes in place
   * (its upload route takes one body only), so this does nothing there.
   */
  promote(key: string): Promise<void>;
  /** Removes the bytes (and anything staged for them); a key with nothing stored is not an error. */
  remove(key: string): Promise<void>;
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
