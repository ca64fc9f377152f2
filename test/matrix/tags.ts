import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { tagAssignments, tags } from "../../src/db/schema/index.js";
import { attachTag } from "../../src/modules/tags/assignments.js";
import { createTag } from "../../src/modules/tags/service.js";
import { type Harness, makeUser, type TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

/** A tag on one of the tenant's users, so a refused detach or delete would show in the snapshot. */
const tag = async (h: Harness, t: TestTenant) => {
  const db = h.database.db;
  const created = await createTag(db, t.id, {
    name: `Fixture ${randomUUID()}`,
    appliesTo: ["user", "course"],
  });
  const user = await makeUser(h, t, "teacher");
  await attachTag(db, t.id, { kind: "system" }, created.id, { resourceType: "user", ids: [user.id] });
  return created.id;
};

const tagWithAssignments = async (h: Harness, t: TestTenant, params: string | Record<string, string>) => {
  const id = typeof params === "string" ? params : (params.id as string);
  const db = h.database.db;
  const [row] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.tenantId, t.id), eq(tags.id, id)));
  if (row === undefined) return undefined;
  const assignments = await db
    .select()
    .from(tagAssignments)
    .where(and(eq(tagAssignments.tenantId, t.id), eq(tagAssignments.tagId, id)))
    .orderBy(asc(tagAssignments.resourceId));
  return { row, assignments };
};

const object = { makeObject: tag, snapshot: tagWithAssignments };

export const fixtures: Fixtures = {
  "GET /api/institution/tags": {},
  "POST /api/institution/tags": { body: { name: "Matrix", color: "#336699", appliesTo: ["user"] } },
  "GET /api/institution/tags/:id": object,
  "PATCH /api/institution/tags/:id": { body: { color: "#000000" }, ...object },
  "DELETE /api/institution/tags/:id": object,
  "GET /api/institution/tags/:id/resources": object,
  "POST /api/institution/tags/:id/resources": {
    body: { resourceType: "course", ids: [randomUUID()] },
    ...object,
  },
  "POST /api/institution/tags/:id/resources/remove": {
    body: { resourceType: "user", ids: [randomUUID()] },
    ...object,
  },
};
