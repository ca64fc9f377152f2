import nodeIcal, { type VEvent } from "node-ical";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { bearer, makeKey, signedInUser } from "../../test-support/harness.js";
import { createModule } from "../course-modules/service.js";
import { createCourse } from "../courses/service.js";
import { createEnrollment } from "../enrollments/service.js";
import { createLesson } from "../lessons/service.js";

/**
 * The feed must not depend on the server's own time zone. Node applies a change of `process.env.TZ` at once (it
 * resets its zone cache on assignment), so each block below runs the same requests as a server started with that
 * `TZ` would; the first assertion of each test checks that the switch took effect, so a test cannot pass by
 * running in UTC unawares. Workers share a process between files (`isolate: false`): the zone is restored after.
 * CI also runs the calendar tests with `TZ=America/Sao_Paulo` from the start (`.ci/run`).
 */

const { h, tenants, call } = useApi({ tenants: 1 });
const [a] = tenants;
let feedPath: string;

const BASE = "/api/institution/calendar";
// A day ten days ahead (UTC date), so the events are inside the feed's window whenever this runs.
const DAY = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
const NEXT_DAY = new Date(Date.parse(`${DAY}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const compact = (date: string) => date.replaceAll("-", "");

beforeAll(async () => {
  const key = bearer(await makeKey(h, a, ["live-classes:read", "live-classes:write"]));
  const { cookie, ...user } = await signedInUser(h, a, "student");
  const event = async (fields: Record<string, unknown>) => {
    const res = await call(a, key, "POST", "/calendar/events", {
      contextType: "user",
      contextId: user.id,
      ...fields,
    });
    expect(res.statusCode).toBe(201);
  };
  // 19:00–20:30 in São Paulo (UTC−3), 19:00–20:00 in Kolkata (UTC+5:30) and in UTC, and a whole day in São Paulo.
  await event({
    title: "Aula noturna",
    startsAt: `${DAY}T22:00:00.000Z`,
    endsAt: `${DAY}T23:30:00.000Z`,
    timezone: "America/Sao_Paulo",
  });
  await event({
    title: "Evening class",
    startsAt: `${DAY}T13:30:00.000Z`,
    endsAt: `${DAY}T14:30:00.000Z`,
    timezone: "Asia/Kolkata",
  });
  await event({
    title: "Call in UTC",
    startsAt: `${DAY}T19:00:00.000Z`,
    endsAt: `${DAY}T20:00:00.000Z`,
    timezone: "UTC",
  });
  await event({
    title: "Feriado",
    startsAt: `${DAY}T03:00:00.000Z`,
    allDay: true,
    timezone: "America/Sao_Paulo",
  });
  // An agenda item that is not a custom event: a lesson due at 19:00 in the institution's zone (São Paulo).
  const db = h.database.db;
  const course = await createCourse(db, a.id, { title: "Álgebra", status: "published" });
  const mod = await createModule(db, a.id, course.id, { title: "Módulo", status: "published" });
  await createLesson(db, a.id, mod.id, {
    title: "Entrega Álgebra",
    type: "assignment",
    status: "published",
    dueAt: `${DAY}T22:00:00.000Z`,
  });
  await createEnrollment(
    db,
    h.config.plans,
    a.id,
    { kind: "system" },
    { userId: user.id, courseId: course.id },
  );
  const issued = await h.inject({
    method: "POST",
    url: `${BASE}/feed`,
    headers: { host: a.host, cookie },
  });
  expect(issued.statusCode).toBe(201);
  feedPath = new URL(issued.json().url).pathname;
});

/** The process's offset from UTC in minutes east, as `Date`'s local getters see it. */
const processOffset = () => 0 - new Date(`${DAY}T12:00:00Z`).getTimezoneOffset();

describe.each([
  { zone: "UTC", offset: 0 },
  { zone: "America/Sao_Paulo", offset: -180 },
  { zone: "Asia/Kolkata", offset: 330 },
])("the iCalendar feed on a server whose TZ is $zone", ({ zone, offset }) => {
  let previous: string | undefined;
  beforeAll(() => {
    previous = process.env.TZ;
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  });

  it("writes each time at its wall clock in the event's zone, with that zone's VTIMEZONE", async () => {
    expect(processOffset()).toBe(offset);
    const feed = await h.inject({ method: "GET", url: feedPath, headers: { host: a.host } });
    expect(feed.statusCode).toBe(200);
    const body = feed.body;

    // 19:00 where the event is, whatever the server's zone.
    expect(body).toContain(`DTSTART;TZID=America/Sao_Paulo:${compact(DAY)}T190000`);
    expect(body).toContain(`DTEND;TZID=America/Sao_Paulo:${compact(DAY)}T203000`);
    expect(body).toContain(`DTSTART;TZID=Asia/Kolkata:${compact(DAY)}T190000`);
    expect(body).toContain(`DTEND;TZID=Asia/Kolkata:${compact(DAY)}T200000`);
    expect(body).toContain(`DTSTART:${compact(DAY)}T190000Z`);
    // A whole day is its date in its zone, not the day before or after.
    expect(body).toContain(`DTSTART;VALUE=DATE:${compact(DAY)}`);
    expect(body).toContain(`DTEND;VALUE=DATE:${compact(NEXT_DAY)}`);

    // An iCalendar parser reads back the same instants, in the same zones.
    const components = Object.values(nodeIcal.sync.parseICS(body)).filter((v) => v !== undefined);
    const events = components.filter((v): v is VEvent => v.type === "VEVENT");
    const byTitle = (title: string) => events.find((e) => e.summary === title);
    const evening = byTitle("Aula noturna");
    expect(evening?.start.toISOString()).toBe(`${DAY}T22:00:00.000Z`);
    expect(evening?.end?.toISOString()).toBe(`${DAY}T23:30:00.000Z`);
    expect(evening?.start.tz).toBe("America/Sao_Paulo");
    const kolkata = byTitle("Evening class");
    expect(kolkata?.start.toISOString()).toBe(`${DAY}T13:30:00.000Z`);
    expect(kolkata?.start.tz).toBe("Asia/Kolkata");
    const due = byTitle("Entrega Álgebra");
    expect(due?.start.toISOString()).toBe(`${DAY}T22:00:00.000Z`);
    expect(due?.start.tz).toBe("America/Sao_Paulo");
    expect(byTitle("Feriado")?.datetype).toBe("date");

    const zones = components.filter((v) => v.type === "VTIMEZONE").map((v) => (v as { tzid: string }).tzid);
    expect(zones.sort()).toEqual(["America/Sao_Paulo", "Asia/Kolkata"]);
    // Every TZID names one of them, though the runtime may call Kolkata by its old alias (Asia/Calcutta).
    const tzids = new Set([...body.matchAll(/;TZID=([^:;]+)[:;]/g)].map((m) => m[1]));
    expect([...tzids].sort()).toEqual(zones);
  });

  it("stamps every event in UTC, with the Z that RFC 5545 requires", async () => {
    expect(processOffset()).toBe(offset);
    const before = Math.floor(Date.now() / 1000) * 1000;
    const feed = await h.inject({ method: "GET", url: feedPath, headers: { host: a.host } });
    const after = Date.now();
    const stamps = feed.body.split("\r\n").filter((line) => line.startsWith("DTSTAMP"));
    expect(stamps).toHaveLength(5);
    for (const line of stamps) {
      const m = /^DTSTAMP:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(line);
      expect(m, line).not.toBeNull();
      const [, y, mo, d, hh, mm, ss] = (m as RegExpExecArray).map(Number);
      const at = Date.UTC(y as number, (mo as number) - 1, d, hh, mm, ss);
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
    }
  });
});
