import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { calendarEvents } from "../../db/schema/index.js";
import { type Credential, callApi, type Method, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { adminCookie, bearer, makeKey, type SignedInUser, signedInUser } from "../../test-support/harness.js";

/**
 * Any teacher could edit or delete any calendar event. The rule of live classes (issue 19, point 8) now holds
 * here too: a teacher's session changes or deletes only the events it created; an administrator's session and a
 * `live-classes:write` key act for the institution. A refusal is 403 `forbidden` and leaves the event as stored.
 */
const { h, tenants } = useApi({ tenants: 1 });
const [a] = tenants;
let key: string;
let admin: Record<string, string>;
let owner: SignedInUser;
let colleague: SignedInUser;

const BASE = "/api/institution/calendar/events";
const START = new Date(Math.floor((Date.now() + 5 * 86_400_000) / 60_000) * 60_000).toISOString();
const REFUSED = {
  error: "forbidden",
  message: "Only the event's creator or an administrator can change or delete it.",
};

beforeAll(async () => {
  key = await makeKey(h, a, ["live-classes:read", "live-classes:write"]);
  admin = { cookie: await adminCookie(h, a) };
  owner = await signedInUser(h, a, "teacher");
  colleague = await signedInUser(h, a, "teacher");
});

const call = (method: Method, url: string, payload: unknown, credentials: Credential) =>
  callApi(h, a, credentials, method, url, payload, WHOLE_PATHS);

async function create(who: Credential, title = "Reunião de pais"): Promise<string> {
  const created = await call("POST", BASE, { title, startsAt: START, contextType: "institution" }, who);
  expect(created.statusCode).toBe(201);
  return created.json().id;
}

/** The event's row as stored, every column. */
async function stored(id: string) {
  const rows = await h.database.db
    .select()
    .from(calendarEvents)
    .where(and(eq(calendarEvents.tenantId, a.id), eq(calendarEvents.id, id)));
  return rows[0];
}

describe("who may change a calendar event", () => {
  it("records the creating session's user as the owner", async () => {
    const id = await create(owner.cookie);
    expect((await stored(id))?.createdBy).toBe(owner.id);
  });

  it("refuses another teacher's edit and delete with 403, leaving the event as stored", async () => {
    const id = await create(owner.cookie);
    const before = await stored(id);
    expect(before).toBeDefined();

    const edit = await call(
      "PATCH",
      `${BASE}/${id}`,
      { title: "Taken over", status: "canceled" },
      colleague.cookie,
    );
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toMatchObject(REFUSED);
    expect(await stored(id)).toEqual(before);

    const removal = await call("DELETE", `${BASE}/${id}`, undefined, colleague.cookie);
    expect(removal.statusCode).toBe(403);
    expect(removal.json()).toMatchObject(REFUSED);
    expect(await stored(id)).toEqual(before);
  });

  it("refuses a teacher the events a key or an administrator created", async () => {
    for (const who of [bearer(key), admin]) {
      const id = await create(who, "Conselho de classe");
      const before = await stored(id);
      const edit = await call("PATCH", `${BASE}/${id}`, { title: "Mine now" }, owner.cookie);
      expect(edit.statusCode).toBe(403);
      expect(edit.json()).toMatchObject(REFUSED);
      const removal = await call("DELETE", `${BASE}/${id}`, undefined, owner.cookie);
      expect(removal.statusCode).toBe(403);
      expect(await stored(id)).toEqual(before);
    }
  });

  it("lets the creating teacher edit and delete their own event", async () => {
    const id = await create(owner.cookie);
    const edit = await call("PATCH", `${BASE}/${id}`, { title: "Reunião remarcada" }, owner.cookie);
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({ id, title: "Reunião remarcada" });
    expect((await stored(id))?.title).toBe("Reunião remarcada");
    expect((await call("DELETE", `${BASE}/${id}`, undefined, owner.cookie)).statusCode).toBe(204);
    expect(await stored(id)).toBeUndefined();
  });

  it("lets an administrator's session and a key act on a teacher's event", async () => {
    const id = await create(owner.cookie);
    const byAdmin = await call("PATCH", `${BASE}/${id}`, { title: "Pela direção" }, admin);
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json()).toMatchObject({ title: "Pela direção" });
    const byKey = await call("PATCH", `${BASE}/${id}`, { status: "canceled" }, bearer(key));
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json()).toMatchObject({ status: "canceled" });
    // The owner stays the creating teacher, whoever edited.
    expect((await stored(id))?.createdBy).toBe(owner.id);
    expect((await call("DELETE", `${BASE}/${id}`, undefined, admin)).statusCode).toBe(204);
    const other = await create(colleague.cookie);
    expect((await call("DELETE", `${BASE}/${other}`, undefined, bearer(key))).statusCode).toBe(204);
    expect(await stored(other)).toBeUndefined();
  });

  it("still answers 404 for an event that does not exist, to any teacher", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await call("PATCH", `${BASE}/${missing}`, { title: "x" }, colleague.cookie)).statusCode).toBe(
      404,
    );
    expect((await call("DELETE", `${BASE}/${missing}`, undefined, colleague.cookie)).statusCode).toBe(404);
  });
});
