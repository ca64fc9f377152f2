import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { media } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { bearer, json, makeKey } from "../../test-support/harness.js";
import { useStarted } from "../../test-support/late.js";
import { png } from "../../test-support/media-files.js";
import { GatedS3, isCopy, isRangedGet } from "../../test-support/s3-gate.js";
import { expireUploads } from "./expiry.js";

/**
 * Completion of S3 uploads under races, against a real S3-compatible server (s3rver) behind a proxy that holds
 * one chosen request of a verification, so a second completion or a client's PUT lands at an exact step.
 */
const s3 = useStarted(
  "the gated S3 server",
  async () => {
    const gate = new GatedS3();
    await gate.start("aula-race");
    return gate;
  },
  (gate) => gate.close(),
);
const { h, tenants } = useApi({
  env: () => ({
    MEDIA_STORAGE: "s3",
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: "aula-race",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_PREFIX: "media",
  }),
  tenants: 1,
});
const [tenant] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, tenant, ["media:read", "media:write"]);
});

const client = () =>
  new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });

/** Another PNG of the same size: a byte of its last chunk changed, so it still sniffs as `image/png`. */
function otherPng(): Buffer {
  const bytes = Buffer.from(png());
  bytes[bytes.length - 5] = (bytes[bytes.length - 5] ?? 0) ^ 0xff;
  return bytes;
}

async function startUpload(bytes: Buffer) {
  const started = await h.inject({
    method: "POST",
    url: "/api/institution/media/uploads",
    headers: { host: tenant.host, ...bearer(key), ...json },
    payload: { filename: "capa.png", contentType: "image/png", sizeBytes: bytes.length },
  });
  expect(started.statusCode).toBe(201);
  return started.json() as {
    media: { id: string };
    upload: { url: string; headers: Record<string, string> };
  };
}

const put = (
  upload: { url: string; headers: Record<string, string> },
  body: Buffer,
  headers = upload.headers,
) => fetch(upload.url, { method: "PUT", headers, body });

const complete = (id: string) =>
  h.inject({
    method: "POST",
    url: `/api/institution/media/${id}/complete`,
    headers: { host: tenant.host, "accept-language": "en-US", ...bearer(key) },
  });

async function served(id: string): Promise<Buffer> {
  const got = await h.inject({
    method: "GET",
    url: `/api/institution/media/${id}`,
    headers: { host: tenant.host, ...bearer(key) },
  });
  expect(got.json()).toMatchObject({ status: "ready" });
  return Buffer.from(await (await fetch(got.json().url)).arrayBuffer());
}

const objectsOf = async (id: string) => s3.objects("aula-race").filter((k) => k.includes(id));

