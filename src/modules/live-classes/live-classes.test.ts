import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import nodeIcal, { type VEvent } from "node-ical";
import { beforeAll, describe, expect, it } from "vitest";
import {
  classGroupMembers,
  classGroups,
  lessonCompletions,
  liveClasses,
  platformEvents,
  webhookDeliveries,
} from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { fakeVideoEnv, useFakeVideo } from "../../test-support/fake-video.js";
import { adminCookie, bearer, makeKey, type SignedInUser, signedInUser } from "../../test-support/harness.js";
import { automationDeps } from "../automations/service.js";
import { createModule } from "../course-modules/service.js";
import { createCourse } from "../courses/service.js";
import { createEnrollment } from "../enrollments/service.js";
import { createLesson } from "../lessons/service.js";
import { createEndpoint } from "../webhooks/service.js";

const fake = useFakeVideo();
const { h, tenants } = useApi({ env: () => fakeVideoEnv(fake), tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
let adminA: Record<string, string>;
let teacher: SignedInUser;
let member: SignedInUser;
let outsider: SignedInUser;
let groupId: string;
let courseId: string;
let lessonId: string;

const BASE = "/api/institution/live-classes";
// Whole minutes in the future, so occurrence times compare exactly.
const START = new Date(Math.floor((Date.now() + 7 * 86_400_000) / 60_000) * 60_000).toISOString();

beforeAll(async () => {
  keyA = await makeKey(h, a, ["live-classes:read", "live-classes:write"]);
  keyB = await makeKey(h, b, ["live-classes:read", "live-classes:write"]);
  adminA = { cookie: await adminCookie(h, a) };
  teacher = await signedInUser(h, a, "teacher");
  member = await signedInUser(h, a, "student");
  outsider = await signedInUser(h, a, "student");
  const db = h.database.db;
  const [group] = await db
    .insert(classGroups)
    .values({ tenantId: a.id, name: "Turma A" })
    .returning({ id: classGroups.id });
  groupId = (group as { id: string }).id;
  await db.insert(classGroupMembers).values({ tenantId: a.id, classGroupId: groupId, userId: member.id });
  const course = await createCourse(db, a.id, { title: "Álgebra", status: "published" });
  courseId = course.id;
  const mod = await createModule(db, a.id, courseId, { title: "M1", status: "published" });
  lessonId = (
    await createLesson(db, a.id, mod.id, { title: "Aula ao vivo", type: "assignment", status: "published" })
  ).id;
  await createEnrollment(db, h.config.plans, a.id, { kind: "system" }, { userId: member.id, courseId });
});

const call = callerFor(h, () => ({ tenant: a, credential: bearer(keyA) }), WHOLE_PATHS);

const events = async (type: string) =>
  (
    await h.database.db
      .select({ data: platformEvents.data })
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, type)))
  ).map((r) => r.data as Record<string, unknown>);

