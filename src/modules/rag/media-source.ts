/**
 * Knowledge-base documents from the institution's files (`sourceType: "media"`): a PDF or a plain-text file. The
 * request only checks the file (of the tenant, ready, of a type that has text, within the byte limit); its text is
 * extracted by the indexing job, on a worker thread (extract-task.js on a pool of src/platform/workers), bounded on
 * every side: the bytes read (MEDIA_LIMITS.maxBytes), the pages, the characters extracted, the time (the pool ends
 * the thread past `timeoutMs`) and the thread's heap. Whatever the file, the document ends `failed` with a code.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Config } from "../../config/index.js";
import type { Executor } from "../../db/client.js";
import { media } from "../../db/schema/index.js";
import { AppError, type DetailKey } from "../../platform/errors/app-error.js";
import { TaskTimeoutError, WorkerPool } from "../../platform/workers/pool.js";
import { storesFor } from "../media/storage/index.js";

/** The content types whose text is indexed, and how it is read. */
export const MEDIA_SOURCE_TYPES: Readonly<Record<string, "pdf" | "text">> = {
  "application/pdf": "pdf",
  "text/plain": "text",
  "text/csv": "text",
  "text/markdown": "text",
};

export const MEDIA_LIMITS = {
  /** A larger file is refused when it is added (and never read past this when indexed). */
  maxBytes: 10 * 1024 * 1024,
  maxPages: 500,
  /** Characters of text extracted: enough for a 2 MB text file or a long book. */
  maxChars: 2 * 1024 * 1024,
  /** Extraction time of one document, after which it fails with `extraction_timeout`. */
  timeoutMs: 20_000,
} as const;

/** The codes a media document fails with, at the start of its `error`. */
const FAILURES: Readonly<Record<string, string>> = {
  media_deleted: "the file was deleted or is no longer ready",
  media_not_indexable: "the file's type has no text to index",
  media_too_large: `the file is larger than ${MEDIA_LIMITS.maxBytes} bytes`,
  pdf_unreadable: "the PDF is damaged or not a PDF",
  pdf_encrypted: "the PDF is protected by a password",
  too_many_pages: `the PDF has more than ${MEDIA_LIMITS.maxPages} pages`,
  text_too_long: `the text is longer than ${MEDIA_LIMITS.maxChars} characters`,
  extraction_timeout: `the text took longer than ${MEDIA_LIMITS.timeoutMs / 1000} s to extract`,
  extraction_failed: "the text could not be extracted (the file needs more memory than a document may use)",
};
const failure = (code: string) => ({ error: `${code}: ${FAILURES[code] ?? code}` });

// One thread: extraction runs in the worker process beside other jobs, and a PDF may take a few hundred MB.
const pool = new WorkerPool({
  module: new URL("./extract-task.js", import.meta.url),
  size: 1,
  maxQueue: 64,
  timeoutMs: MEDIA_LIMITS.timeoutMs,
  resourceLimits: { maxOldGenerationSizeMb: 512 },
});

export interface MediaSource {
  id: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
  status: string;
  storage: string;
  storageKey: string;
}

const columns = {
  id: media.id,
  filename: media.filename,
  contentType: media.contentType,
  sizeBytes: media.sizeBytes,
  status: media.status,
  storage: media.storage,
  storageKey: media.storageKey,
};

/**
 * The tenant's files of these ids, share-locked until the caller's transaction ends (none is deleted between the
 * check and the documents' insert); another institution's id is simply absent.
 */
export async function lockMediaSources(
  tx: Executor,
  tenantId: string,
  ids: string[],
): Promise<MediaSource[]> {
  if (ids.length === 0) return [];
  return tx
    .select(columns)
    .from(media)
    .where(and(eq(media.tenantId, tenantId), inArray(media.id, ids)))
    .for("share");
}

/** Why a file cannot be a document (unknown, not ready, no text, too large), or undefined when it can. */
export function mediaProblem(
  file: MediaSource | undefined,
  id: string,
  field: string,
): DetailKey | undefined {
  if (file === undefined) return { field, key: "field.unknown_media", params: { id } };
  if (file.status !== "ready") return { field, key: "conflict.media_not_ready", params: { id } };
  if (MEDIA_SOURCE_TYPES[file.contentType] === undefined)
    return { field, key: "field.media_not_indexable", params: { id, contentType: file.contentType } };
  if (file.sizeBytes > MEDIA_LIMITS.maxBytes)
    return { field, key: "field.media_too_large", params: { id, max: MEDIA_LIMITS.maxBytes } };
  return undefined;
}

/** The file's bytes, at most `maxBytes` (undefined past them). */
async function readBounded(config: Config, file: MediaSource): Promise<Uint8Array | undefined> {
  const stream = await storesFor(config.media).of(file.storage).read(file.storageKey);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MEDIA_LIMITS.maxBytes) {
      stream.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

export type Extracted = { text: string; pageStarts: number[] | null } | { error: string; text?: undefined };

/** The text of a media document, with where each PDF page starts in it, or the coded reason there is none. */
export async function mediaText(
  db: Executor,
  config: Config,
  tenantId: string,
  id: string,
): Promise<Extracted> {
  const [file] = await db
    .select(columns)
    .from(media)
    .where(and(eq(media.tenantId, tenantId), eq(media.id, id)));
  if (file === undefined || file.status !== "ready") return failure("media_deleted");
  const reader = MEDIA_SOURCE_TYPES[file.contentType];
  if (reader === undefined) return failure("media_not_indexable");
  if (file.sizeBytes > MEDIA_LIMITS.maxBytes) return failure("media_too_large");
  const bytes = await readBounded(config, file);
  if (bytes === undefined) return failure("media_too_large");
  const limits = { maxPages: MEDIA_LIMITS.maxPages, maxChars: MEDIA_LIMITS.maxChars };
  try {
    const out = await pool.run<{ text?: string; pageStarts?: number[] | null; error?: string }>(
      reader === "pdf" ? "extractPdf" : "decodeText",
      bytes,
      limits,
    );
    if (out.error !== undefined || out.text === undefined) return failure(out.error ?? "extraction_failed");
    return { text: out.text, pageStarts: out.pageStarts ?? null };
  } catch (error) {
    if (error instanceof TaskTimeoutError) return failure("extraction_timeout");
    // A full queue is the job's to retry; anything else (the thread out of its heap, or gone) is this file's.
    if (error instanceof AppError) throw error;
    return failure("extraction_failed");
  }
}

/** The 1-based page a chunk starting at `offset` is on, by the pages' starts (ascending), or null without pages. */
export function pageAt(pageStarts: readonly number[] | null, offset: number): number | null {
  if (pageStarts === null || pageStarts.length === 0) return null;
  let lo = 0;
  let hi = pageStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((pageStarts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
