/**
 * The inactivity settings take effect: `inactivity.userInactiveDays` is the threshold of `user_inactive`
 * automations that name none, `inactivity.basis` decides what counts as activity, and
 * `inactivity.enrollmentInactiveDays` drives `enrollment_inactive`.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { enrollments, platformEvents, users, webhookDeliveries } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { adminCookie, json, makeTenant, makeUser, type TestTenant } from "../../test-support/harness.js";
import { JOBS } from "../../worker/runner.js";
import { emitInactivity } from "../automations/inactivity.js";
import { emitEnrollmentInactivity } from "../enrollments/inactivity.js";
import type { SettingsPatch } from "./schemas.js";
import { updateSettings } from "./service.js";

const { h } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 100 }) } });

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

const settle = (t: TestTenant, patch: SettingsPatch) =>
  updateSettings(h.database.db, t.id, { kind: "system" }, patch);

async function listen(t: TestTenant, event: string) {
  const res = await h.inject({
    method: "POST",
    url: "/api/institution/automations",
    headers: { host: t.host, cookie: await adminCookie(h, t), ...json },
    payload: {
      name: "Nudge",
      trigger: { event },
      action: { type: "send_webhook", url: "https://93.184.215.14/nudge" },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function eventsOf(t: TestTenant, type: string) {
  return h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, type)));
}

async function setUser(
  t: TestTenant,
  id: string,
  values: { lastLoginAt?: string | null; createdAt?: string },
) {
  await h.database.db
    .update(users)
    .set(values)
    .where(and(eq(users.tenantId, t.id), eq(users.id, id)));
}

describe("user_inactive and the institution's inactivity settings", () => {
  it("an automation without a threshold of its own uses inactivity.userInactiveDays", async () => {
    const [seven, standard] = [await makeTenant(h), await makeTenant(h)];
    await settle(seven, { inactivity: { userInactiveDays: 7 } });
    for (const t of [seven, standard]) {
      await listen(t, "user_inactive");
      // Ten days idle: past seven, short of the default thirty.
      await setUser(t, t.adminUserId, { lastLoginAt: daysAgo(10), createdAt: daysAgo(100) });
    }
    await emitInactivity(h.database.db);
    const [event] = await eventsOf(seven, "user_inactive");
    expect(event?.data).toMatchObject({
      userId: seven.adminUserId,
      inactiveDays: 10,
      thresholdDays: 7,
      basis: "access",
    });
    expect(await eventsOf(standard, "user_inactive")).toEqual([]);
  });

  it("basis activity measures learning in enrollments, not signing in", async () => {
    const t = await makeTenant(h);
    await listen(t, "user_inactive");
    await settle(t, { inactivity: { userInactiveDays: 14 } });
    const learner = await makeUser(h, t, "student");
    const course = await makeCourse(h.database.db, t.id, [{ lessons: [{}] }]);
    const enrollmentId = await enrollDirectly(h.database.db, t.id, learner.id, course.courseId);
    await h.database.db
      .update(enrollments)
      .set({ lastActivityAt: daysAgo(20) })
      .where(and(eq(enrollments.tenantId, t.id), eq(enrollments.id, enrollmentId)));
    // Signs in daily, learns nothing: not inactive by access.
    await setUser(t, learner.id, { lastLoginAt: daysAgo(1), createdAt: daysAgo(60) });
    await setUser(t, t.adminUserId, { lastLoginAt: daysAgo(1), createdAt: daysAgo(60) });
    await emitInactivity(h.database.db);
    expect(await eventsOf(t, "user_inactive")).toEqual([]);

    await settle(t, { inactivity: { basis: "activity" } });
    await emitInactivity(h.database.db);
    const found = await eventsOf(t, "user_inactive");
    const mine = found.find((e) => (e.data as { userId: string }).userId === learner.id);
    expect(mine?.data).toMatchObject({ inactiveDays: 20, thresholdDays: 14, basis: "activity" });
    const last = Date.parse(String((mine?.data as { lastActivityAt?: string } | undefined)?.lastActivityAt));
    expect(Math.abs(last - Date.parse(daysAgo(20)))).toBeLessThan(60_000);
    // The administrator has no enrollment: measured from sign-up, 60 days ago.
    const admin = found.find((e) => (e.data as { userId: string }).userId === t.adminUserId);
    expect(admin?.data).toMatchObject({ lastActivityAt: null, inactiveDays: 60, basis: "activity" });
  });
});

describe("enrollment_inactive", () => {
  it("once per inactivity period at inactivity.enrollmentInactiveDays, re-armed by activity", async () => {
    const db = h.database.db;
    const t = await makeTenant(h);
    const automationId = await listen(t, "enrollment_inactive");
    await settle(t, { inactivity: { enrollmentInactiveDays: 5 } });
    const course = await makeCourse(db, t.id, [{ lessons: [{}, {}] }]);
    const [idle, busy, fresh, gone] = await Promise.all([1, 2, 3, 4].map(() => makeUser(h, t, "student")));
    const ids = {
      idle: await enrollDirectly(db, t.id, idle!.id, course.courseId),
      busy: await enrollDirectly(db, t.id, busy!.id, course.courseId),
      fresh: await enrollDirectly(db, t.id, fresh!.id, course.courseId),
      gone: await enrollDirectly(db, t.id, gone!.id, course.courseId, "dropped"),
    };
    const set = (id: string, values: Partial<typeof enrollments.$inferInsert>) =>
      db
        .update(enrollments)
        .set(values)
        .where(and(eq(enrollments.tenantId, t.id), eq(enrollments.id, id)));
    await set(ids.idle, { lastActivityAt: daysAgo(6), enrolledAt: daysAgo(30) });
    await set(ids.busy, { lastActivityAt: daysAgo(2), enrolledAt: daysAgo(30) });
    // Never started: measured from the enrollment, 3 days ago.
    await set(ids.fresh, { enrolledAt: daysAgo(3) });
    await set(ids.gone, { lastActivityAt: daysAgo(40), enrolledAt: daysAgo(60) });

    // Another institution without a listener: nothing is scanned there.
    const quiet = await makeTenant(h);
    const other = await makeUser(h, quiet, "student");
    const otherCourse = await makeCourse(db, quiet.id, [{ lessons: [{}] }]);
    await enrollDirectly(db, quiet.id, other.id, otherCourse.courseId);
    await db
      .update(enrollments)
      .set({ enrolledAt: daysAgo(90) })
      .where(eq(enrollments.tenantId, quiet.id));

    await emitEnrollmentInactivity(db);
    const events = await eventsOf(t, "enrollment_inactive");
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({
      enrollmentId: ids.idle,
      courseId: course.courseId,
      inactiveDays: 6,
      thresholdDays: 5,
      progressPercent: 0,
      basis: "activity",
    });
    expect(events[0]?.subject).toMatchObject({ id: idle!.id, email: idle!.email });
    const deliveries = await db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.tenantId, t.id), eq(webhookDeliveries.automationId, automationId)));
    expect(deliveries).toHaveLength(1);
    expect(await eventsOf(quiet, "enrollment_inactive")).toEqual([]);

    // The same period: nothing new however often the scan runs, even two at once.
    await Promise.all([emitEnrollmentInactivity(db), emitEnrollmentInactivity(db)]);
    expect(await eventsOf(t, "enrollment_inactive")).toHaveLength(1);

    // The setting moves: the fresh one (3 days) is now past the threshold.
    await settle(t, { inactivity: { enrollmentInactiveDays: 3 } });
    await emitEnrollmentInactivity(db);
    const afterChange = await eventsOf(t, "enrollment_inactive");
    expect(afterChange.map((e) => (e.data as { enrollmentId: string }).enrollmentId).sort()).toEqual(
      [ids.idle, ids.fresh].sort(),
    );

    // New activity re-arms: the next idle stretch is a new period.
    await set(ids.idle, { lastActivityAt: daysAgo(4) });
    await emitEnrollmentInactivity(db);
    expect(await eventsOf(t, "enrollment_inactive")).toHaveLength(3);
  });

  it("runs daily in the worker", () => {
    expect(JOBS.find((j) => j.name === "enrollment-inactivity")?.everyMs).toBe(86_400_000);
  });
});
