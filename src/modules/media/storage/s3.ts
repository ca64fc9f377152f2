import type { Readable } from "node:stream";
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
 * itself refuses a body of another size or type. The SDK (about 35 MB of a process's memory) is loaded at the
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

  /** Where the presigned PUT writes: never served, copied to the file's own key at completion. */
  private staging(key: string): string {
    return `incoming/${key}`;
  }

  async uploadTarget(
    ref: StoredRef,
    file: { contentType: string; sizeBytes: number },
    expiresAt: Date,
  ): Promise<UploadTarget> {
    const { sdk, getSignedUrl, client } = await this.load();
    const command = new sdk.PutObjectCommand({
      ...this.object(this.staging(ref.key)),
      ContentType: file.contentType,
      ContentLength: file.sizeBytes,
    });
    const url = await getSignedUrl(client, command, { expiresIn: secondsUntil(expiresAt) });
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

  async size(key: string): Promise<number | undefined> {
    const { sdk, client } = await this.load();
    try {
      return (await client.send(new sdk.HeadObjectCommand(this.object(key)))).ContentLength;
    } catch (err) {
      const missing =
        err instanceof sdk.S3ServiceException &&
        (err.name === "NotFound" || err.name === "NoSuchKey" || err.$metadata.httpStatusCode === 404);
      if (missing) return undefined;
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

  async promote(key: string): Promise<void> {
    if ((await this.size(this.staging(key))) === undefined) return;
    const { sdk, client } = await this.load();
    const source = this.object(this.staging(key));
    await client.send(
      new sdk.CopyObjectCommand({
        ...this.object(key),
        CopySource: `${source.Bucket}/${source.Key.split("/").map(encodeURIComponent).join("/")}`,
      }),
    );
    await client.send(new sdk.DeleteObjectCommand(source));
  }

  async remove(key: string): Promise<void> {
    const { sdk, client } = await this.load();
    await client.send(new sdk.DeleteObjectCommand(this.object(this.staging(key))));
    await client.send(new sdk.DeleteObjectCommand(this.object(key)));
  }
}