describe("completing an S3 upload under races", () => {
  it("lets one of racing completions verify: the others answer 409 while it runs, never 500", async () => {
    const bytes = png();
    const { media: m, upload } = await startUpload(bytes);
    expect((await put(upload, bytes)).status).toBe(200);

    // The first completion is held at its copy of the upload; five more arrive meanwhile.
    const gate = s3.holdNext(isCopy);
    const first = complete(m.id);
    await gate.caught;
    const others = await Promise.all(Array.from({ length: 5 }, () => complete(m.id)));
    for (const other of others) {
      expect(other.statusCode).toBe(409);
      expect(other.json()).toMatchObject({ error: "conflict" });
    }
    const during = await h.inject({
      method: "GET",
      url: `/api/institution/media/${m.id}`,
      headers: { host: tenant.host, ...bearer(key) },
    });
    expect(during.json()).toMatchObject({ status: "verifying", url: null });
    gate.release();
    const won = await first;
    expect(won.statusCode).toBe(200);
    expect(won.json()).toMatchObject({ status: "ready" });
    expect(await served(m.id)).toEqual(bytes);

    // One object is left: the verified copy, typed as the row; the staging object is gone.
    const objects = await objectsOf(m.id);
    expect(objects).toHaveLength(1);
    expect(objects[0]).toMatch(new RegExp(`^media/${tenant.id}/${m.id}/[0-9a-f-]{36}$`));
    const head = await client().send(new HeadObjectCommand({ Bucket: "aula-race", Key: objects[0] }));
    expect(head.ContentType).toBe("image/png");
    const [row] = await h.database.db
      .select()
      .from(media)
      .where(and(eq(media.tenantId, tenant.id), eq(media.id, m.id)));
    expect(`media/${row?.storageKey}`).toBe(objects[0]);

    // Completing the ready file again answers it unchanged.
    expect((await complete(m.id)).json()).toMatchObject({ status: "ready" });
  });

  it("answers only 200 or 409 to completions sent all at once, with one verified object left", async () => {
    const bytes = png();
    const { media: m, upload } = await startUpload(bytes);
    expect((await put(upload, bytes)).status).toBe(200);
    const all = await Promise.all(Array.from({ length: 8 }, () => complete(m.id)));
    const statuses = all.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses).toContain(200);
    for (const r of all.filter((r) => r.statusCode === 200))
      expect(r.json()).toMatchObject({ status: "ready" });
    expect(await served(m.id)).toEqual(bytes);
    expect(await objectsOf(m.id)).toHaveLength(1);
  });

  it("serves the verified bytes when the upload URL is used again during and after verification", async () => {
    const bytes = png();
    const forged = otherPng();
    expect(forged.length).toBe(bytes.length);
    expect(forged.equals(bytes)).toBe(false);
    const { media: m, upload } = await startUpload(bytes);
    expect((await put(upload, bytes)).status).toBe(200);

    // Held after the copy, while the magic bytes are read: another PNG is PUT and completion is asked again.
    const gate = s3.holdNext(isRangedGet);
    const first = complete(m.id);
    await gate.caught;
    expect((await put(upload, forged)).status).toBe(200);
    const second = await complete(m.id);
    expect(second.statusCode).toBe(409);
    gate.release();
    expect((await first).json()).toMatchObject({ status: "ready" });
    expect(await served(m.id)).toEqual(bytes);

    // After ready: the URL still takes a PUT, which changes nothing that is served.
    expect((await put(upload, forged)).status).toBe(200);
    expect((await complete(m.id)).json()).toMatchObject({ status: "ready" });
    expect(await served(m.id)).toEqual(bytes);

    // Deleting the file removes the verified copy and whatever the URL staged since.
    const deleted = await h.inject({
      method: "DELETE",
      url: `/api/institution/media/${m.id}`,
      headers: { host: tenant.host, ...bearer(key) },
    });
    expect(deleted.statusCode).toBe(204);
    expect(await objectsOf(m.id)).toEqual([]);
  });

  it("signs Content-Type into the presigned PUT, so the store refuses a body of another type", async () => {
    const bytes = png();
    const { media: m, upload } = await startUpload(bytes);
    const signed = new URL(upload.url).searchParams.get("X-Amz-SignedHeaders")?.split(";");
    expect(signed).toEqual(expect.arrayContaining(["content-type", "content-length", "host"]));
    const refused = await put(upload, bytes, { "Content-Type": "text/html" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("SignatureDoesNotMatch");
    // Nothing was stored: completing is 409 and the file stays pending.
    const early = await complete(m.id);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe("Nothing has been uploaded for this file yet.");
    expect((await put(upload, bytes)).status).toBe(200);
    expect((await complete(m.id)).json()).toMatchObject({ status: "ready" });
  });

  it("lets a completion take over a verification that died, and the sweep fail one left behind", async () => {
    const bytes = png();
    const { media: m, upload } = await startUpload(bytes);
    expect((await put(upload, bytes)).status).toBe(200);
    const where = and(eq(media.tenantId, tenant.id), eq(media.id, m.id));
    // As a process that claimed the file and died 20 minutes ago would have left it.
    const dead = `${tenant.id}/${m.id}/00000000-0000-4000-8000-000000000000`;
    await h.database.db
      .update(media)
      .set({ status: "verifying", storageKey: dead, updatedAt: sql`now() - interval '20 minutes'` })
      .where(where);
    const taken = await complete(m.id);
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toMatchObject({ status: "ready" });
    expect(await served(m.id)).toEqual(bytes);

    // A fresh claim is respected (409); an old one on an expired upload is failed by the sweep.
    const other = await startUpload(bytes);
    const otherWhere = and(eq(media.tenantId, tenant.id), eq(media.id, other.media.id));
    await h.database.db.update(media).set({ status: "verifying" }).where(otherWhere);
    expect((await complete(other.media.id)).statusCode).toBe(409);
    await h.database.db
      .update(media)
      .set({
        uploadExpiresAt: sql`now() - interval '2 hours'`,
        updatedAt: sql`now() - interval '20 minutes'`,
      })
      .where(otherWhere);
    expect(await expireUploads({ db: h.database.db, config: h.config })).toBeGreaterThanOrEqual(1);
    const [row] = await h.database.db.select().from(media).where(otherWhere);
    expect(row).toMatchObject({ status: "failed", error: "upload_expired" });
  });
});
