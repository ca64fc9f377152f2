import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { calendarEvents, classGroups, liveClasses } from "../../db/schema/index.js";
import { callApi, type Method, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { bearer, makeKey, roleCookie, type TestTenant } from "../../test-support/harness.js";

// Issue 19, point 1: a recurrence rule that never matches made rrule.js walk day by day to the year 9999 (22 s on
// the event loop, every tenant waiting). Each expansion is now bounded by a span, whatever the rule.

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
let teacherCookie: string;
let groupId: string;

const LIVE = "/api/institution/live-classes";
const EVENTS = "/api/institution/calendar/events";
const HOSTILE = "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=1";
const START = new Date(Math.floor((Date.now() + 7 * 86_400_000) / 60_000) * 60_000).toISOString();
/**
 * Wall-clock budget of one request, and of the event loop's longest stall meanwhile. Before, the hostile rule
 * took 22 s; these leave room for PGlite (which runs its queries on this thread) on a busy machine.
 */
const WALL_MS = 2_000;
const STALL_MS = 1_000;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["live-classes:read", "live-classes:write"]);
  keyB = await makeKey(h, b, ["live-classes:read", "live-classes:write"]);
  teacherCookie = await roleCookie(h, a, "teacher");
  const [group] = await h.database.db
    .insert(classGroups)
    .values({ tenantId: a.id, name: "Turma R" })
    .returning({ id: classGroups.id });
  groupId = (group as { id: string }).id;
});

const call = (
  method: Method,
  url: string,
  headers: Record<string, string>,
  tenant: TestTenant,
  body?: object,
) => callApi(h, tenant, headers, method, url, body, WHOLE_PATHS);

const classBody = (recurrence: string, title = "Aula recorrente") => ({
  title,
  classGroupId: groupId,
  startsAt: START,
  durationMinutes: 60,
  timezone: "America/Sao_Paulo",
  recurrence,
});
const eventBody = (recurrence: string, title = "Evento recorrente") => ({
  title,
  startsAt: START,
  timezone: "America/Sao_Paulo",
  contextType: "institution",
  recurrence,
});

/**
 * Runs `send` while a 5 ms interval notes the longest gap between its ticks (how long the event loop was held),
 * and while another tenant lists its live classes (how long it waited).
 */
async function underWatch(send: () => Promise<{ statusCode: number; body: string }>) {
  let last = performance.now();
  let stall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 5);
  try {
    const began = performance.now();
    const [res, otherMs] = await Promise.all([
      send().then((r) => ({ r, ms: performance.now() - began })),
      call("GET", LIVE, bearer(keyB), b).then((r) => {
        expect(r.statusCode).toBe(200);
        return performance.now() - began;
      }),
    ]);
    stall = Math.max(stall, performance.now() - last);
    return { res: res.r, wall: res.ms, otherMs, stall };
  } finally {
    clearInterval(timer);
  }
}

function expectRefused(res: { statusCode: number; body: string }, message: RegExp) {
  expect(res.statusCode, res.body).toBe(400);
  const body = JSON.parse(res.body);
  expect(body.error).toBe("validation_failed");
  const detail = body.details.find((d: { field: string }) => d.field === "recurrence");
  expect(detail, res.body).toBeDefined();
  expect(detail.message).toMatch(message);
}

const countClasses = async (title: string) =>
  (
    await h.database.db
      .select({ id: liveClasses.id })
      .from(liveClasses)
      .where(and(eq(liveClasses.tenantId, a.id), eq(liveClasses.title, title)))
  ).length;
const countEvents = async (title: string) =>
  (
    await h.database.db
      .select({ id: calendarEvents.id })
      .from(calendarEvents)
      .where(and(eq(calendarEvents.tenantId, a.id), eq(calendarEvents.title, title)))
  ).length;

