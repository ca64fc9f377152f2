import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { link, mkdir, mkdtemp, open, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { signToken } from "../tokens.js";
import type { MediaStore, StoredRef, UploadTarget } from "./store.js";

/** The body sent to the upload route was longer than the size declared for the file. */
export class TooLarge extends Error {}

/** Another body was already stored under the key: the first one to be whole stays, this one was dropped. */
export class AlreadyStored extends Error {}

/** Keys are `<tenantId>/<mediaId>`: two UUIDs, so no key can climb out of the store's folder. */
const KEY = /^[0-9a-f-]{36}\/[0-9a-f-]{36}$/;

/**
 * Files on the local disk under `MEDIA_DIR` (`DATA_DIR/media`): `objects/<tenant>/<media>`, written through
 * `tmp/` and linked into place, so a file is either absent or whole, and once there is never replaced. Uploads and downloads go through this
 * API's own routes, authorised by HMAC tokens in their URLs (see tokens.ts).
 */
export class LocalStore implements MediaStore {
  readonly name = "local" as const;
  private root: Promise<string> | undefined;

  constructor(
    private readonly dir: string | undefined,
    private readonly signingKey: Buffer,
  ) {}

  /** The folder, created at first use; without `MEDIA_DIR` (an in-memory database) a temporary one. */
  private base(): Promise<string> {
    this.root ??= (async () => {
      const dir = this.dir ?? (await mkdtemp(join(tmpdir(), "aula-media-")));
      await mkdir(join(dir, "tmp"), { recursive: true });
      await mkdir(join(dir, "objects"), { recursive: true });
      return dir;
    })();
    return this.root;
  }

  private async path(key: string): Promise<string> {
    if (!KEY.test(key)) throw new Error("malformed media key");
    return join(await this.base(), "objects", key);
  }

  async uploadTarget(
    ref: StoredRef,
    file: { contentType: string; sizeBytes: number },
    expiresAt: Date,
    origin: string,
  ): Promise<UploadTarget> {
    const token = signToken(this.signingKey, "upload", ref.tenantId, ref.mediaId, expiresAt);
    return {
      url: `${origin}/api/media/${ref.mediaId}/content?token=${token}`,
      method: "PUT",
      headers: { "Content-Type": file.contentType },
      expiresAt: expiresAt.toISOString(),
    };
  }

  async downloadUrl(ref: StoredRef, _file: unknown, expiresAt: Date, origin: string): Promise<string> {
    const token = signToken(this.signingKey, "download", ref.tenantId, ref.mediaId, expiresAt);
    return `${origin}/api/media/${ref.mediaId}/download?token=${token}`;
  }

  /**
   * Streams `body` to a temporary file, hashing as it goes, and links it into place once whole. More than
   * `maxBytes` stops the copy at once (TooLarge) and leaves nothing behind; memory stays at one chunk.
   * The link fails if the key already holds a file (AlreadyStored): of two bodies sent at once, the first to be
   * whole stays and the other is dropped, so the SHA-256 answered is always that of the bytes kept (a rename
   * would let the last body replace the first after the first's hash was recorded).
   */
  async receive(key: string, body: Readable, maxBytes: number): Promise<{ bytes: number; sha256: string }> {
    const target = await this.path(key);
    const temporary = join(await this.base(), "tmp", randomUUID());
    const hash = createHash("sha256");
    let bytes = 0;
    const counter = async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        bytes += chunk.length;
        if (bytes > maxBytes) throw new TooLarge();
        hash.update(chunk);
        yield chunk;
      }
    };
    try {
      await pipeline(body, counter, createWriteStream(temporary, { flags: "wx" }));
      await mkdir(dirname(target), { recursive: true });
      await link(temporary, target);
    } catch (err) {
      throw (err as NodeJS.ErrnoException).code === "EEXIST" ? new AlreadyStored() : err;
    } finally {
      await rm(temporary, { force: true });
    }
    return { bytes, sha256: hash.digest("hex") };
  }

  async write(key: string, body: Readable): Promise<number> {
    return (await this.receive(key, body, Number.MAX_SAFE_INTEGER)).bytes;
  }

  async size(key: string): Promise<number | undefined> {
    try {
      return (await stat(await this.path(key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  async head(key: string, bytes: number): Promise<Buffer> {
    const handle = await open(await this.path(key), "r");
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async read(key: string): Promise<Readable> {
    return createReadStream(await this.path(key));
  }

  /** A byte range of the file (inclusive `end`), for the download route. */
  async readRange(key: string, start: number, end: number): Promise<Readable> {
    return createReadStream(await this.path(key), { start, end });
  }

  verificationKey(ref: StoredRef): string {
    return ref.key;
  }

  /** The upload route wrote the bytes in place, once: there is nothing to fix, only to find. */
  async fixUpload(_ref: StoredRef, key: string): Promise<boolean> {
    return (await this.size(key)) !== undefined;
  }

  async dropStaged(): Promise<void> {}

  /** Never called with the file's own key by a losing verification (see complete.ts); removes it otherwise. */
  async dropKey(key: string): Promise<void> {
    await rm(await this.path(key), { force: true });
  }

  async remove(ref: StoredRef): Promise<void> {
    await rm(await this.path(ref.key), { force: true });
  }
}
