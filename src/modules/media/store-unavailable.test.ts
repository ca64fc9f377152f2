import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { media } from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { makeKey } from "../../test-support/harness.js";
import { mediaDir } from "../../test-support/media-client.js";

/**
 * A process without S3 configuration (this harness: the local store only) reading files that another process,
 * configured for S3, wrote to the shared database: the rows are inserted as that process would have left them.
 */
const { h, tenants } = useApi({ env: { MEDIA_DIR: mediaDir() }, tenants: 1 });
const [t] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, t, ["media:read", "media:write", "drive:read", "drive:write"]);
});

async function s3File(status: "ready" | "pending_upload", folderId: string | null = null) {
  const id = randomUUID();
  await h.database.db.insert(media).values({
    tenantId: t.id,
    id,
    kind: "document",
    filename: "Apostila.pdf",
    contentType: "application/pdf",
    sizeBytes: 1000,
    status,
    storage: "s3",
    storageKey: `${t.id}/${id}/${randomUUID()}`,
    folderId,
    uploadExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    readyAt: status === "ready" ? new Date().toISOString() : null,
  });
  return id;
}

const call = callerFor(h, () => ({ tenant: t, credential: key }), WHOLE_PATHS);

function expectUnavailable(res: Awaited<ReturnType<typeof call>>) {
  expect(res.statusCode).toBe(503);
  expect(res.json()).toMatchObject({ error: "storage_unavailable" });
  expect(res.json().message).toContain('"s3"');
}

describe("a file in a store this process is not configured for", () => {
  it("answers 503 storage_unavailable on the media routes that read it, and keeps it on delete", async () => {
    const id = await s3File("ready");
    expectUnavailable(await call("GET", `/api/institution/media/${id}`));
    expectUnavailable(await call("POST", `/api/institution/media/${id}/complete`));
    expectUnavailable(await call("PATCH", `/api/institution/media/${id}`, { filename: "Nova.pdf" }));
    expectUnavailable(await call("DELETE", `/api/institution/media/${id}`));
    const rows = await h.database.db
      .select()
      .from(media)
      .where(and(eq(media.tenantId, t.id), eq(media.id, id)));
    expect(rows).toHaveLength(1);

    // Lists need no store: they carry no URL.
    const list = await call("GET", "/api/institution/media");
    expect(list.statusCode).toBe(200);
  });

  it("answers 503 when completing an upload started on S3, and leaves it pending", async () => {
    const id = await s3File("pending_upload");
    expectUnavailable(await call("POST", `/api/institution/media/${id}/complete`));
    const [row] = await h.database.db
      .select()
      .from(media)
      .where(and(eq(media.tenantId, t.id), eq(media.id, id)));
    expect(row?.status).toBe("pending_upload");
  });

  it("answers 503 on the drive routes that read it", async () => {
    const folder = await call("POST", "/api/institution/drive/folders", { name: `S3 ${randomUUID()}` });
    expect(folder.statusCode).toBe(201);
    const id = await s3File("ready", folder.json().id);
    expectUnavailable(await call("GET", `/api/institution/drive/files/${id}`));
    expectUnavailable(await call("PATCH", `/api/institution/drive/files/${id}`, { name: "Outra.pdf" }));
    const loose = await s3File("ready");
    expectUnavailable(
      await call("POST", "/api/institution/drive/files", { mediaId: loose, folderId: folder.json().id }),
    );
    const gone = await call("DELETE", `/api/institution/drive/folders/${folder.json().id}?recursive=true`);
    expectUnavailable(gone);
    expect((await call("GET", `/api/institution/drive/folders/${folder.json().id}`)).statusCode).toBe(200);
  });
});
