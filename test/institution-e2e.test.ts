/**
 * An institution set up end to end through the public API (issue 12, "How it is proven"): an administrator sets
 * the time zone and language, brands the sign-in page with a logo, uploads a course video to local disk and a PDF
 * to an S3-compatible store, builds a course on them, schedules a weekly live class for a class group across a
 * daylight-saving change, and invites the group's students; the invitations reach a real SMTP server, each in its
 * student's language, and are accepted with the links they carry; a student's iCalendar feed, read by node-ical,
 * holds the live class at 19:00 on the institution's wall clock, and nothing of another institution.
 *
 * Real components, started here: an SMTP server (smtp-server + mailparser), an S3-compatible server (s3rver),
 * node-ical. The mail is sent by the worker's own drain with the configured transport.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "@20minutes/s3rver";
import { and, eq } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import nodeIcal, { type VEvent } from "node-ical";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { classGroupMembers, emailMessages, media, platformEvents, tenants } from "../src/db/schema/index.js";
import { createMailTransport, type MailTransport } from "../src/modules/email/transport.js";
import { drainMail } from "../src/modules/email/worker.js";
import type { App } from "../src/platform/http/types.js";
import {
  adminCookie,
  type Harness,
  json,
  makeTenant,
  makeUser,
  sessionCookie,
  startHarness,
  TEST_PASSWORD,
  type TestTenant,
} from "../src/test-support/harness.js";
import { mediaDir, pathOf } from "../src/test-support/media-client.js";
import { mp4, pdf, png } from "../src/test-support/media-files.js";
import { ResponseCheck } from "../src/test-support/response-check.js";
import { type SmtpSink, startSmtpSink } from "../src/test-support/smtp-sink.js";

const ZONE = "America/New_York";
const DAY = 86_400_000;
const HOUR = 3_600_000;

let h: Harness;
/** The same deployment after its operator set MEDIA_STORAGE=s3 (see beforeAll). */
let s3App: App;
/** Its answers are checked against its OpenAPI document, as the harness does for its own app. */
const s3Responses = new ResponseCheck();
let s3rver: S3rver;
let s3Endpoint: string;
let smtp: SmtpSink;
let transport: MailTransport;
let dir: string;
let t: TestTenant;
let other: TestTenant;
let admin: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  s3rver = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: mkdtempSync(join(tmpdir(), "aula-s3rver-")),
    configureBuckets: [{ name: "aula-e2e", configs: [] }],
  });
  s3Endpoint = `http://127.0.0.1:${(await s3rver.run()).port}`;
  dir = mediaDir();
  h = await startHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: "Aula <no-reply@mail.test>",
    MEDIA_STORAGE: "local",
    MEDIA_DIR: dir,
    S3_ENDPOINT: s3Endpoint,
    S3_BUCKET: "aula-e2e",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_PREFIX: "media",
  });
  // New uploads go to one store per process (MEDIA_STORAGE), and each file is read from the store it was written
  // to. So both paths in one institution are one deployment whose second process runs with MEDIA_STORAGE=s3 (as
  // during a switch from disk to S3): a second app on the same context, database and S3 settings.
  s3App = await buildApp(
    { ...h.ctx, config: { ...h.config, media: { ...h.config.media, driver: "s3" } } },
    { logger: false, instrument: (app) => s3Responses.watch(app) },
  );
  await s3App.ready();
  transport = createMailTransport(h.config.mail) as MailTransport;
  t = await makeTenant(h, "Liceu Atlântico");
  other = await makeTenant(h, "Outra Escola");
  admin = await adminCookie(h, t);
});
afterAll(async () => {
  transport?.close();
  await s3App?.close();
  await h?.close();
  await s3rver?.close();
  await smtp?.close();
  s3Responses.verify();
});

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
async function api(
  method: Method,
  url: string,
  payload: unknown,
  expected: number,
  options: { cookie?: string; tenant?: TestTenant; app?: App } = {},
) {
  const tenant = options.tenant ?? t;
  const res = await (options.app ?? h.app).inject({
    method,
    url: `/api/institution${url}`,
    remoteAddress: h.ip,
    headers: {
      host: tenant.host,
      "accept-language": "en-US",
      cookie: options.cookie ?? admin,
      ...(payload === undefined ? {} : json),
    },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(expected);
  return res.statusCode === 204 ? undefined : res.json();
}

/** The three upload steps of the media API, as an administrator, through `app`; the bytes go to `upload.url`. */
async function upload(app: App, filename: string, contentType: string, bytes: Buffer) {
  const started = await api(
    "POST",
    "/media/uploads",
    { filename, contentType, sizeBytes: bytes.length },
    201,
    {
      app,
    },
  );
  const { media: file, upload: target } = started;
  if (target.url.startsWith(s3Endpoint)) {
    // A presigned S3 PUT, sent over real HTTP as a browser would.
    const put = await fetch(target.url, { method: "PUT", headers: target.headers, body: bytes });
    expect(put.status).toBe(200);
  } else {
    const put = await app.inject({
      method: "PUT",
      url: pathOf(target.url),
      remoteAddress: h.ip,
      headers: { host: t.host, ...target.headers },
      payload: bytes,
    });
    expect(put.statusCode, put.body).toBe(204);
  }
  const ready = await api("POST", `/media/${file.id}/complete`, undefined, 200, { app });
  expect(ready).toMatchObject({ id: file.id, status: "ready", contentType, sizeBytes: bytes.length });
  return ready as { id: string; url: string; kind: string };
}

/** Offset of `zone` from UTC at `at`, in milliseconds (positive east of Greenwich). */
function offsetOf(zone: string, at: number): number {
  const parts: Record<string, string> = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  const n = (type: string) => Number(parts[type]);
  const wall = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return wall - Math.floor(at / 1000) * 1000;
}

/** The UTC instant of a wall-clock time in `zone` (not within a DST gap, which 19:00 never is). */
function zoned(zone: string, y: number, m: number, d: number, hour: number): number {
  const guess = Date.UTC(y, m, d, hour);
  const first = guess - offsetOf(zone, guess);
  return guess - offsetOf(zone, first);
}

/** `HH:MM` on the wall clock of `zone`. */
const wallClock = (zone: string, at: Date | number) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);

/**
 * The next daylight-saving change of `zone` at least four weeks away (computed, so the test keeps working whatever
 * day it runs): the UTC date (noon) of the first day whose offset differs from the day before.
 */
function nextDstChange(zone: string): Date {
  let day = Math.floor(Date.now() / DAY) * DAY + 28 * DAY + 12 * HOUR;
  const before = offsetOf(zone, day);
  for (let i = 0; i < 400; i++, day += DAY) {
    if (offsetOf(zone, day) !== before) return new Date(day);
  }
  throw new Error(`${zone} has no daylight saving`);
}

describe("an institution's term, set up by its administrator", () => {
  it("brands, stores files on disk and S3, schedules a live class across DST, mails invitations and feeds calendars", async () => {
    // 1. Settings: a zone with daylight saving (the live class's default, step 5), Spanish as the institution's
    //    language (the invitation sent without a language of its own is written in it) and the mail's sender name
    //    and Reply-To (the invitations carry them, step 6).
    const office = `secretaria@${t.slug}.test`;
    const settings = await api(
      "PATCH",
      "/settings",
      {
        general: { timezone: "america/new_york", locale: "es-ES", dateFormat: "MM/DD/YYYY" },
        notifications: { senderName: "Secretaría del Liceu", replyTo: office },
      },
      200,
    );
    expect(settings.general).toEqual({ timezone: ZONE, locale: "es-ES", dateFormat: "MM/DD/YYYY" });
    expect(settings.notifications).toEqual({ senderName: "Secretaría del Liceu", replyTo: office });
    const [row] = await h.database.db
      .select({ timezone: tenants.timezone, locale: tenants.defaultLocale })
      .from(tenants)
      .where(eq(tenants.id, t.id));
    expect(row).toEqual({ timezone: ZONE, locale: "es-ES" });
    const [changed] = await h.database.db
      .select({ data: platformEvents.data })
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "settings_updated")));
    const changedKeys = (changed?.data as { changedKeys?: string[] } | undefined)?.changedKeys ?? [];
    expect([...changedKeys].sort()).toEqual([
      "general.dateFormat",
      "general.locale",
      "general.timezone",
      "notifications.replyTo",
      "notifications.senderName",
    ]);

    // 2. A theme with a real PNG as its logo, activated; the sign-in page's public variables carry it.
    const logoBytes = png();
    const logo = await upload(h.app, "logo.png", "image/png", logoBytes);
    expect(logo.kind).toBe("image");
    const theme = await api(
      "POST",
      "/themes",
      {
        name: "Atlântico",
        variables: { primaryColor: "#0B5FFF", fontHeading: "Montserrat" },
        logoMediaId: logo.id,
      },
      201,
    );
    expect(theme).toMatchObject({ status: "draft", logoMediaId: logo.id });
    expect((await api("POST", `/themes/${theme.id}/activate`, undefined, 200)).status).toBe("active");
    const brand = await h.inject({
      method: "GET",
      url: "/api/institution/themes/active/variables",
      headers: { host: t.host },
    });
    expect(brand.statusCode).toBe(200);
    expect(brand.json()).toMatchObject({
      themeId: theme.id,
      logoMediaId: logo.id,
      variables: { primaryColor: "#0B5FFF", fontHeading: "Montserrat" },
    });
    expect(brand.json().css).toContain("--aula-primary-color:#0B5FFF;");

    // 3. The course video to local disk (this app), the syllabus PDF to the S3-compatible store (the S3 process).
    const videoBytes = mp4(8192);
    const video = await upload(h.app, "Aula 1.mp4", "video/mp4", videoBytes);
    expect(video.kind).toBe("video");
    expect(readFileSync(join(dir, "objects", t.id, video.id))).toEqual(videoBytes);
    const pdfBytes = pdf("Programa do curso");
    const syllabus = await upload(s3App, "Programa.pdf", "application/pdf", pdfBytes);
    expect(syllabus.kind).toBe("document");
    // The object is the one its verification copied: a key of its own under the file's (issue 19, point 5).
    expect(syllabus.url).toMatch(
      new RegExp(`^${s3Endpoint}/aula-e2e/media/${t.id}/${syllabus.id}/[0-9a-f-]{36}\\?`),
    );
    const stored = await h.database.db
      .select({ id: media.id, storage: media.storage })
      .from(media)
      .where(eq(media.tenantId, t.id));
    expect(new Map(stored.map((m) => [m.id, m.storage]))).toEqual(
      new Map([
        [logo.id, "local"],
        [video.id, "local"],
        [syllabus.id, "s3"],
      ]),
    );
    // Either process serves either file from where it lives: the video from disk, the PDF from the bucket.
    const videoUrl = (await api("GET", `/media/${video.id}`, undefined, 200, { app: s3App })).url as string;
    const gotVideo = await h.inject({ method: "GET", url: pathOf(videoUrl), headers: { host: t.host } });
    expect(gotVideo.statusCode).toBe(200);
    expect(gotVideo.rawPayload).toEqual(videoBytes);
    const pdfUrl = (await api("GET", `/media/${syllabus.id}`, undefined, 200)).url as string;
    const gotPdf = await fetch(pdfUrl);
    expect(gotPdf.status).toBe(200);
    expect(Buffer.from(await gotPdf.arrayBuffer())).toEqual(pdfBytes);

    // 4. A course, a module, lessons on those files, and a class group following the course.
    const course = await api("POST", "/courses", { title: "Historia del Atlántico" }, 201);
    const mod = await api("POST", `/courses/${course.id}/modules`, { title: "Unidad 1" }, 201);
    const watch = await api(
      "POST",
      `/modules/${mod.id}/lessons`,
      { title: "Clase grabada", type: "video", status: "published", content: { mediaId: video.id } },
      201,
    );
    const read = await api(
      "POST",
      `/modules/${mod.id}/lessons`,
      { title: "Programa", type: "pdf", status: "published", content: { mediaId: syllabus.id } },
      201,
    );
    expect(watch.content).toEqual({ mediaId: video.id });
    expect(read.content).toEqual({ mediaId: syllabus.id });
    const outline = await api("GET", `/courses/${course.id}/outline`, undefined, 200);
    expect(outline.modules[0].lessons.map((l: { id: string }) => l.id)).toEqual([watch.id, read.id]);
    // A file a lesson is built on is not deleted from under it.
    await api("DELETE", `/media/${syllabus.id}`, undefined, 409);
    const group = await api("POST", "/classes", { name: "Turma Noturna", courseIds: [course.id] }, 201);

    // 5. A weekly live class at 19:00 in the institution's zone (no zone given: the setting's), six times, three
    //    on each side of the next daylight-saving change.
    const change = nextDstChange(ZONE);
    const first = new Date(change.getTime() - 21 * DAY);
    const startsAt = zoned(ZONE, first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate(), 19);
    const live = await api(
      "POST",
      "/live-classes",
      {
        title: "Tutoría semanal",
        classGroupId: group.id,
        courseId: course.id,
        startsAt: new Date(startsAt).toISOString(),
        durationMinutes: 90,
        recurrence: "FREQ=WEEKLY;COUNT=6",
      },
      201,
    );
    expect(live).toMatchObject({ timezone: ZONE, occurrenceCount: 6, classGroupId: group.id });
    const occurrences = (await api("GET", `/live-classes/${live.id}/occurrences`, undefined, 200)).data as {
      id: string;
      startsAt: string;
      endsAt: string;
    }[];
    expect(occurrences).toHaveLength(6);
    const starts = occurrences.map((o) => Date.parse(o.startsAt));
    expect(starts.map((s) => wallClock(ZONE, s))).toEqual(Array(6).fill("19:00"));
    // Weekly on the wall clock: the UTC gaps are a week except across the change, an hour shorter or longer.
    const shift = offsetOf(ZONE, change.getTime()) - offsetOf(ZONE, first.getTime());
    expect(Math.abs(shift)).toBe(HOUR);
    expect(starts.slice(1).map((s, i) => s - (starts[i] as number))).toEqual([
      7 * DAY,
      7 * DAY,
      7 * DAY - shift,
      7 * DAY,
      7 * DAY,
    ]);

    // 6. Invitations for three students into the class group: two in a language of their own, one in the
    //    institution's. The worker's drain sends them; the SMTP server receives one mail each.
    const students = [
      { name: "Ana Souza", email: `ana@${t.slug}.test`, locale: "en-US" },
      { name: "Benoît Roy", email: `benoit@${t.slug}.test`, locale: "fr-FR" },
      { name: "Carmen Ruiz", email: `carmen@${t.slug}.test`, locale: undefined },
    ];
    const invites = [];
    for (const s of students) {
      invites.push(
        await api(
          "POST",
          "/invites",
          {
            email: s.email,
            name: s.name,
            role: "student",
            classGroupIds: [group.id],
            ...(s.locale ? { locale: s.locale } : {}),
          },
          201,
        ),
      );
    }
    const queued = await h.database.db
      .select({ to: emailMessages.toEmail, locale: emailMessages.locale, status: emailMessages.status })
      .from(emailMessages)
      .where(eq(emailMessages.tenantId, t.id));
    expect(queued.map((q) => [q.to, q.locale, q.status]).sort()).toEqual([
      [students[0]?.email, "en-US", "queued"],
      [students[1]?.email, "fr-FR", "queued"],
      [students[2]?.email, "es-ES", "queued"],
    ]);
    expect(await drainMail(h.ctx, transport, { tenantIds: [t.id] })).toEqual({
      sent: 3,
      retried: 0,
      failed: 0,
      suppressed: 0,
      stale: 0,
    });
    const mailTo = (address: string): ParsedMail => {
      const found = smtp.mails.filter((m) => JSON.stringify(m.to).includes(address));
      expect(found, `mail to ${address}`).toHaveLength(1);
      return found[0] as ParsedMail;
    };
    const mails = students.map((s) => mailTo(s.email));
    expect(mails.map((m) => m.subject)).toEqual([
      "Your invitation to Liceu Atlântico",
      "Invitation à rejoindre Liceu Atlântico",
      "Invitación a Liceu Atlântico",
    ]);
    expect(mails.map((m) => (m.text as string).split("\n")[0])).toEqual([
      "Hello Ana Souza,",
      "Bonjour Benoît Roy,",
      "Hola, Carmen Ruiz:",
    ]);
    // The expiry is written on the institution's clock (general.timezone), naming the zone.
    for (const m of mails)
      expect((m.text as string).replace(/\s+/g, " ")).toMatch(/ \d{1,2}:\d{2}( [AP]M)? America\/New_York\./);
    for (const m of mails) {
      expect(m.from?.value).toEqual([{ name: "Secretaría del Liceu", address: "no-reply@mail.test" }]);
      expect(m.replyTo?.value).toEqual([{ name: "", address: office }]);
    }

    // Each mail's link is the invitation's own, and accepting with its token puts the student in the class group.
    const accepted: { id: string; email: string; cookie: string }[] = [];
    for (const [i, m] of mails.entries()) {
      const found = /https?:\/\/\S+\/invites\/accept\?token=[A-Za-z0-9_-]+/.exec(m.text as string);
      expect(found, "an accept link").not.toBeNull();
      const link = new URL((found as RegExpExecArray)[0]);
      expect(link.href).toBe(invites[i].acceptUrl);
      expect(link.host).toBe(t.host);
      expect(m.html).toContain(`href="${link.href}"`);
      const res = await h.inject({
        method: "POST",
        url: "/api/invites/accept",
        remoteAddress: h.ip,
        headers: { host: link.host, ...json },
        payload: { token: link.searchParams.get("token"), password: "a long new password" },
      });
      expect(res.statusCode, res.body).toBe(201);
      const user = res.json().user;
      expect(user).toMatchObject({ email: students[i]?.email, role: "student", classGroupIds: [group.id] });
      accepted.push({
        id: user.id,
        email: user.email,
        cookie: await sessionCookie(h, t, user.email, "a long new password"),
      });
    }
    const members = await h.database.db
      .select({ userId: classGroupMembers.userId })
      .from(classGroupMembers)
      .where(eq(classGroupMembers.classGroupId, group.id));
    expect(members.map((m) => m.userId).sort()).toEqual(accepted.map((a) => a.id).sort());

    // 8 (set-up). Another institution with its own student and live class at the same times.
    const otherAdmin = await adminCookie(h, other);
    const otherGroup = await api("POST", "/classes", { name: "Grupo B" }, 201, {
      tenant: other,
      cookie: otherAdmin,
    });
    const outsider = await makeUser(h, other, "student", TEST_PASSWORD);
    await api("POST", `/classes/${otherGroup.id}/members`, { userIds: [outsider.id] }, 200, {
      tenant: other,
      cookie: otherAdmin,
    });
    const theirs = await api(
      "POST",
      "/live-classes",
      {
        title: "Clase de otra escuela",
        classGroupId: otherGroup.id,
        startsAt: new Date(startsAt).toISOString(),
        durationMinutes: 60,
        timezone: ZONE,
        recurrence: "FREQ=WEEKLY;COUNT=6",
      },
      201,
      { tenant: other, cookie: otherAdmin },
    );

    // 7. A student's feed at its secret URL, read by node-ical: exactly the six occurrences, at 19:00 New York.
    const student = accepted[1] as (typeof accepted)[number];
    const feed = await api("POST", "/calendar/feed", undefined, 201, { cookie: student.cookie });
    const feedUrl = new URL(feed.url);
    expect(feedUrl.host).toBe(t.host);
    const ics = await h.inject({ method: "GET", url: feedUrl.pathname, headers: { host: t.host } });
    expect(ics.statusCode).toBe(200);
    expect(ics.headers["content-type"]).toMatch(/^text\/calendar/);
    const vevents = Object.values(nodeIcal.sync.parseICS(ics.body)).filter(
      (v): v is VEvent => v !== undefined && v.type === "VEVENT",
    );
    expect(vevents).toHaveLength(6);
    expect(vevents.every((v) => v.summary === "Tutoría semanal")).toBe(true);
    const byStart = [...vevents].sort((x, y) => x.start.getTime() - y.start.getTime());
    expect(byStart.map((v) => v.start.toISOString())).toEqual(occurrences.map((o) => o.startsAt));
    expect(byStart.map((v) => v.end?.toISOString())).toEqual(occurrences.map((o) => o.endsAt));
    expect(byStart.map((v) => v.start.tz)).toEqual(Array(6).fill(ZONE));
    expect(byStart.map((v) => wallClock(ZONE, v.start))).toEqual(Array(6).fill("19:00"));
    for (const [i, v] of byStart.entries()) expect(v.uid).toContain((occurrences[i] as { id: string }).id);
    // Written as zoned local times (with the zone's VTIMEZONE), not as UTC instants.
    expect(ics.body.match(new RegExp(`^DTSTART;TZID=${ZONE}:\\d{8}T190000\r?$`, "gm"))).toHaveLength(6);
    expect(ics.body).toContain(`TZID:${ZONE}`);
    expect(ics.body).not.toContain(theirs.id);
    expect(ics.body).not.toContain("Clase de otra escuela");

    // 8. The other institution's student's feed holds their class, never these occurrences; and this
    //    institution's feed URL means nothing on the other's host.
    const outsiderCookie = await sessionCookie(h, other, outsider.email, TEST_PASSWORD);
    const theirFeed = new URL(
      (await api("POST", "/calendar/feed", undefined, 201, { tenant: other, cookie: outsiderCookie })).url,
    );
    const theirIcs = await h.inject({
      method: "GET",
      url: theirFeed.pathname,
      headers: { host: other.host },
    });
    expect(theirIcs.statusCode).toBe(200);
    const theirEvents = Object.values(nodeIcal.sync.parseICS(theirIcs.body)).filter(
      (v): v is VEvent => v !== undefined && v.type === "VEVENT",
    );
    expect(theirEvents.map((v) => v.summary)).toEqual(Array(6).fill("Clase de otra escuela"));
    for (const o of occurrences) expect(theirIcs.body).not.toContain(o.id);
    expect(theirIcs.body).not.toContain("Tutoría semanal");
    const crossed = await h.inject({ method: "GET", url: feedUrl.pathname, headers: { host: other.host } });
    expect(crossed.statusCode).toBe(404);
  });
});
