import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { liveClassAttendance, liveClasses, liveClassOccurrences } from "../../db/schema/index.js";
import { type Credential, callApi, type Method, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import {
  adminCookie,
  bearer,
  makeKey,
  makeUser,
  type SignedInUser,
  signedInUser,
} from "../../test-support/harness.js";

/**
 * Issue 19, point 8: a teacher could edit, start and end another teacher's live class. A teacher's session now
 * manages (edits, cancels) only the classes it hosts and runs (starts, ends, takes attendance) only those it hosts
 * or co-hosts; administrators and keys act for the institution.
 */
const { h, tenants } = useApi({ tenants: 1 });
const [a] = tenants;
let key: string;
let admin: Record<string, string>;
let host: SignedInUser;
let coHost: SignedInUser;
let colleague: SignedInUser;
let studentId: string;

const BASE = "/api/institution/live-classes";
const START = new Date(Math.floor((Date.now() + 3 * 86_400_000) / 60_000) * 60_000).toISOString();
const HOST_ONLY = {
  error: "forbidden",
  message: "Only the class's host or an administrator can do this.",
};
const HOST_OR_COHOST = {
  error: "forbidden",
  message: "Only the class's host, a co-host or an administrator can do this.",
};

beforeAll(async () => {
  key = await makeKey(h, a, ["live-classes:read", "live-classes:write"]);
  admin = { cookie: await adminCookie(h, a) };
  host = await signedInUser(h, a, "teacher");
  coHost = await signedInUser(h, a, "teacher");
  colleague = await signedInUser(h, a, "teacher");
  studentId = (await makeUser(h, a, "student")).id;
});

const call = (method: Method, url: string, payload: unknown, credentials: Credential) =>
  callApi(h, a, credentials, method, url, payload, WHOLE_PATHS);

/** A weekly class of the host's own session, with a co-host and a student invited. */
async function hostsClass(): Promise<{ id: string; occurrences: string[] }> {
  const res = await call(
    "POST",
    BASE,
    {
      title: "Física 2",
      inviteeIds: [studentId],
      coHostIds: [coHost.id],
      startsAt: START,
      durationMinutes: 50,
      timezone: "UTC",
      recurrence: "FREQ=WEEKLY;COUNT=3",
    },
    host.cookie,
  );
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().hostUserId).toBe(host.id);
  const occ = await call("GET", `${BASE}/${res.json().id}/occurrences`, undefined, host.cookie);
  return { id: res.json().id, occurrences: occ.json().data.map((o: { id: string }) => o.id) };
}

/** The class and its occurrences as stored, and its attendance rows: what a refusal must leave alone. */
async function stored(id: string) {
  const db = h.database.db;
  return {
    liveClass: (
      await db
        .select()
        .from(liveClasses)
        .where(and(eq(liveClasses.tenantId, a.id), eq(liveClasses.id, id)))
    )[0],
    occurrences: await db
      .select()
      .from(liveClassOccurrences)
      .where(and(eq(liveClassOccurrences.tenantId, a.id), eq(liveClassOccurrences.liveClassId, id)))
      .orderBy(liveClassOccurrences.startsAt),
    attendance: await db
      .select()
      .from(liveClassAttendance)
      .where(and(eq(liveClassAttendance.tenantId, a.id), eq(liveClassAttendance.liveClassId, id))),
  };
}

