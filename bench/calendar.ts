/**
 * (n) The iCalendar feed of a user with BENCH_CALENDAR events (issue 12: "the calendar feed of a user with 1,000
 * events"), on PostgreSQL: the real app (`buildApp`) listening on a loopback port in this process, and
 * CALENDAR_REQUESTS sequential `GET /api/calendar/feeds/<token>.ics` through undici (one in flight, so each
 * latency is the feed's own: agenda queries, ical-generator, VTIMEZONE blocks, the response).
 *
 * The user (a student of a tenant of its own) holds: a third of the events as custom events of their own
 * (`user` context), a third on a course they are enrolled in, and the rest as the occurrences of one weekly live
 * class for that course (RRULE;COUNT), plus a lesson due date — all inside the feed's window (the next year),
 * spread over three time zones. Checks: HTTP 200, `text/calendar`, exactly that many VEVENTs per answer.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { buildApp } from "../src/app.js";
import type { Config } from "../src/config/index.js";
import type { Database } from "../src/db/client.js";
import { calendarEvents, liveClasses, liveClassOccurrences } from "../src/db/schema/index.js";
import { issueFeed } from "../src/modules/calendar/service.js";
import { createModule } from "../src/modules/course-modules/service.js";
import { createCourse } from "../src/modules/courses/service.js";
import { createEnrollment } from "../src/modules/enrollments/service.js";
import { createLesson } from "../src/modules/lessons/service.js";
import { createUser } from "../src/modules/users/service.js";
import { createContext } from "../src/platform/context.js";
import { type LatencySummary, summarise } from "./protocol.js";
import { makeTenant } from "./seed.js";

export const CALENDAR_REQUESTS = 300;
const ZONES = ["America/Sao_Paulo", "Europe/Berlin", "Asia/Tokyo"];

export interface CalendarFeedResult {
  events: number;
  requests: number;
  latencyMs: LatencySummary;
  bytes: number;
  problems: string[];
}

export async function measureCalendarFeed(
  database: Database,
  config: Config,
  events: number,
  log: (line: string) => void,
): Promise<CalendarFeedResult> {
  const db = database.db;
  const tenant = await makeTenant(db, config.plans, "calendar");
  const user = await createUser(
    db,
    config.plans,
    tenant.id,
    { kind: "system" },
    {
      name: "Feed reader",
      email: `reader-${randomBytes(3).toString("hex")}@bench.test`,
      role: "student",
    },
  );
  const course = await createCourse(db, tenant.id, { title: "Calendário", status: "published" });
  const module = await createModule(db, tenant.id, course.id, { title: "M", status: "published" });
  const day = 86_400_000;
  const start = Math.ceil(Date.now() / 3_600_000) * 3_600_000 + day;
  await createLesson(db, tenant.id, module.id, {
    title: "Entrega",
    type: "assignment",
    status: "published",
    dueAt: new Date(start + 30 * day).toISOString(),
  });
  await createEnrollment(
    db,
    config.plans,
    tenant.id,
    { kind: "system" },
    { userId: user.id, courseId: course.id },
  );
  const custom = Math.floor((events - 1) * (2 / 3));
  const occurrences = events - 1 - custom;
  const rows = Array.from({ length: custom }, (_, i) => {
    const s = new Date(start + (i % 330) * day + (i % 9) * 3_600_000).toISOString();
    const e = new Date(Date.parse(s) + 3_600_000).toISOString();
    return {
      tenantId: tenant.id,
      title: `Evento ${i}`,
      startsAt: s,
      endsAt: e,
      lastEndsAt: e,
      timezone: ZONES[i % ZONES.length] as string,
      contextType: i % 2 === 0 ? "user" : "course",
      contextId: i % 2 === 0 ? user.id : course.id,
    };
  });
  for (let i = 0; i < rows.length; i += 500) await db.insert(calendarEvents).values(rows.slice(i, i + 500));
  const [live] = await db
    .insert(liveClasses)
    .values({
      tenantId: tenant.id,
      title: "Aula semanal",
      courseId: course.id,
      hostUserId: tenant.adminUserId,
      startsAt: new Date(start).toISOString(),
      durationMinutes: 60,
      timezone: "America/Sao_Paulo",
      recurrence: `FREQ=DAILY;COUNT=${occurrences}`,
      roomSecret: randomBytes(12).toString("hex"),
    })
    .returning({ id: liveClasses.id });
  await db.insert(liveClassOccurrences).values(
    Array.from({ length: occurrences }, (_, i) => ({
      tenantId: tenant.id,
      liveClassId: (live as { id: string }).id,
      startsAt: new Date(start + i * day).toISOString(),
      endsAt: new Date(start + i * day + 3_600_000).toISOString(),
    })),
  );
  const host = `${tenant.slug}.${config.baseDomain}`;
  const feed = await issueFeed(db, tenant.id, user.id, `http://${host}`);
  const path = new URL(feed.url).pathname;

  const app = await buildApp(createContext(config, database), { logger: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const problems: string[] = [];
  const samples: number[] = [];
  let bytes = 0;
  try {
    for (let i = 0; i < CALENDAR_REQUESTS + 10; i++) {
      const t0 = performance.now();
      const res = await request(`http://127.0.0.1:${port}${path}`, { headers: { host } });
      const body = await res.body.text();
      const ms = performance.now() - t0;
      if (i < 10) continue; // warm-up: prepared plans, the JIT, the VTIMEZONE cache
      samples.push(ms);
      bytes = body.length;
      const count = body.split("BEGIN:VEVENT").length - 1;
      if (res.statusCode !== 200 || !String(res.headers["content-type"]).startsWith("text/calendar")) {
        problems.push(`status ${res.statusCode}`);
      } else if (count !== events) problems.push(`${count} VEVENTs, expected ${events}`);
    }
  } finally {
    await app.close();
  }
  const latencyMs = summarise(samples);
  log(
    `(n) calendar feed, ${events} events: p50 ${latencyMs.p50} ms, p99 ${latencyMs.p99} ms, ${bytes} bytes`,
  );
  return { events, requests: samples.length, latencyMs, bytes, problems: [...new Set(problems)] };
}
