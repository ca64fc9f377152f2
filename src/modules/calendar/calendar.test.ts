import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import nodeIcal, { type VEvent } from "node-ical";
import { beforeAll, describe, expect, it } from "vitest";
import { calendarFeeds } from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import {
  bearer,
  makeKey,
  signedInUser,
  type TestTenant,
  tablesContaining,
} from "../../test-support/harness.js";
import { createModule } from "../course-modules/service.js";
import { createCourse } from "../courses/service.js";
import { createEnrollment } from "../enrollments/service.js";
import { createLesson } from "../lessons/service.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
let student: { id: string; cookie: string };
let other: { id: string; cookie: string };
let courseId: string;
let otherCourseId: string;

const BASE = "/api/institution/calendar";
// Whole minutes: iCalendar times have no fractions of a second.
const SOON = new Date(Math.floor((Date.now() + 10 * 86_400_000) / 60_000) * 60_000);
const day = (offset: number) => new Date(SOON.getTime() + offset * 86_400_000);

const userWithSession = (t: TestTenant, role: "student" | "teacher") => signedInUser(h, t, role);

async function course(t: TestTenant, title: string, dueAt: string) {
  const db = h.database.db;
  const c = await createCourse(db, t.id, { title, status: "published" });
  const m = await createModule(db, t.id, c.id, { title: "Módulo", status: "published" });
  await createLesson(db, t.id, m.id, {
    title: `Entrega ${title}`,
    type: "assignment",
    status: "published",
    dueAt,
  });
  return c.id;
}

beforeAll(async () => {
  keyA = await makeKey(h, a, ["live-classes:read", "live-classes:write"]);
  keyB = await makeKey(h, b, ["live-classes:read", "live-classes:write"]);
  student = await userWithSession(a, "student");
  other = await userWithSession(a, "student");
  courseId = await course(a, "Álgebra", day(2).toISOString());
  otherCourseId = await course(a, "Química", day(3).toISOString());
  await createEnrollment(
    h.database.db,
    h.config.plans,
    a.id,
    { kind: "system" },
    {
      userId: student.id,
      courseId,
      expiresAt: day(20).toISOString(),
    },
  );
});
const call = callerFor(h, () => ({ tenant: a, credential: bearer(keyA) }), WHOLE_PATHS);

const windowQuery = `from=${day(-1).toISOString().slice(0, 10)}&to=${day(40).toISOString().slice(0, 10)}`;