async function schedule(extra: Record<string, unknown> = {}) {
  const res = await call("POST", BASE, {
    title: "Revisão semanal",
    classGroupId: groupId,
    hostUserId: teacher.id,
    startsAt: START,
    durationMinutes: 60,
    timezone: "America/Sao_Paulo",
    recurrence: "FREQ=WEEKLY;COUNT=4",
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const occurrencesOf = async (id: string) => (await call("GET", `${BASE}/${id}/occurrences`)).json().data;

describe("live classes", () => {
  it("schedules a recurring class for a class group on Jitsi, with occurrences in the calendar and per-user links", async () => {
    const c = await schedule();
    expect(c).toMatchObject({
      title: "Revisão semanal",
      classGroupId: groupId,
      hostUserId: teacher.id,
      provider: "jitsi",
      videoProviderId: null,
      status: "scheduled",
      occurrenceCount: 4,
      recurrence: "FREQ=WEEKLY;COUNT=4",
      timezone: "America/Sao_Paulo",
    });
    expect(c.nextOccurrence.startsAt).toBe(START);
    expect(JSON.stringify(c)).not.toContain("roomSecret");
    const occ = await occurrencesOf(c.id);
    expect(occ).toHaveLength(4);
    // Weekly on São Paulo's wall clock (no daylight saving there): exactly 7 days apart.
    expect(occ.map((o: { startsAt: string }) => Date.parse(o.startsAt) - Date.parse(START))).toEqual([
      0,
      7 * 86_400_000,
      14 * 86_400_000,
      21 * 86_400_000,
    ]);
    expect((await events("live_class_scheduled")).find((e) => e.liveClassId === c.id)).toMatchObject({
      occurrences: 4,
      provider: "jitsi",
      classGroupId: groupId,
    });

    // The member's agenda holds the occurrences; the outsider's does not.
    // Dates are read on the institution's calendar: START's UTC date would begin after START when the test runs
    // just after midnight UTC (21:00 in São Paulo), so the window opens the day before.
    const from = new Date(Date.parse(START) - 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.parse(START) + 30 * 86_400_000).toISOString().slice(0, 10);
    const agenda = (
      await call(
        "GET",
        `/api/institution/calendar/events?from=${from}&to=${to}&sourceType=live_class`,
        undefined,
        { cookie: member.cookie },
      )
    ).json();
    expect(
      agenda.data
        .filter((i: { sourceId: string }) => i.sourceId === c.id)
        .map((i: { occurrenceId: string }) => i.occurrenceId),
    ).toEqual(occ.map((o: { id: string }) => o.id));
    const theirs = (
      await call(
        "GET",
        `/api/institution/calendar/events?from=${from}&to=${to}&sourceType=live_class`,
        undefined,
        { cookie: outsider.cookie },
      )
    ).json();
    expect(theirs.data.filter((i: { sourceId: string }) => i.sourceId === c.id)).toEqual([]);

    // The member's iCalendar feed holds each occurrence as its own event, in the class's time zone.
    const feedUrl = new URL(
      (await call("POST", "/api/institution/calendar/feed", undefined, { cookie: member.cookie })).json().url,
    );
    const ics = await h.inject({ method: "GET", url: feedUrl.pathname, headers: { host: a.host } });
    const vevents = Object.values(nodeIcal.sync.parseICS(ics.body)).filter(
      (v): v is VEvent => v !== undefined && v.type === "VEVENT" && v.summary === "Revisão semanal",
    );
    const mine = vevents.filter((v) => occ.some((o: { id: string }) => v.uid.includes(o.id)));
    expect(mine.map((v) => v.start.toISOString()).sort()).toEqual(
      occ.map((o: { startsAt: string }) => o.startsAt),
    );
    expect(mine.map((v) => v.start.tz)).toEqual(occ.map(() => "America/Sao_Paulo"));
    expect(mine.map((v) => v.end?.toISOString()).sort()).toEqual(
      occ.map((o: { endsAt: string }) => o.endsAt),
    );

    const link = await call("POST", `${BASE}/${c.id}/join-links`, {}, { cookie: member.cookie });
    expect(link.statusCode).toBe(200);
    const secret = (
      await h.database.db
        .select({ s: liveClasses.roomSecret })
        .from(liveClasses)
        .where(eq(liveClasses.id, c.id))
    )[0]?.s;
    expect(link.json()).toMatchObject({
      occurrenceId: occ[0].id,
      userId: member.id,
      role: "attendee",
      provider: "jitsi",
    });
    expect(link.json().url).toBe(
      `https://meet.jit.si/aula-${secret}-${occ[0].id}#userInfo.displayName=${encodeURIComponent(JSON.stringify((await call("GET", `/api/institution/users/${member.id}`, undefined, adminA)).json().name))}`,
    );
    const hostLink = await call(
      "POST",
      `${BASE}/${c.id}/join-links`,
      { occurrenceId: occ[1].id },
      { cookie: teacher.cookie },
    );
    expect(hostLink.json()).toMatchObject({ role: "host", occurrenceId: occ[1].id });
    expect(hostLink.json().url).toContain(`aula-${secret}-${occ[1].id}`);

    expect(
      (await call("POST", `${BASE}/${c.id}/join-links`, {}, { cookie: outsider.cookie })).statusCode,
    ).toBe(403);
    expect(
      (await call("POST", `${BASE}/${c.id}/join-links`, { userId: member.id }, { cookie: outsider.cookie }))
        .statusCode,
    ).toBe(403);
    expect((await call("POST", `${BASE}/${c.id}/join-links`, {})).statusCode).toBe(400);
    expect((await call("POST", `${BASE}/${c.id}/join-links`, { userId: member.id })).statusCode).toBe(200);
  });

  it.each([
    [{ recurrence: "FREQ=NEVER" }, "recurrence"],
    [{ recurrence: "FREQ=DAILY" }, "recurrence"],
    [{ startsAt: "2020-01-01T10:00:00.000Z" }, "startsAt"],
    [{ classGroupId: null }, "courseId"],
    [{ durationMinutes: 3 }, "durationMinutes"],
    [{ timezone: "Nowhere/City" }, "timezone"],
    [{ lessonId: "6f1c1e5d-554c-4e9b-8a2f-0f4c3e8a1100" }, "lessonId"],
    [{ videoProviderId: "6f1c1e5d-554c-4e9b-8a2f-0f4c3e8a1100" }, "videoProviderId"],
    [{ extra: 1 }, "extra"],
  ])("refuses %j with 400 naming %s", async (change, field) => {
    const res = await call("POST", BASE, {
      title: "X",
      classGroupId: groupId,
      hostUserId: teacher.id,
      startsAt: START,
      durationMinutes: 60,
      ...change,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("shows a student the classes of their audience only; staff and keys see the institution's", async () => {
    const theirs = await schedule({ title: "Da turma" });
    const invited = await schedule({ title: "Convite", classGroupId: undefined, inviteeIds: [outsider.id] });
    const student = { cookie: member.cookie };
    const listed = async (who: Record<string, string>) =>
      ((await call("GET", `${BASE}?perPage=100`, undefined, who)).json().data as { id: string }[]).map(
        (c) => c.id,
      );
    const mine = await listed(student);
    expect(mine).toContain(theirs.id);
    expect(mine).not.toContain(invited.id);
    const page = (await call("GET", `${BASE}?perPage=100`, undefined, student)).json();
    expect(page.pagination.total).toBe(page.data.length);
    expect((await call("GET", `${BASE}/${invited.id}`, undefined, student)).statusCode).toBe(404);
    expect((await call("GET", `${BASE}/${invited.id}/occurrences`, undefined, student)).statusCode).toBe(404);
    expect((await call("GET", `${BASE}/${theirs.id}`, undefined, student)).statusCode).toBe(200);
    const invitee = { cookie: outsider.cookie };
    expect(await listed(invitee)).toEqual(expect.arrayContaining([invited.id]));
    expect(await listed(invitee)).not.toContain(theirs.id);
    expect((await call("GET", `${BASE}/${invited.id}`, undefined, invitee)).statusCode).toBe(200);
    for (const staff of [{ cookie: teacher.cookie }, bearer(keyA)]) {
      expect(await listed(staff)).toEqual(expect.arrayContaining([theirs.id, invited.id]));
    }
  });

  it("refuses a student as host", async () => {
    const res = await call("POST", BASE, {
      title: "X",
      classGroupId: groupId,
      hostUserId: member.id,
      startsAt: START,
      durationMinutes: 60,
    });
    expect(res.json().details[0].field).toBe("hostUserId");
    expect(
      (
        await call(
          "POST",
          BASE,
          { title: "X", classGroupId: groupId, startsAt: START, durationMinutes: 60 },
          { cookie: member.cookie },
        )
      ).statusCode,
    ).toBe(403);
  });

  it("starts, ends and cancels occurrences with their events, and cancels the class", async () => {
    const c = await schedule();
    const [first, second, third] = await occurrencesOf(c.id);
    const url = (o: { id: string }, action: string) => `${BASE}/${c.id}/occurrences/${o.id}/${action}`;
    expect((await call("POST", url(first, "end"))).statusCode).toBe(409);
    const started = await call("POST", url(first, "start"));
    expect(started.json()).toMatchObject({ status: "live" });
    expect(started.json().startedAt).not.toBeNull();
    expect((await call("GET", `${BASE}/${c.id}`)).json().status).toBe("live");
    expect((await call("POST", url(first, "end"))).json().status).toBe("ended");
    expect((await call("GET", `${BASE}/${c.id}`)).json()).toMatchObject({
      status: "scheduled",
      nextOccurrence: { id: second.id },
    });
    expect((await call("POST", url(second, "cancel"))).json().status).toBe("canceled");
    expect((await call("POST", url(second, "cancel"))).statusCode).toBe(409);
    expect((await events("live_class_started")).filter((e) => e.occurrenceId === first.id)).toHaveLength(1);
    expect((await events("live_class_ended")).filter((e) => e.occurrenceId === first.id)).toHaveLength(1);
    expect((await events("live_class_canceled")).filter((e) => e.occurrenceId === second.id)).toHaveLength(1);
    // The schedule has history now: it cannot be rebuilt.
    expect((await call("PATCH", `${BASE}/${c.id}`, { durationMinutes: 90 })).statusCode).toBe(409);
    expect((await call("PATCH", `${BASE}/${c.id}`, { title: "Renomeada" })).json().title).toBe("Renomeada");
    // Joining an ended or canceled occurrence is 409.
    expect(
      (await call("POST", `${BASE}/${c.id}/join-links`, { userId: member.id, occurrenceId: first.id }))
        .statusCode,
    ).toBe(409);

    expect((await call("DELETE", `${BASE}/${c.id}`)).statusCode).toBe(204);
    const after = await occurrencesOf(c.id);
    expect(after.map((o: { status: string }) => o.status)).toEqual([
      "ended",
      "canceled",
      "canceled",
      "canceled",
    ]);
    expect((await call("GET", `${BASE}/${c.id}`)).json()).toMatchObject({
      status: "canceled",
      nextOccurrence: null,
    });
    expect(
      (await events("live_class_canceled")).filter((e) => e.liveClassId === c.id && e.occurrenceId === null),
    ).toHaveLength(1);
    expect((await call("DELETE", `${BASE}/${c.id}`)).statusCode).toBe(204);
    expect((await events("live_class_canceled")).filter((e) => e.liveClassId === c.id)).toHaveLength(2);
    void third;
  });

  it("rebuilds the occurrences when the schedule changes before any has happened", async () => {
    const c = await schedule();
    const later = new Date(Date.parse(START) + 3_600_000).toISOString();
    const res = await call("PATCH", `${BASE}/${c.id}`, { startsAt: later, recurrence: "FREQ=DAILY;COUNT=2" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      occurrenceCount: 2,
      recurrence: "FREQ=DAILY;COUNT=2",
      startsAt: later,
    });
    expect((await occurrencesOf(c.id)).map((o: { startsAt: string }) => o.startsAt)).toEqual([
      later,
      new Date(Date.parse(later) + 86_400_000).toISOString(),
    ]);
  });

  it("grades attendance into the course's grade item fed by the class: present or late over the sessions recorded, excused left out", async () => {
    const c = await schedule({ classGroupId: null, courseId });
    const [o1, o2, o3] = await occurrencesOf(c.id);
    const asAdmin = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
      h.inject({
        method,
        url,
        headers: {
          host: a.host,
          ...adminA,
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });
    const item = await asAdmin("POST", `/api/institution/courses/${courseId}/grade-items`, {
      title: "Presença",
      maxPoints: 10,
      sourceType: "live_class",
      sourceId: c.id,
    });
    expect(item.statusCode, item.body).toBe(201);
    const scoreOf = async () => {
      const res = await asAdmin("GET", `/api/institution/grade-items/${item.json().id}/grades`);
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json()
        .data.map((g: { userId: string; score: number; source: string }) => [g.userId, g.score, g.source]);
    };
    const take = (occurrenceId: string, status: string, userId = member.id) =>
      call("PUT", `${BASE}/${c.id}/attendance`, { occurrenceId, records: [{ userId, status }] });
    expect((await take(o1.id, "present")).statusCode).toBe(200);
    // The outsider is no student of the course: attendance recorded, no grade.
    expect((await take(o1.id, "present", outsider.id)).statusCode).toBe(200);
    expect(await scoreOf()).toEqual([[member.id, 10, "auto"]]);
    await take(o2.id, "absent");
    expect(await scoreOf()).toEqual([[member.id, 5, "auto"]]);
    await take(o3.id, "excused");
    expect(await scoreOf()).toEqual([[member.id, 5, "auto"]]);
    // A correction moves the grade: the second session was attended late after all.
    await take(o2.id, "late");
    expect(await scoreOf()).toEqual([[member.id, 10, "auto"]]);
  });

  it("records attendance by hand: past the threshold it emits live_class_attended once and completes the lesson", async () => {
    const c = await schedule({ lessonId, classGroupId: null, attendanceThresholdMinutes: 45 });
    expect(c.courseId).toBe(courseId);
    const [first] = await occurrencesOf(c.id);
    const put = await call("PUT", `${BASE}/${c.id}/attendance`, {
      occurrenceId: first.id,
      records: [
        { userId: member.id, status: "present", durationSeconds: 50 * 60 },
        { userId: outsider.id, status: "present", durationSeconds: 10 * 60 },
      ],
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ recorded: 2, attended: 1, unmatched: [] });
    const list = (await call("GET", `${BASE}/${c.id}/attendance?occurrenceId=${first.id}`)).json();
    expect(list.pagination.total).toBe(2);
    expect(list.data.find((r: { userId: string }) => r.userId === member.id)).toMatchObject({
      source: "manual",
      attended: true,
      durationSeconds: 3000,
    });
    expect((await events("live_class_attended")).filter((e) => e.liveClassId === c.id)).toEqual([
      {
        liveClassId: c.id,
        occurrenceId: first.id,
        userId: member.id,
        durationSeconds: 3000,
        status: "present",
        source: "manual",
        lessonId,
      },
    ]);
    const completions = await h.database.db
      .select()
      .from(lessonCompletions)
      .where(and(eq(lessonCompletions.tenantId, a.id), eq(lessonCompletions.lessonId, lessonId)));
    expect(completions.map((r) => [r.userId, r.source])).toEqual([[member.id, "live_class"]]);
    expect((await events("lesson_completed")).filter((e) => e.lessonId === lessonId)).toHaveLength(1);
    // Recording again changes the row, not the history: no second event.
    const again = await call("PUT", `${BASE}/${c.id}/attendance`, {
      occurrenceId: first.id,
      records: [{ userId: member.id, status: "late", durationSeconds: 3600 }],
    });
    expect(again.json().attended).toBe(0);
    expect((await events("live_class_attended")).filter((e) => e.liveClassId === c.id)).toHaveLength(1);
    // Jitsi reports no attendance.
    const sync = await call("POST", `${BASE}/${c.id}/occurrences/${first.id}/attendance/sync`);
    expect(sync.statusCode).toBe(409);
    expect(sync.json().message).toContain("does not report attendance");
    const unknown = await call("PUT", `${BASE}/${c.id}/attendance`, {
      occurrenceId: first.id,
      records: [{ userId: "6f1c1e5d-554c-4e9b-8a2f-0f4c3e8a1100", status: "present" }],
    });
    expect(unknown.statusCode).toBe(400);
  });

  it("creates BigBlueButton meetings with a valid checksum and signs join URLs by the API's rule", async () => {
    const provider = (
      await call(
        "POST",
        "/api/institution/video-providers",
        {
          provider: "bigbluebutton",
          purpose: "live",
          name: "BBB",
          credentials: { sharedSecret: fake.bbbSecret },
          settings: { baseUrl: `${fake.url}/bigbluebutton` },
        },
        adminA,
      )
    ).json();
    const c = await schedule({ videoProviderId: provider.id, recurrence: null });
    expect(c.provider).toBe("bigbluebutton");
    const link = (await call("POST", `${BASE}/${c.id}/join-links`, {}, { cookie: teacher.cookie })).json();
    const create = fake.requests.filter((r) => r.path === "/bigbluebutton/api/create").at(-1);
    expect(create?.query).toContain(`meetingID=aula-`);
    const url = new URL(link.url);
    expect(url.pathname).toBe("/bigbluebutton/api/join");
    expect(url.searchParams.get("role")).toBe("MODERATOR");
    const unsigned = url.search.slice(1).replace(/&checksum=[0-9a-f]+$/, "");
    expect(url.searchParams.get("checksum")).toBe(
      createHash("sha1").update(`join${unsigned}${fake.bbbSecret}`).digest("hex"),
    );
    // The stand-in accepts the signed join too.
    const res = await fetch(link.url);
    expect(await res.text()).toContain("SUCCESS");
    // A connection in use by a scheduled class cannot be deleted.
    expect(
      (await call("DELETE", `/api/institution/video-providers/${provider.id}`, undefined, adminA)).statusCode,
    ).toBe(409);
  });

  it("creates one Zoom meeting per occurrence through the API and takes attendance from its participants report", async () => {
    const provider = (
      await call(
        "POST",
        "/api/institution/video-providers",
        { provider: "zoom", purpose: "live", name: "Zoom", credentials: { ...fake.zoom } },
        adminA,
      )
    ).json();
    const c = await schedule({
      videoProviderId: provider.id,
      lessonId,
      classGroupId: null,
      attendanceThresholdMinutes: 30,
    });
    const [first] = await occurrencesOf(c.id);
    const before = fake.meetings.size;
    const link = (await call("POST", `${BASE}/${c.id}/join-links`, {}, { cookie: member.cookie })).json();
    expect(fake.meetings.size).toBe(before + 1);
    const meeting = [...fake.meetings.values()].at(-1) as Record<string, unknown>;
    expect(meeting).toMatchObject({
      topic: "Revisão semanal",
      type: 2,
      duration: 60,
      timezone: "America/Sao_Paulo",
      start_time: START.replace(".000Z", "Z"),
    });
    expect(link.url).toBe(meeting.join_url);
    await call("POST", `${BASE}/${c.id}/join-links`, { userId: member.id });
    expect(fake.meetings.size).toBe(before + 1);

    const startMs = Date.parse(first.startsAt);
    const at = (minutes: number) => new Date(startMs + minutes * 60_000).toISOString().replace(".000Z", "Z");
    fake.participants.set(String(meeting.id), [
      {
        id: "p1",
        name: "Member",
        user_email: member.email.toUpperCase(),
        join_time: at(1),
        leave_time: at(20),
        duration: 19 * 60,
      },
      {
        id: "p1",
        name: "Member",
        user_email: member.email,
        join_time: at(25),
        leave_time: at(40),
        duration: 15 * 60,
      },
      {
        id: "p2",
        name: "Guest",
        user_email: "guest@elsewhere.test",
        join_time: at(0),
        leave_time: at(60),
        duration: 3600,
      },
      {
        id: "p3",
        name: "Teacher",
        user_email: teacher.email,
        join_time: at(15),
        leave_time: at(60),
        duration: 45 * 60,
      },
    ]);
    const synced = await call("POST", `${BASE}/${c.id}/occurrences/${first.id}/attendance/sync`);
    expect(synced.statusCode, synced.body).toBe(200);
    expect(synced.json()).toEqual({ recorded: 2, attended: 2, unmatched: ["guest@elsewhere.test"] });
    const rows = (await call("GET", `${BASE}/${c.id}/attendance`)).json().data;
    expect(rows.find((r: { userId: string }) => r.userId === member.id)).toMatchObject({
      durationSeconds: 34 * 60,
      status: "present",
      source: "provider",
      joinedAt: new Date(startMs + 60_000).toISOString(),
    });
    expect(rows.find((r: { userId: string }) => r.userId === teacher.id)).toMatchObject({ status: "late" });
    const attended = (await events("live_class_attended")).filter((e) => e.liveClassId === c.id);
    expect(attended.map((e) => [e.userId, e.source])).toEqual(
      expect.arrayContaining([
        [member.id, "provider"],
        [teacher.id, "provider"],
      ]),
    );
    const bearerHeader = fake.requests
      .filter((r) => r.path.startsWith("/v2/past_meetings"))
      .at(-1)?.authorization;
    expect(bearerHeader).toMatch(/^Bearer [0-9a-f]{32}$/);
    // A second sync records again and emits nothing new.
    expect(
      (await call("POST", `${BASE}/${c.id}/occurrences/${first.id}/attendance/sync`)).json().attended,
    ).toBe(0);

    // A Zoom that refuses the credentials is a 502 for the join link, in the contract's envelope.
    await call(
      "PATCH",
      `/api/institution/video-providers/${provider.id}`,
      { credentials: { ...fake.zoom, clientSecret: "nope" } },
      adminA,
    );
    const [, second] = await occurrencesOf(c.id);
    const failed = await call("POST", `${BASE}/${c.id}/join-links`, {
      userId: member.id,
      occurrenceId: second.id,
    });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error).toBe("video_provider_error");
    expect(failed.body).not.toContain("nope");
  });

  it("delivers live_class_* events to the endpoints and automations subscribed to them", async () => {
    const endpoint = await createEndpoint(automationDeps(h.ctx), a.id, {
      url: `${fake.url}/hook`,
      eventTypes: ["live_class_scheduled", "live_class_started"],
    });
    const c = await schedule({ recurrence: null });
    const [first] = await occurrencesOf(c.id);
    await call("POST", `${BASE}/${c.id}/occurrences/${first.id}/start`);
    const rows = await h.database.db
      .select({ eventId: webhookDeliveries.eventId })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.tenantId, a.id), eq(webhookDeliveries.automationId, endpoint.id)));
    const types = await Promise.all(
      rows.map(async (r) => {
        const [e] = await h.database.db.select().from(platformEvents).where(eq(platformEvents.id, r.eventId));
        return [e?.type, (e?.data as { liveClassId?: string } | undefined)?.liveClassId];
      }),
    );
    expect(types).toEqual(
      expect.arrayContaining([
        ["live_class_scheduled", c.id],
        ["live_class_started", c.id],
      ]),
    );
    expect(types).toHaveLength(2);
  });

  it("answers 404 for another institution's class on every path, changing nothing", async () => {
    const c = await schedule();
    const [first] = await occurrencesOf(c.id);
    const asB = bearer(keyB);
    const paths: [string, string, unknown?][] = [
      ["GET", `${BASE}/${c.id}`],
      ["PATCH", `${BASE}/${c.id}`, { title: "B" }],
      ["DELETE", `${BASE}/${c.id}`],
      ["GET", `${BASE}/${c.id}/occurrences`],
      ["POST", `${BASE}/${c.id}/occurrences/${first.id}/start`],
      ["POST", `${BASE}/${c.id}/occurrences/${first.id}/cancel`],
      ["POST", `${BASE}/${c.id}/join-links`, { userId: member.id }],
      ["GET", `${BASE}/${c.id}/attendance`],
      [
        "PUT",
        `${BASE}/${c.id}/attendance`,
        { occurrenceId: first.id, records: [{ userId: member.id, status: "present" }] },
      ],
      ["POST", `${BASE}/${c.id}/occurrences/${first.id}/attendance/sync`],
    ];
    for (const [method, url, body] of paths) {
      const res = await call(method as "GET", url, body, asB, b);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call("GET", `${BASE}/${c.id}`)).json()).toMatchObject({
      title: "Revisão semanal",
      status: "scheduled",
    });
    expect((await call("GET", BASE, undefined, asB, b)).json().pagination.total).toBe(0);
  });
});

describe("live classes counters", () => {
  it("agree with a recount after the creates, edits and cancels above, and are the list's total", async () => {
    for (const tenant of [a, b]) {
      const { rows } = (await h.database.db.execute(sql`
        WITH kept AS (
          SELECT counter, value::int AS value FROM tenant_counters
          WHERE tenant_id = ${tenant.id} AND counter ~ '^live_classes(:|$)' AND value <> 0
        ), recount AS (
          SELECT 'live_classes' AS counter, count(*)::int AS value FROM live_classes WHERE tenant_id = ${tenant.id}
          HAVING count(*) > 0
          UNION ALL
          SELECT 'live_classes:status:' || status, count(*)::int FROM live_classes
          WHERE tenant_id = ${tenant.id} GROUP BY status
        )
        SELECT coalesce(kept.counter, recount.counter) AS counter, kept.value AS kept, recount.value AS recounted
        FROM kept FULL JOIN recount ON recount.counter = kept.counter
        ORDER BY 1`)) as unknown as {
        rows: { counter: string; kept: number | null; recounted: number | null }[];
      };
      expect(rows.filter((r) => r.kept !== r.recounted)).toEqual([]);
    }
    const canceled = (await call("GET", `${BASE}?status=canceled&perPage=100`)).json();
    expect(canceled.data.length).toBeGreaterThan(0);
    expect(canceled.pagination).toMatchObject({ total: canceled.data.length, totalRelation: "eq" });
    const all = (await call("GET", `${BASE}?perPage=100`)).json();
    expect(all.pagination).toMatchObject({ total: all.data.length, totalRelation: "eq" });
  });
});
