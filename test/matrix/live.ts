import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import {
  calendarEvents,
  liveClasses,
  liveClassOccurrences,
  videoProviders,
} from "../../src/db/schema/index.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import { makeUser } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

/** Video providers, calendar and live classes. */
const provider = async (h: Harness, t: TestTenant) => {
  const id = randomUUID();
  await h.database.db.insert(videoProviders).values({
    tenantId: t.id,
    id,
    provider: "jitsi",
    purpose: "live",
    name: "Fixture Jitsi",
  });
  return id;
};

const providerRow = async (h: Harness, t: TestTenant, id: string | Record<string, string>) =>
  (
    await h.database.db
      .select()
      .from(videoProviders)
      .where(and(eq(videoProviders.tenantId, t.id), eq(videoProviders.id, id as string)))
  )[0];

const providerObject = { makeObject: provider, snapshot: providerRow };

const calendarEvent = async (h: Harness, t: TestTenant) => {
  const rows = await h.database.db
    .insert(calendarEvents)
    .values({
      tenantId: t.id,
      title: "Fixture event",
      startsAt: "2026-05-01T12:00:00.000Z",
      endsAt: "2026-05-01T13:00:00.000Z",
      lastEndsAt: "2026-05-01T13:00:00.000Z",
      contextType: "institution",
    })
    .returning({ id: calendarEvents.id });
  return (rows[0] as { id: string }).id;
};

const calendarEventRow = async (h: Harness, t: TestTenant, id: string | Record<string, string>) =>
  (
    await h.database.db
      .select()
      .from(calendarEvents)
      .where(and(eq(calendarEvents.tenantId, t.id), eq(calendarEvents.id, id as string)))
  )[0];

const eventObject = { makeObject: calendarEvent, snapshot: calendarEventRow };

/** A live class with one occurrence, hosted by a teacher of the tenant. */
const liveClass = async (h: Harness, t: TestTenant) => {
  const host = await makeUser(h, t, "teacher");
  const id = randomUUID();
  const occurrenceId = randomUUID();
  await h.database.db.insert(liveClasses).values({
    tenantId: t.id,
    id,
    title: "Fixture class",
    hostUserId: host.id,
    inviteeIds: [host.id],
    startsAt: "2030-05-01T12:00:00.000Z",
    durationMinutes: 60,
    timezone: "UTC",
    roomSecret: "fixture",
  });
  await h.database.db.insert(liveClassOccurrences).values({
    tenantId: t.id,
    id: occurrenceId,
    liveClassId: id,
    startsAt: "2030-05-01T12:00:00.000Z",
    endsAt: "2030-05-01T13:00:00.000Z",
  });
  return { id, occurrenceId };
};

const liveClassRows = async (h: Harness, t: TestTenant, ids: string | Record<string, string>) => {
  const id = typeof ids === "string" ? ids : (ids.id as string);
  const db = h.database.db;
  const [row] = await db
    .select()
    .from(liveClasses)
    .where(and(eq(liveClasses.tenantId, t.id), eq(liveClasses.id, id)));
  if (row === undefined) return undefined;
  const occurrences = await db
    .select()
    .from(liveClassOccurrences)
    .where(and(eq(liveClassOccurrences.tenantId, t.id), eq(liveClassOccurrences.liveClassId, id)));
  return { row, occurrences };
};

const classObject = { makeObject: liveClass, snapshot: liveClassRows };
const LIVE = "/api/institution/live-classes";

export const fixtures: Fixtures = {
  "GET /api/institution/video-providers": {},
  // No credentials: a key with `settings:write` may create a Jitsi connection (credentials need a session).
  "POST /api/institution/video-providers": { body: { provider: "jitsi", purpose: "live", name: "Matrix" } },
  "GET /api/institution/video-providers/:id": providerObject,
  "PATCH /api/institution/video-providers/:id": { body: { name: "Renamed" }, ...providerObject },
  "DELETE /api/institution/video-providers/:id": providerObject,
  "POST /api/institution/video-providers/:id/test": providerObject,
  // The agenda needs its `from`–`to` window (400 without): its own tests cover tenant isolation.
  "GET /api/institution/calendar/events": { single: true },
  "POST /api/institution/calendar/events": {
    body: { title: "Matrix", startsAt: "2026-05-01T12:00:00.000Z", contextType: "institution" },
  },
  "GET /api/institution/calendar/events/:id": eventObject,
  "PATCH /api/institution/calendar/events/:id": { body: { title: "Renamed" }, ...eventObject },
  "DELETE /api/institution/calendar/events/:id": eventObject,
  "GET /api/institution/calendar/feed": { single: true },
  "POST /api/institution/calendar/feed": {},
  "DELETE /api/institution/calendar/feed": {},
  [`GET ${LIVE}`]: {},
  [`POST ${LIVE}`]: {
    body: {
      title: "Matrix",
      startsAt: "2030-05-01T12:00:00.000Z",
      durationMinutes: 60,
      inviteeIds: [randomUUID()],
    },
  },
  [`GET ${LIVE}/:id`]: classObject,
  [`PATCH ${LIVE}/:id`]: { body: { title: "Renamed" }, ...classObject },
  [`DELETE ${LIVE}/:id`]: classObject,
  [`GET ${LIVE}/:id/occurrences`]: classObject,
  [`POST ${LIVE}/:id/occurrences/:occurrenceId/cancel`]: classObject,
  [`POST ${LIVE}/:id/occurrences/:occurrenceId/start`]: classObject,
  [`POST ${LIVE}/:id/occurrences/:occurrenceId/end`]: classObject,
  [`POST ${LIVE}/:id/join-links`]: { body: { userId: randomUUID() }, ...classObject },
  [`GET ${LIVE}/:id/attendance`]: classObject,
  [`PUT ${LIVE}/:id/attendance`]: {
    body: { occurrenceId: randomUUID(), records: [{ userId: randomUUID(), status: "present" }] },
    ...classObject,
  },
  [`POST ${LIVE}/:id/occurrences/:occurrenceId/attendance/sync`]: classObject,
};