describe("calendar events", () => {
  it("creates a recurring event in a time zone, reads, updates and deletes it", async () => {
    // 19:00 in São Paulo (UTC−3), every Tuesday and Thursday, six times.
    const created = await call("POST", `${BASE}/events`, {
      title: "Plantão de dúvidas",
      startsAt: "2026-10-20T22:00:00.000Z",
      endsAt: "2026-10-20T23:30:00.000Z",
      timezone: "america/sao_paulo",
      contextType: "course",
      contextId: courseId,
      recurrence: "RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6",
    });
    expect(created.statusCode).toBe(201);
    const e = created.json();
    expect(e).toMatchObject({
      title: "Plantão de dúvidas",
      timezone: "America/Sao_Paulo",
      recurrence: "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6",
      contextType: "course",
      contextId: courseId,
      status: "active",
      allDay: false,
    });
    expect((await call("GET", `${BASE}/events/${e.id}`)).json()).toEqual(e);

    const agenda = await call(
      "GET",
      `${BASE}/events?from=2026-10-01&to=2026-11-30&sourceType=manual&perPage=100`,
    );
    expect(agenda.statusCode).toBe(200);
    const mine = agenda.json().data.filter((i: { sourceId: string }) => i.sourceId === e.id);
    expect(mine.map((i: { startsAt: string }) => i.startsAt)).toEqual([
      "2026-10-20T22:00:00.000Z",
      "2026-10-22T22:00:00.000Z",
      "2026-10-27T22:00:00.000Z",
      "2026-10-29T22:00:00.000Z",
      "2026-11-03T22:00:00.000Z",
      "2026-11-05T22:00:00.000Z",
    ]);
    expect(mine[0]).toMatchObject({ endsAt: "2026-10-20T23:30:00.000Z", timezone: "America/Sao_Paulo" });

    const moved = await call("PATCH", `${BASE}/events/${e.id}`, { startsAt: "2026-10-20T21:00:00.000Z" });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      startsAt: "2026-10-20T21:00:00.000Z",
      endsAt: "2026-10-20T22:30:00.000Z",
    });

    expect((await call("DELETE", `${BASE}/events/${e.id}`)).statusCode).toBe(204);
    expect((await call("GET", `${BASE}/events/${e.id}`)).statusCode).toBe(404);
  });

  it.each([
    [{ recurrence: "FREQ=SOMETIMES" }, "recurrence"],
    [{ recurrence: "FREQ=DAILY" }, "recurrence"],
    [{ recurrence: "FREQ=DAILY;COUNT=367" }, "recurrence"],
    [{ recurrence: "DTSTART:20260101T000000Z;FREQ=DAILY;COUNT=2" }, "recurrence"],
    [{ endsAt: "2026-10-20T21:00:00.000Z" }, "endsAt"],
    [{ timezone: "Mars/Olympus" }, "timezone"],
    [{ contextId: "6f1c1e5d-554c-4e9b-8a2f-0f4c3e8a1100" }, "contextId"],
    [{ contextType: "institution" }, "contextId"],
    [{ extra: true }, "extra"],
  ])("refuses %j with 400 naming %s", async (change, field) => {
    const res = await call("POST", `${BASE}/events`, {
      title: "X",
      startsAt: "2026-10-20T22:00:00.000Z",
      contextType: "course",
      contextId: courseId,
      ...change,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("refuses windows that are missing, reversed or longer than 366 days", async () => {
    expect((await call("GET", `${BASE}/events?from=2026-01-01`)).statusCode).toBe(400);
    const reversed = await call("GET", `${BASE}/events?from=2026-02-01&to=2026-01-01`);
    expect(reversed.json().details[0].field).toBe("to");
    const long = await call("GET", `${BASE}/events?from=2026-01-01&to=2027-01-03`);
    expect(long.statusCode).toBe(400);
    expect(long.json().details[0].message).toContain("366");
    expect((await call("GET", `${BASE}/events?from=yesterday&to=2026-01-01`)).statusCode).toBe(400);
  });

  it("gives a student their own agenda: course events, due dates and enrollment expiry, not other courses'", async () => {
    await call("POST", `${BASE}/events`, {
      title: "Aula magna",
      startsAt: day(1).toISOString(),
      contextType: "institution",
    });
    await call("POST", `${BASE}/events`, {
      title: "Só Química",
      startsAt: day(1).toISOString(),
      contextType: "course",
      contextId: otherCourseId,
    });
    await call("POST", `${BASE}/events`, {
      title: "Meu lembrete",
      startsAt: day(4).toISOString(),
      contextType: "user",
      contextId: student.id,
    });
    const res = await call("GET", `${BASE}/events?${windowQuery}&perPage=100`, undefined, {
      cookie: student.cookie,
    });
    expect(res.statusCode).toBe(200);
    const titles = res
      .json()
      .data.map((i: { sourceType: string; title: string }) => `${i.sourceType}:${i.title}`);
    expect(titles).toEqual(
      expect.arrayContaining([
        "manual:Aula magna",
        "lesson_due:Entrega Álgebra",
        "manual:Meu lembrete",
        "enrollment_expiry:Álgebra",
      ]),
    );
    expect(titles).not.toContain("manual:Só Química");
    expect(titles).not.toContain("lesson_due:Entrega Química");
    expect(res.json().pagination.total).toBe(titles.length);
    const starts = res.json().data.map((i: { startsAt: string }) => i.startsAt);
    expect([...starts].sort()).toEqual(starts);

    // Another student's agenda is not theirs to read; staff (a key) may, and sees the same thing.
    const peek = await call("GET", `${BASE}/events?${windowQuery}&userId=${other.id}`, undefined, {
      cookie: student.cookie,
    });
    expect(peek.statusCode).toBe(403);
    const byKey = await call("GET", `${BASE}/events?${windowQuery}&perPage=100&userId=${student.id}`);
    expect(byKey.json().data).toEqual(res.json().data);
    // The institution's view has both courses' due dates and no personal expiries.
    const all = (await call("GET", `${BASE}/events?${windowQuery}&perPage=100`)).json().data;
    const kinds = all.map((i: { sourceType: string; title: string }) => `${i.sourceType}:${i.title}`);
    expect(kinds).toEqual(
      expect.arrayContaining(["lesson_due:Entrega Química", "lesson_due:Entrega Álgebra"]),
    );
    expect(kinds.filter((k: string) => k.startsWith("enrollment_expiry"))).toEqual([]);
    expect(kinds).toContain("manual:Meu lembrete");
    // A teacher's institution view leaves out students' own events.
    const teacher = await userWithSession(a, "teacher");
    const teacherView = (
      await call("GET", `${BASE}/events?${windowQuery}&perPage=100`, undefined, { cookie: teacher.cookie })
    ).json();
    const teacherKinds = teacherView.data.map(
      (i: { sourceType: string; title: string }) => `${i.sourceType}:${i.title}`,
    );
    expect(teacherKinds).toContain("manual:Aula magna");
    expect(teacherKinds).not.toContain("manual:Meu lembrete");
  });

  it("answers 404 for another institution's event on every path, and keeps lists apart", async () => {
    const e = (
      await call("POST", `${BASE}/events`, {
        title: "A",
        startsAt: day(1).toISOString(),
        contextType: "institution",
      })
    ).json();
    const asB = bearer(keyB);
    expect((await call("GET", `${BASE}/events/${e.id}`, undefined, asB, b)).statusCode).toBe(404);
    expect((await call("PATCH", `${BASE}/events/${e.id}`, { title: "B" }, asB, b)).statusCode).toBe(404);
    expect((await call("DELETE", `${BASE}/events/${e.id}`, undefined, asB, b)).statusCode).toBe(404);
    expect((await call("GET", `${BASE}/events/${e.id}`)).json().title).toBe("A");
    const listB = (await call("GET", `${BASE}/events?${windowQuery}`, undefined, asB, b)).json();
    expect(listB.pagination.total).toBe(0);
  });
});

describe("iCalendar feeds", () => {
  it("serves a student's agenda at a secret URL that a parser reads back event by event, in its time zones", async () => {
    const teacherKey = bearer(keyA);
    // Two weeks ahead at 12:00 UTC, so the series stays inside the feed's window (the last 30 days and the next
    // year) whenever the suite runs; a fixed date left it once it was more than 30 days past.
    const weeklyStart = new Date(
      Math.floor(Date.now() / 86_400_000) * 86_400_000 + 14 * 86_400_000 + 43_200_000,
    );
    const weeklyEnd = new Date(weeklyStart.getTime() + 3_600_000);
    const berlinWall = DateTime.fromJSDate(weeklyStart, { zone: "Europe/Berlin" }).toFormat(
      "yyyyMMdd'T'HHmmss",
    );
    const weekly = (
      await call(
        "POST",
        `${BASE}/events`,
        {
          title: "Monitoria",
          startsAt: weeklyStart.toISOString(),
          endsAt: weeklyEnd.toISOString(),
          timezone: "Europe/Berlin",
          contextType: "user",
          contextId: student.id,
          recurrence: "FREQ=WEEKLY;COUNT=3",
        },
        teacherKey,
      )
    ).json();
    // A key cannot issue feeds: they are a person's own.
    const byKey = await call("POST", `${BASE}/feed`);
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error).toBe("session_required");

    const issued = await call("POST", `${BASE}/feed`, undefined, { cookie: student.cookie });
    expect(issued.statusCode).toBe(201);
    const url = new URL(issued.json().url);
    expect(url.pathname).toMatch(/^\/api\/calendar\/feeds\/[0-9a-f]{64}\.ics$/);
    const token = url.pathname.slice("/api/calendar/feeds/".length, -4);
    expect(await tablesContaining(h, token)).toEqual([]);
    expect((await call("GET", `${BASE}/feed`, undefined, { cookie: student.cookie })).json().active).toBe(
      true,
    );

    const feed = await h.inject({ method: "GET", url: url.pathname, headers: { host: a.host } });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers["content-type"]).toMatch(/^text\/calendar/);
    const parsed = nodeIcal.sync.parseICS(feed.body);
    const components = Object.values(parsed).filter((v) => v !== undefined);
    const events = components.filter((v): v is VEvent => v.type === "VEVENT");
    const zones = components.filter((v) => v.type === "VTIMEZONE").map((v) => (v as { tzid: string }).tzid);
    expect(zones).toEqual(expect.arrayContaining(["America/Sao_Paulo", "Europe/Berlin"]));

    const monitoria = events.find((e) => e.summary === "Monitoria");
    expect(monitoria?.uid).toContain(weekly.id);
    expect(monitoria?.start.toISOString()).toBe(weeklyStart.toISOString());
    expect(monitoria?.start.tz).toBe("Europe/Berlin");
    expect(monitoria?.end?.toISOString()).toBe(weeklyEnd.toISOString());
    expect(monitoria?.rrule?.all().map((d) => d.toISOString())).toHaveLength(3);
    expect(feed.body).toContain(`DTSTART;TZID=Europe/Berlin:${berlinWall}`);

    const due = events.find((e) => e.summary === "Entrega Álgebra");
    expect(due?.start.toISOString()).toBe(day(2).toISOString());
    expect(due?.start.tz).toBe("America/Sao_Paulo");
    const expiry = events.find((e) => e.summary === "Álgebra");
    expect(expiry?.start.toISOString()).toBe(day(20).toISOString());
    expect(events.find((e) => e.summary === "Entrega Química")).toBeUndefined();

    // Another institution's host does not know the token; a rotation or a revocation ends the old URL.
    expect((await h.inject({ method: "GET", url: url.pathname, headers: { host: b.host } })).statusCode).toBe(
      404,
    );
    const rotated = new URL(
      (await call("POST", `${BASE}/feed`, undefined, { cookie: student.cookie })).json().url,
    );
    expect(rotated.pathname).not.toBe(url.pathname);
    expect((await h.inject({ method: "GET", url: url.pathname, headers: { host: a.host } })).statusCode).toBe(
      404,
    );
    expect(
      (await h.inject({ method: "GET", url: rotated.pathname, headers: { host: a.host } })).statusCode,
    ).toBe(200);
    expect((await call("DELETE", `${BASE}/feed`, undefined, { cookie: student.cookie })).statusCode).toBe(
      204,
    );
    expect(
      (await h.inject({ method: "GET", url: rotated.pathname, headers: { host: a.host } })).statusCode,
    ).toBe(404);
    expect((await call("DELETE", `${BASE}/feed`, undefined, { cookie: student.cookie })).statusCode).toBe(
      404,
    );
    // The institution's feeds (other test files share the database on PostgreSQL).
    expect(await h.database.db.select().from(calendarFeeds).where(eq(calendarFeeds.tenantId, a.id))).toEqual(
      [],
    );
    expect(
      (await h.inject({ method: "GET", url: "/api/calendar/feeds/nope.ics", headers: { host: a.host } }))
        .statusCode,
    ).toBe(404);
  });
});
