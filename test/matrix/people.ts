import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { classGroupMembers, classGroups, invites } from "../../src/db/schema/index.js";
import { addMembers, createClass } from "../../src/modules/classes/service.js";
import { mailDepsOf } from "../../src/modules/email/service.js";
import { createInvite } from "../../src/modules/invites/service.js";
import { type Harness, makeUser, type TestTenant } from "../../src/test-support/harness.js";
import type { Fixture, Fixtures } from "./fixture.js";

const idOf = (params: string | Record<string, string>) =>
  typeof params === "string" ? params : (params.id as string);

/** A class of the tenant with one member, so a refused change to its members would show in the snapshot. */
const classWithMember = async (h: Harness, t: TestTenant) => {
  const created = await createClass(h.database.db, t.id, { name: "Fixture", code: randomUUID().slice(0, 8) });
  const user = await makeUser(h, t, "student");
  await addMembers(h.database.db, t.id, { kind: "system" }, created.id, { userIds: [user.id] });
  return { id: created.id, userId: user.id };
};

const classAndMembers = async (h: Harness, t: TestTenant, params: string | Record<string, string>) => {
  const id = idOf(params);
  const [row] = await h.database.db
    .select()
    .from(classGroups)
    .where(and(eq(classGroups.tenantId, t.id), eq(classGroups.id, id)));
  if (row === undefined) return undefined;
  const members = await h.database.db
    .select()
    .from(classGroupMembers)
    .where(and(eq(classGroupMembers.tenantId, t.id), eq(classGroupMembers.classGroupId, id)))
    .orderBy(asc(classGroupMembers.userId));
  return { row, members };
};

const invite = async (h: Harness, t: TestTenant) =>
  (
    await createInvite(
      h.database.db,
      t.id,
      { kind: "system" },
      { email: `${randomUUID()}@matrix.test` },
      mailDepsOf(h.config, `http://${t.host}`),
    )
  ).id;

const inviteRow = async (h: Harness, t: TestTenant, params: string | Record<string, string>) =>
  (
    await h.database.db
      .select()
      .from(invites)
      .where(and(eq(invites.tenantId, t.id), eq(invites.id, idOf(params))))
  )[0];

const aClass: Fixture = { makeObject: classWithMember, snapshot: classAndMembers };
const anInvite: Fixture = { makeObject: invite, snapshot: inviteRow };

export const fixtures: Fixtures = {
  "POST /api/institution/users/bulk": {
    body: { items: [{ name: "Matrix", email: `${randomUUID()}@matrix.test`, role: "teacher" }] },
  },
  "GET /api/institution/classes": {},
  "POST /api/institution/classes": { body: { name: "Matrix" } },
  "GET /api/institution/classes/:id": aClass,
  "PATCH /api/institution/classes/:id": { body: { name: "Renamed" }, ...aClass },
  "DELETE /api/institution/classes/:id": aClass,
  "GET /api/institution/classes/:id/members": aClass,
  "POST /api/institution/classes/:id/members": { body: { userIds: [randomUUID()] }, ...aClass },
  "DELETE /api/institution/classes/:id/members/:userId": aClass,
  "GET /api/institution/invites": {},
  "POST /api/institution/invites": { body: { email: `${randomUUID()}@matrix.test` } },
  "GET /api/institution/invites/:id": anInvite,
  "POST /api/institution/invites/:id/resend": anInvite,
  "DELETE /api/institution/invites/:id": anInvite,
};
