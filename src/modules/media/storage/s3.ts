import type { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { S3Config } from "../../../config/media.js";
import {
  contentDisposition,
  dispositionFor,
  type MediaStore,
  type StoredRef,
  type UploadTarget,
} from "./store.js";

const secondsUntil = (at: Date) => Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000));

const isMissing = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.name === "NotFound" || err.name === "NoSuchKey" || err.$metadata.httpStatusCode === 404);

/**
 * Any S3-compatible bucket through the AWS SDK. The client uploads and downloads with presigned URLs, so the
 * bytes never pass through this API; the presigned PUT signs `Content-Type` and `Content-Length`, so the store
 * itself refuses a body of another size or type.
 */
export class S3Store implements MediaStore {
  readonly name = "s3" as const;
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // The SDK would otherwise sign a CRC32 of the empty body into every presigned PUT, which the real body
      // cannot match: checksums only where an operation requires one.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  private objectKey(key: string): string {
    return this.config.prefix === "" ? key : `${this.config.prefix}/${key}`;
  }

  async uploadTarget(
    ref: StoredRef,
    file: { contentType: string; sizeBytes: number },
    expiresAt: Date,
  ): Promise<UploadTarget> {
    const command = new PutObjectCommand({
      Bucket: this.config.bucket,
      Key: this.objectKey(ref.key),
      ContentType: file.contentType,
      ContentLength: file.sizeBytes,
    });
    const url = await getSignedUrl(this.client, command, { expiresIn: secondsUntil(expiresAt) });
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
    const command = new GetObjectCommand({
      Bucket: this.config.bucket,
      Key: this.objectKey(ref.key),
      ResponseContentType: file.contentType,
      ResponseContentDisposition: contentDisposition(file.filename, dispositionFor(file.contentType), false),
    });
    return getSignedUrl(this.client, command, { expiresIn: secondsUntil(expiresAt) });
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
      );
      return head.ContentLength;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async head(key: string, bytes: number): Promise<Buffer> {
    const object = await this.client.send(
      new GetObjectCommand({
        Bucket: this.config.bucket,
        Key: this.objectKey(key),
        Range: `bytes=0-${bytes - 1}`,
      }),
    );
    return Buffer.from((await object.Body?.transformToByteArray()) ?? []);
  }

  async read(key: string): Promise<Readable> {
    const object = await this.client.send(
      new GetObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }),
    );
    return object.Body as Readable;
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key) }));
  }

  destroy(): void {
    this.client.destroy();
  }
}