describe("recurrence rules are bounded by work, not by matches", () => {
  it("refuses the never-matching rule of a teacher's class at once, without holding the event loop", async () => {
    // Warm up the route (first-request compilation is not the rule's cost).
    await call("POST", LIVE, { cookie: teacherCookie }, a, classBody("FREQ=NEVER"));
    const { res, wall, otherMs, stall } = await underWatch(() =>
      call("POST", LIVE, { cookie: teacherCookie }, a, classBody(HOSTILE, "Nunca")),
    );
    expectRefused(res, /no occurrence within 50 years/);
    expect(wall).toBeLessThan(WALL_MS);
    expect(otherMs).toBeLessThan(WALL_MS);
    expect(stall).toBeLessThan(STALL_MS);
    expect(await countClasses("Nunca")).toBe(0);
  });

  it("refuses the never-matching rule of a key's calendar event at once, without holding the event loop", async () => {
    await call("POST", EVENTS, bearer(keyA), a, eventBody("FREQ=NEVER"));
    const { res, wall, otherMs, stall } = await underWatch(() =>
      call("POST", EVENTS, bearer(keyA), a, eventBody(HOSTILE, "Nunca")),
    );
    expectRefused(res, /no occurrence within 50 years/);
    expect(wall).toBeLessThan(WALL_MS);
    expect(otherMs).toBeLessThan(WALL_MS);
    expect(stall).toBeLessThan(STALL_MS);
    expect(await countEvents("Nunca")).toBe(0);
  });

  it.each([
    "FREQ=DAILY;BYMONTH=2,4,6;BYMONTHDAY=31;COUNT=1",
    "FREQ=YEARLY;INTERVAL=400;BYYEARDAY=366;COUNT=1",
    "FREQ=YEARLY;BYWEEKNO=53;BYMONTH=1;BYMONTHDAY=15;COUNT=1",
    "FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30;BYSETPOS=1;COUNT=1",
    "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6;UNTIL=20991231T000000Z",
  ])("refuses %s as never occurring, quickly", async (rule) => {
    const { res, wall, stall } = await underWatch(() =>
      call("POST", EVENTS, bearer(keyA), a, eventBody(rule)),
    );
    expectRefused(res, /no occurrence within 50 years/);
    expect(wall).toBeLessThan(WALL_MS);
    expect(stall).toBeLessThan(STALL_MS);
  });

  it("refuses a rule that does not end within 50 years, and one whose interval leaves the span", async () => {
    for (const rule of ["FREQ=YEARLY;COUNT=60", "FREQ=DAILY;INTERVAL=100000;COUNT=2"]) {
      expectRefused(
        await call("POST", EVENTS, bearer(keyA), a, eventBody(rule)),
        /must end \(COUNT or UNTIL\) within 50 years/,
      );
      expectRefused(
        await call("POST", LIVE, { cookie: teacherCookie }, a, classBody(rule)),
        /must end \(COUNT or UNTIL\) within 50 years/,
      );
    }
  });

  it.each([
    "FREQ=HOURLY;COUNT=3",
    "FREQ=MINUTELY;COUNT=3",
    "FREQ=SECONDLY;COUNT=3",
    "FREQ=DAILY;BYHOUR=9,15;COUNT=4",
    "FREQ=WEEKLY;BYMINUTE=0,30;COUNT=4",
  ])("refuses %s as more often than daily on both routes", async (rule) => {
    expectRefused(await call("POST", EVENTS, bearer(keyA), a, eventBody(rule, "Sub")), /at most once a day/);
    expectRefused(
      await call("POST", LIVE, { cookie: teacherCookie }, a, classBody(rule, "Sub")),
      /at most once a day/,
    );
    expect(await countEvents("Sub")).toBe(0);
    expect(await countClasses("Sub")).toBe(0);
  });

  it("reads an agenda holding a stored never-matching rule without walking it to the year 9999", async () => {
    // A rule stored before these checks (or by any other path): the agenda's expansion is bounded too.
    await h.database.db.insert(calendarEvents).values({
      tenantId: a.id,
      title: "Legado",
      startsAt: START,
      endsAt: new Date(Date.parse(START) + 3_600_000).toISOString(),
      timezone: "America/Sao_Paulo",
      contextType: "institution",
      recurrence: HOSTILE,
      lastEndsAt: new Date(Date.parse(START) + 400 * 86_400_000).toISOString(),
    });
    const from = START.slice(0, 10);
    const to = new Date(Date.parse(START) + 60 * 86_400_000).toISOString().slice(0, 10);
    const { res, wall, stall } = await underWatch(() =>
      call("GET", `${EVENTS}?from=${from}&to=${to}&sourceType=manual`, bearer(keyA), a),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse(res.body).data.filter((i: { title: string }) => i.title === "Legado")).toEqual([]);
    expect(wall).toBeLessThan(WALL_MS);
    expect(stall).toBeLessThan(STALL_MS);
  });

  it("still schedules an ordinary weekly class and a yearly event", async () => {
    const weekly = await call(
      "POST",
      LIVE,
      { cookie: teacherCookie },
      a,
      classBody("FREQ=WEEKLY;BYDAY=TU,TH;COUNT=8"),
    );
    expect(weekly.statusCode, weekly.body).toBe(201);
    expect(weekly.json()).toMatchObject({
      recurrence: "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=8",
      occurrenceCount: 8,
    });
    const yearly = await call("POST", EVENTS, bearer(keyA), a, eventBody("FREQ=YEARLY;COUNT=10"));
    expect(yearly.statusCode, yearly.body).toBe(201);
    expect(yearly.json().recurrence).toBe("FREQ=YEARLY;COUNT=10");
  });
});
