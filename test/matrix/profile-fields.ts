import { and, eq } from "drizzle-orm";
import { profileFields } from "../../src/db/schema/index.js";
import { createField } from "../../src/modules/profile-fields/service.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

let n = 0;
const field = async (h: Harness, t: TestTenant) =>
  (
    await createField(h.database.db, t.id, {
      key: `matrix_${++n}_${Date.now() % 100000}`,
      label: "Matrix",
      type: "text",
    })
  ).id;

const fieldRow = async (h: Harness, t: TestTenant, id: string | Record<string, string>) => {
  const [row] = await h.database.db
    .select()
    .from(profileFields)
    .where(and(eq(profileFields.tenantId, t.id), eq(profileFields.id, id as string)));
  return row;
};

export const fixtures: Fixtures = {
  "GET /api/institution/profile-fields": {},
  "POST /api/institution/profile-fields": { body: { key: "matrix_new", label: "New", type: "text" } },
  "PUT /api/institution/profile-fields/order": { body: { ids: ["00000000-0000-4000-8000-000000000000"] } },
  "GET /api/institution/profile-fields/:id": { makeObject: field, snapshot: fieldRow },
  "PATCH /api/institution/profile-fields/:id": {
    makeObject: field,
    snapshot: fieldRow,
    body: { label: "Changed" },
  },
  "DELETE /api/institution/profile-fields/:id": { makeObject: field, snapshot: fieldRow },
};