describe("only a live class's host (or an administrator, or a key) changes it", () => {
  it("refuses another teacher editing, canceling or canceling an occurrence of the class, and a co-host too", async () => {
    const c = await hostsClass();
    const before = await stored(c.id);
    for (const who of [colleague.cookie, coHost.cookie]) {
      for (const [method, url, body] of [
        ["PATCH", `${BASE}/${c.id}`, { title: "Tomada" }],
        ["PATCH", `${BASE}/${c.id}`, { coHostIds: [colleague.id] }],
        ["PATCH", `${BASE}/${c.id}`, { startsAt: START, durationMinutes: 120 }],
        ["PATCH", `${BASE}/${c.id}`, { status: "canceled" }],
        ["DELETE", `${BASE}/${c.id}`, undefined],
        ["POST", `${BASE}/${c.id}/occurrences/${c.occurrences[0]}/cancel`, undefined],
      ] as const) {
        const res = await call(method, url, body, who);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toEqual(HOST_ONLY);
      }
    }
    expect(await stored(c.id)).toEqual(before);
  });

  it("refuses another teacher starting, ending or taking attendance of the class", async () => {
    const c = await hostsClass();
    const [first] = c.occurrences as [string];
    const occurrence = `${BASE}/${c.id}/occurrences/${first}`;
    const attendance = { occurrenceId: first, records: [{ userId: studentId, status: "present" }] };

    const start = await call("POST", `${occurrence}/start`, undefined, colleague.cookie);
    expect(start.statusCode).toBe(403);
    expect(start.json()).toEqual(HOST_OR_COHOST);
    expect((await call("POST", `${occurrence}/start`, undefined, host.cookie)).statusCode).toBe(200);
    const live = await stored(c.id);
    expect(live.occurrences[0]?.status).toBe("live");

    for (const [method, url, body] of [
      ["POST", `${occurrence}/end`, undefined],
      ["PUT", `${BASE}/${c.id}/attendance`, attendance],
      ["POST", `${occurrence}/attendance/sync`, undefined],
    ] as const) {
      const res = await call(method, url, body, colleague.cookie);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual(HOST_OR_COHOST);
    }
    expect(await stored(c.id)).toEqual(live);
    expect(live.attendance).toEqual([]);
  });

  it("lets a co-host run the class: start, take attendance, end", async () => {
    const c = await hostsClass();
    const occurrence = `${BASE}/${c.id}/occurrences/${c.occurrences[0]}`;
    expect((await call("POST", `${occurrence}/start`, undefined, coHost.cookie)).statusCode).toBe(200);
    const put = await call(
      "PUT",
      `${BASE}/${c.id}/attendance`,
      { occurrenceId: c.occurrences[0], records: [{ userId: studentId, status: "present" }] },
      coHost.cookie,
    );
    expect(put.statusCode).toBe(200);
    expect(put.json().recorded).toBe(1);
    // Jitsi reports no attendance: the co-host passes the host check and meets the provider's 409.
    const sync = await call("POST", `${occurrence}/attendance/sync`, undefined, coHost.cookie);
    expect(sync.statusCode).toBe(409);
    const ended = await call("POST", `${occurrence}/end`, undefined, coHost.cookie);
    expect(ended.statusCode).toBe(200);
    expect(ended.json().status).toBe("ended");
    expect((await stored(c.id)).attendance).toHaveLength(1);
  });

  it("lets the host, an administrator's session and a key edit and cancel any class", async () => {
    const c = await hostsClass();
    const byHost = await call("PATCH", `${BASE}/${c.id}`, { title: "Física 2 (sala 3)" }, host.cookie);
    expect(byHost.statusCode).toBe(200);
    const byAdmin = await call("PATCH", `${BASE}/${c.id}`, { coHostIds: [] }, admin);
    expect(byAdmin.json()).toMatchObject({ title: "Física 2 (sala 3)", coHostIds: [] });
    // The former co-host lost the right with the role.
    expect(
      (await call("POST", `${BASE}/${c.id}/occurrences/${c.occurrences[0]}/start`, undefined, coHost.cookie))
        .statusCode,
    ).toBe(403);
    const byKey = await call(
      "POST",
      `${BASE}/${c.id}/occurrences/${c.occurrences[1]}/cancel`,
      undefined,
      bearer(key),
    );
    expect(byKey.json().status).toBe("canceled");
    expect((await call("DELETE", `${BASE}/${c.id}`, undefined, bearer(key))).statusCode).toBe(204);
    expect((await stored(c.id)).liveClass?.status).toBe("canceled");
  });

  it("lets a teacher schedule only classes they host; an administrator or a key names another host", async () => {
    const title = `Plantão ${Date.now()}`;
    const body = {
      title,
      inviteeIds: [studentId],
      startsAt: START,
      durationMinutes: 30,
      hostUserId: host.id,
    };
    const refused = await call("POST", BASE, body, colleague.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: "forbidden",
      message:
        "A teacher schedules only classes they host; an administrator or an API key may name another host.",
    });
    const rows = await h.database.db
      .select()
      .from(liveClasses)
      .where(and(eq(liveClasses.tenantId, a.id), eq(liveClasses.title, title)));
    expect(rows).toEqual([]);
    const own = await call("POST", BASE, { ...body, hostUserId: colleague.id }, colleague.cookie);
    expect(own.statusCode).toBe(201);
    for (const who of [admin, bearer(key)]) {
      const res = await call("POST", BASE, body, who);
      expect(res.statusCode).toBe(201);
      expect(res.json().hostUserId).toBe(host.id);
    }
  });
});
