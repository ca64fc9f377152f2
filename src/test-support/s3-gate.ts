import { mkdtempSync, readdirSync } from "node:fs";
import { createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "@20minutes/s3rver";

/** A request the gate may hold: its method, path and headers as the S3 server would see them. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
}

/**
 * A real S3-compatible server (s3rver) behind a transparent HTTP proxy that can hold one chosen request until the
 * test releases it: the deterministic way to interleave a client's PUT, or a second completion, with a
 * verification at an exact step. The proxy forwards bytes and headers untouched (Host included), so the
 * server checks every signature as it would without it.
 */
export class GatedS3 {
  endpoint = "";
  private readonly directory = mkdtempSync(join(tmpdir(), "aula-s3rver-"));
  private s3rver: S3rver | undefined;
  private proxy: Server | undefined;
  private hold:
    | { match: (r: SeenRequest) => boolean; caught: () => void; release: Promise<void> }
    | undefined;

  async start(bucket: string): Promise<void> {
    this.s3rver = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: this.directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    const { port: target } = await this.s3rver.run();
    this.proxy = createServer(async (incoming, outgoing) => {
      const seen = { method: incoming.method ?? "GET", url: incoming.url ?? "/", headers: incoming.headers };
      const hold = this.hold;
      if (hold?.match(seen)) {
        this.hold = undefined;
        hold.caught();
        await hold.release;
      }
      const forward = request(
        { host: "127.0.0.1", port: target, method: seen.method, path: seen.url, headers: incoming.headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forward.on("error", () => outgoing.destroy());
      incoming.pipe(forward);
    });
    await new Promise<void>((resolve) => this.proxy?.listen(0, "127.0.0.1", resolve));
    this.endpoint = `http://127.0.0.1:${(this.proxy.address() as AddressInfo).port}`;
  }

  /**
   * Holds the next request that `match`es. Answers `caught` (resolves once such a request arrived and is held)
   * and `release` (lets it through).
   */
  holdNext(match: (r: SeenRequest) => boolean): { caught: Promise<void>; release: () => void } {
    let caught!: () => void;
    let release!: () => void;
    const caughtPromise = new Promise<void>((resolve) => {
      caught = resolve;
    });
    const releasePromise = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.hold = { match, caught, release: releasePromise };
    return { caught: caughtPromise, release };
  }

  /**
   * The keys of every object in the bucket, read from s3rver's folder (its ListObjectsV2 refuses the SDK's
   * signature of an encoded `prefix`, so the listing is taken from the files it stores each object as).
   */
  objects(bucket: string): string[] {
    const suffix = "._S3rver_object";
    return readdirSync(join(this.directory, bucket), { recursive: true, encoding: "utf8" })
      .filter((path) => path.endsWith(suffix))
      .map((path) => path.slice(0, -suffix.length).split(/[\\/]/).join("/"));
  }

  async close(): Promise<void> {
    this.proxy?.closeAllConnections();
    await new Promise<void>((resolve) => this.proxy?.close(() => resolve()));
    await this.s3rver?.close();
  }
}

/** A server-side copy (CopyObject): a PUT naming its source. */
export const isCopy = (r: SeenRequest) => r.method === "PUT" && r.headers["x-amz-copy-source"] !== undefined;
/** A ranged read (the first bytes of an object, for its magic bytes). */
export const isRangedGet = (r: SeenRequest) => r.method === "GET" && r.headers.range !== undefined;
