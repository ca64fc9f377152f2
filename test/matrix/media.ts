import { and, eq } from "drizzle-orm";
import { media } from "../../src/db/schema/index.js";
import { createUpload } from "../../src/modules/media/service.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

/** A pending upload of the tenant (its reservation is the same as a ready file's, for every route here). */
const file = async (h: Harness, t: TestTenant) =>
  (
    await createUpload(
      { db: h.database.db, config: h.config },
      t.id,
      { kind: "system" },
      { filename: "matrix.pdf", contentType: "application/pdf", sizeBytes: 100 },
      `http://${t.host}`,
    )
  ).media.id;

const fileRow = async (h: Harness, t: TestTenant, id: string | Record<string, string>) =>
  (
    await h.database.db
      .select()
      .from(media)
      .where(and(eq(media.tenantId, t.id), eq(media.id, id as string)))
  )[0];

const object = { makeObject: file, snapshot: fileRow };

export const fixtures: Fixtures = {
  "GET /api/institution/media": {},
  "POST /api/institution/media/uploads": {
    body: { filename: "m.png", contentType: "image/png", sizeBytes: 10 },
  },
  "POST /api/institution/media/:id/complete": object,
  "GET /api/institution/media/:id": object,
  "PATCH /api/institution/media/:id": { body: { filename: "renamed.pdf" }, ...object },
  "DELETE /api/institution/media/:id": object,
};
