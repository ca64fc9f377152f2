import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { driveFolders, media } from "../../src/db/schema/index.js";
import { createFolder } from "../../src/modules/drive/service.js";
import { createUpload } from "../../src/modules/media/service.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

const folder = async (h: Harness, t: TestTenant) =>
  (await createFolder(h.database.db, t.id, { name: `Matrix ${randomUUID()}` })).id;

/** A file placed in a folder of the tenant. */
const file = async (h: Harness, t: TestTenant) => {
  const folderId = await folder(h, t);
  return (
    await createUpload(
      { db: h.database.db, config: h.config },
      t.id,
      { kind: "system" },
      { filename: "matrix.pdf", contentType: "application/pdf", sizeBytes: 100, folderId },
      `http://${t.host}`,
    )
  ).media.id;
};

const folderRow = async (h: Harness, t: TestTenant, id: string | Record<string, string>) =>
  (
    await h.database.db
      .select()
      .from(driveFolders)
      .where(and(eq(driveFolders.tenantId, t.id), eq(driveFolders.id, id as string)))
  )[0];
const fileRow = async (h: Harness, t: TestTenant, id: string | Record<string, string>) =>
  (
    await h.database.db
      .select()
      .from(media)
      .where(and(eq(media.tenantId, t.id), eq(media.id, id as string)))
  )[0];

const aFolder = { makeObject: folder, snapshot: folderRow };
const aFile = { makeObject: file, snapshot: fileRow };

export const fixtures: Fixtures = {
  "GET /api/institution/drive/folders/:id/children": aFolder,
  "POST /api/institution/drive/folders": { body: { name: `Matrix ${randomUUID()}` } },
  "GET /api/institution/drive/folders/:id": aFolder,
  "PATCH /api/institution/drive/folders/:id": { body: { name: "Renamed" }, ...aFolder },
  "DELETE /api/institution/drive/folders/:id": aFolder,
  "POST /api/institution/drive/files": { body: { mediaId: randomUUID(), folderId: randomUUID() } },
  "GET /api/institution/drive/files/:id": aFile,
  "PATCH /api/institution/drive/files/:id": { body: { name: "renamed.pdf" }, ...aFile },
  "DELETE /api/institution/drive/files/:id": aFile,
  "GET /api/institution/drive/quota": { single: true },
};
