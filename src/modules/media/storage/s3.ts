import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import type { S3Config } from "../../../config/media.js";
import {
  contentDisposition,
  dispositionFor,
  type MediaStore,
  type StoredRef,
  type UploadTarget,
} from "./store.js";

type Sdk = typeof import("@aws-sdk/client-s3");
type Presigner = typeof import("@aws-sdk/s3-request-presigner");
interface Loaded {
  sdk: Sdk;
  getSignedUrl: Presigner["getSignedUrl"];
  client: S3Client;
}

const secondsUntil = (at: Date) => Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000));

/**
 * Any S3-compatible bucket through the AWS SDK. The client uploads and downloads with presigned URLs, so the
 * bytes never pass through this API; the presigned PUT signs `Content-Type` and `Content-Length`, so the store
 * itself refuses a body of another size or type (SignatureDoesNotMatch). The presigned PUT writes a staging key
 * that is never served; each completion copies it to a key of its own, verifies that copy and serves only it. The SDK (about 35 MB of a process's memory) is loaded at the
 * first use, so a deployment on the local disk never carries it.
 */
export class S3Store implements MediaStore {
  readonly name = "s3" as const;
  private loaded: Promise<Loaded> | undefined;

  constructor(private readonly config: S3Config) {}

  private load(): Promise<Loaded> {
    this.loaded ??= (async () => {
      const [sdk, presigner] = await Promise.all([
        import("@aws-sdk/client-s3"),
        import("@aws-sdk/s3-request-presigner"),
      ]);
      const client = new sdk.S3Client({
        region: this.config.region,
        ...(this.config.endpoint === undefined ? {} : { endpoint: this.config.endpoint }),
        forcePathStyle: this.config.forcePathStyle,
        credentials: { accessKeyId: this.config.accessKeyId, secretAccessKey: this.config.secretAccessKey },
        // The SDK would otherwise sign a CRC32 of the empty body into every presigned PUT, which the real body
        // cannot match: checksums only where an operation requires one.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      });
      return { sdk, getSignedUrl: presigner.getSignedUrl, client };
    })();
    return this.loaded;
  }

  private object(key: string): { Bucket: string; Key: string } {
    return {
      Bucket: this.config.bucket,
      Key: this.config.prefix === "" ? key : `${this.config.prefix}/${key}`,
    };
  }

  /** Where the presigned PUT writes: never served, copied to a verification's own key at completion. */
  private staging(ref: { tenantId: string; mediaId: string }): string {
    return `incoming/${ref.tenantId}/${ref.mediaId}`;
  }

  private async missing(err: unknown): Promise<boolean> {
    const { sdk } = await this.load();
    return (
      err instanceof sdk.S3ServiceException &&
      (err.name === "NotFound" || err.name === "NoSuchKey" || err.$metadata.httpStatusCode === 404)
    );
  }

  async uploadTarget(
    ref: StoredRef,
    file: { contentType: string; sizeBytes: number },
    expiresAt: Date,
  ): Promise<UploadTarget> {
    const { sdk, getSignedUrl, client } = await this.load();
    const command = new sdk.PutObjectCommand({
      ...this.object(this.staging(ref)),
      ContentType: file.contentType,
      ContentLength: file.sizeBytes,
    });
    // The presigner signs only `host` (and the length) unless told: `Content-Type` must be signed too, so a PUT of
    // another type is refused by the store rather than stored with a type nobody checked.
    const url = await getSignedUrl(client, command, {
      expiresIn: secondsUntil(expiresAt),
      signableHeaders: new Set(["content-type"]),
    });
    return {
      url,
      method: "PUT",
      headers: { "Content-Type": file.contentType },
      expiresAt: expiresAt.toISOString(),
    };
  }

  async downloadUrl(
    ref: StoredRef,
    file: { filename: string; contentType: string },
    expiresAt: Date,
  ): Promise<string> {
    const { sdk, getSignedUrl, client } = await this.load();
    const command = new sdk.GetObjectCommand({
      ...this.object(ref.key),
      ResponseContentType: file.contentType,
      ResponseContentDisposition: contentDisposition(file.filename, dispositionFor(file.contentType), false),
    });
    return getSignedUrl(client, command, { expiresIn: secondsUntil(expiresAt) });
  }

  /**
   * A PUT needs its length up front, and a stream has none: the body is spooled to a temporary file (memory stays
   * at one chunk), then streamed to the bucket with its size. Objects past 5 GB (S3's single-PUT limit) are refused.
   */
  async write(key: string, body: Readable, contentType: string): Promise<number> {
    const { sdk, client } = await this.load();
    const dir = await mkdtemp(join(tmpdir(), "aula-s3-"));
    const file = join(dir, "body");
    try {
      await pipeline(body, createWriteStream(file));
      const size = (await stat(file)).size;
      await client.send(
        new sdk.PutObjectCommand({
          ...this.object(key),
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: contentType,
        }),
      );
      return size;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async size(key: string): Promise<number | undefined> {
    const { sdk, client } = await this.load();
    try {
      return (await client.send(new sdk.HeadObjectCommand(this.object(key)))).ContentLength;
    } catch (err) {
      if (await this.missing(err)) return undefined;
      throw err;
    }
  }

  async head(key: string, bytes: number): Promise<Buffer> {
    const { sdk, client } = await this.load();
    const object = await client.send(
      new sdk.GetObjectCommand({ ...this.object(key), Range: `bytes=0-${bytes - 1}` }),
    );
    return Buffer.from((await object.Body?.transformToByteArray()) ?? []);
  }

  async read(key: string): Promise<Readable> {
    const { sdk, client } = await this.load();
    return (await client.send(new sdk.GetObjectCommand(this.object(key)))).Body as Readable;
  }

  verificationKey(ref: StoredRef, verification: string): string {
    return `${ref.tenantId}/${ref.mediaId}/${verification}`;
  }

  /**
   * One atomic server-side copy of whatever the staging key holds now: a PUT racing it lands either before (and is
   * what gets verified) or after (and stays in staging). The copy takes the row's type, whatever the PUT said.
   */
  async fixUpload(ref: StoredRef, key: string, contentType: string): Promise<boolean> {
    const { sdk, client } = await this.load();
    const source = this.object(this.staging(ref));
    try {
      await client.send(
        new sdk.CopyObjectCommand({
          ...this.object(key),
          CopySource: `${source.Bucket}/${source.Key.split("/").map(encodeURIComponent).join("/")}`,
          MetadataDirective: "REPLACE",
          ContentType: contentType,
        }),
      );
      return true;
    } catch (err) {
      if (await this.missing(err)) return false;
      throw err;
    }
  }

  async dropStaged(ref: StoredRef): Promise<void> {
    const { sdk, client } = await this.load();
    await client.send(new sdk.DeleteObjectCommand(this.object(this.staging(ref))));
  }

  async dropKey(key: string): Promise<void> {
    const { sdk, client } = await this.load();
    await client.send(new sdk.DeleteObjectCommand(this.object(key)));
  }

  async remove(ref: StoredRef): Promise<void> {
    await this.dropStaged(ref);
    await this.dropKey(ref.key);
  }
}
