import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "@20minutes/s3rver";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readCounter } from "../../db/counters.js";
import { media } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { bearer, json, makeKey, makeTenant } from "../../test-support/harness.js";
import { useStarted } from "../../test-support/late.js";
import { mp4, pdf, png } from "../../test-support/media-files.js";

/**
 * A real S3-compatible server (s3rver, started here) reached by the AWS SDK's presigned URLs; the test sends the
 * bytes straight to the bucket with fetch, as a browser would.
 */
let endpoint: string;
useStarted(
  "s3rver",
  async () => {
    const s3rver = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: mkdtempSync(join(tmpdir(), "aula-s3rver-")),
      configureBuckets: [{ name: "aula-test", configs: [] }],
    });
    const { port } = await s3rver.run();
    endpoint = `http://127.0.0.1:${port}`;
    return s3rver;
  },
  (s3rver) => s3rver.close(),
);
const { h } = useApi({
  env: () => ({
    MEDIA_STORAGE: "s3",
    S3_ENDPOINT: endpoint,
    S3_BUCKET: "aula-test",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_PREFIX: "media",
    PLAN_STORAGE_LIMITS: JSON.stringify({ free: 20_000 }),
  }),
});

const s3 = () =>
  new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });

async function start(tenant: { host: string }, key: string, body: Record<string, unknown>) {
  return h.inject({
    method: "POST",
    url: "/api/institution/media/uploads",
    headers: { host: tenant.host, ...bearer(key), ...json },
    payload: body,
  });
}

describe("media on an S3-compatible store", () => {
  it("uploads through a presigned PUT, verifies from the bucket and downloads through a presigned GET", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["media:read", "media:write"]);
    const bytes = pdf("S3");
    const started = await start(t, key, {
      filename: "Apostila.pdf",
      contentType: "application/pdf",
      sizeBytes: bytes.length,
    });
    expect(started.statusCode).toBe(201);
    const { media: m, upload } = started.json();
    expect(upload.url.startsWith(`${endpoint}/aula-test/media/incoming/${t.id}/${m.id}?`)).toBe(true);
    expect(upload.url).toContain("X-Amz-Signature=");
    expect(upload.url).not.toContain("x-amz-checksum");

    const put = await fetch(upload.url, { method: "PUT", headers: upload.headers, body: bytes });
    expect(put.status).toBe(200);
    const head = await s3().send(
      new HeadObjectCommand({ Bucket: "aula-test", Key: `media/incoming/${t.id}/${m.id}` }),
    );
    expect(head.ContentLength).toBe(bytes.length);

    const done = await h.inject({
      method: "POST",
      url: `/api/institution/media/${m.id}/complete`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ status: "ready" });
    const got = await fetch(done.json().url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(bytes);
    expect(got.headers.get("content-disposition")).toContain('filename="Apostila.pdf"');

    // The presigned PUT is still valid, but what it writes now is never served: the verified bytes stay.
    const forged = Buffer.alloc(bytes.length, 0x41);
    expect((await fetch(upload.url, { method: "PUT", headers: upload.headers, body: forged })).status).toBe(
      200,
    );
    const again = await h.inject({
      method: "GET",
      url: `/api/institution/media/${m.id}`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect(Buffer.from(await (await fetch(again.json().url)).arrayBuffer())).toEqual(bytes);

    const deleted = await h.inject({
      method: "DELETE",
      url: `/api/institution/media/${m.id}`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect(deleted.statusCode).toBe(204);
    for (const gone of [`media/${t.id}/${m.id}`, `media/incoming/${t.id}/${m.id}`]) {
      await expect(
        s3().send(new HeadObjectCommand({ Bucket: "aula-test", Key: gone })),
      ).rejects.toMatchObject({
        name: "NotFound",
      });
    }
  });

  it("checks the SHA-256 and the magic bytes of an object, and deletes a failed one from the bucket", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["media:read", "media:write"]);
    const bytes = png();
    const started = await start(t, key, {
      filename: "capa.mp4",
      contentType: "video/mp4",
      sizeBytes: bytes.length,
    });
    const { media: m, upload } = started.json();
    expect((await fetch(upload.url, { method: "PUT", headers: upload.headers, body: bytes })).status).toBe(
      200,
    );
    const done = await h.inject({
      method: "POST",
      url: `/api/institution/media/${m.id}/complete`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect(done.json()).toMatchObject({ status: "failed", error: "content_type_mismatch" });
    await expect(
      s3().send(new HeadObjectCommand({ Bucket: "aula-test", Key: `media/${t.id}/${m.id}` })),
    ).rejects.toMatchObject({ name: "NotFound" });

    const video = mp4();
    const summed = await start(t, key, {
      filename: "aula.mp4",
      contentType: "video/mp4",
      sizeBytes: video.length,
      checksumSha256: "0".repeat(64),
    });
    const target = summed.json().upload;
    expect((await fetch(target.url, { method: "PUT", headers: target.headers, body: video })).status).toBe(
      200,
    );
    const checked = await h.inject({
      method: "POST",
      url: `/api/institution/media/${summed.json().media.id}/complete`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect(checked.json()).toMatchObject({ status: "failed", error: "checksum_mismatch" });
  });
});

describe("storage quota per plan", () => {
  it("never lets concurrent reservations pass the plan's storage", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["media:read", "media:write"]);
    // free = 20,000 bytes here: eight requests of 3,000 at once, and only six fit.
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        start(t, key, { filename: `v${i}.mp4`, contentType: "video/mp4", sizeBytes: 3000 }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(6);
    const refused = results.filter((r) => r.statusCode === 413);
    expect(refused).toHaveLength(2);
    expect(refused[0]?.json()).toMatchObject({
      error: "payload_too_large",
      details: [{ field: "sizeBytes" }],
    });
    expect(await readCounter(h.database.db, t.id, "media:bytes")).toBe(18_000);
    const rows = await h.database.db
      .select()
      .from(media)
      .where(and(eq(media.tenantId, t.id)));
    expect(rows).toHaveLength(6);

    // Deleting a pending upload gives its room back.
    const first = results.find((r) => r.statusCode === 201);
    const id = (first?.json() as { media: { id: string } } | undefined)?.media.id;
    await h.inject({
      method: "DELETE",
      url: `/api/institution/media/${id}`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect(await readCounter(h.database.db, t.id, "media:bytes")).toBe(15_000);
    expect(
      (await start(t, key, { filename: "x.mp4", contentType: "video/mp4", sizeBytes: 5000 })).statusCode,
    ).toBe(201);
  });
});
