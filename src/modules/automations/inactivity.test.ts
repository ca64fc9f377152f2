/**
 * The daily inactivity scan: `user_inactive` once per inactivity period, at the threshold an automation's
 * condition asks for, to the automations of that threshold only.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { platformEvents, users, webhookDeliveries } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { adminCookie, json, makeTenant, makeUser, type TestTenant } from "../../test-support/harness.js";
import { DEFAULT_INACTIVE_DAYS, emitInactivity, inactivityThreshold } from "./inactivity.js";

const { h } = useApi();

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

async function automation(t: TestTenant, cookie: string, condition: unknown) {
  const res = await h.inject({
    method: "POST",
    url: "/api/institution/automations",
    headers: { host: t.host, cookie, ...json },
    payload: {
      name: "Nudge",
      trigger: { event: "user_inactive" },
      ...(condition === undefined ? {} : { condition }),
      action: { type: "send_webhook", url: "https://93.184.215.14/nudge" },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function setActivity(t: TestTenant, userId: string, lastLoginAt: string | null, createdAt: string) {
  await h.database.db
    .update(users)
    .set({ lastLoginAt, createdAt })
    .where(and(eq(users.tenantId, t.id), eq(users.id, userId)));
}

async function inactiveEvents(t: TestTenant, userId: string) {
  const rows = await h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "user_inactive")));
  return rows.filter((r) => (r.data as { userId: string }).userId === userId);
}

async function deliveries(t: TestTenant, automationId: string) {
  return h.database.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, t.id), eq(webhookDeliveries.automationId, automationId)));
}

describe("inactivityThreshold", () => {
  it("reads the bound of event.inactiveDays, the smallest of several, else the default", () => {
    const clause = (op: string, value: unknown) => ({ field: "event.inactiveDays", op, value }) as never;
    expect(inactivityThreshold(null)).toBe(DEFAULT_INACTIVE_DAYS);
    expect(inactivityThreshold({ all: [clause("gte", 7)] })).toBe(7);
    expect(inactivityThreshold({ all: [clause("gt", 7)] })).toBe(8);
    expect(inactivityThreshold({ any: [clause("eq", 14), clause("gte", 10)] })).toBe(10);
    expect(inactivityThreshold({ all: [clause("lt", 3)] })).toBe(DEFAULT_INACTIVE_DAYS);
    expect(inactivityThreshold({ all: [{ field: "user.role", op: "eq", value: "student" }] })).toBe(30);
  });
});

describe("the daily scan", () => {
  it("emits once per inactivity period, re-arms after new activity, and only to the matching threshold", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const week = await automation(t, cookie, { all: [{ field: "event.inactiveDays", op: "gte", value: 7 }] });
    const month = await automation(t, cookie, {
      all: [{ field: "event.inactiveDays", op: "gte", value: 30 }],
    });
    const idle = await makeUser(h, t, "student");
    const busy = await makeUser(h, t, "student");
    await setActivity(t, idle.id, daysAgo(10), daysAgo(100));
    await setActivity(t, busy.id, daysAgo(1), daysAgo(100));

    await emitInactivity(h.database.db);
    const events = await inactiveEvents(t, idle.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ userId: idle.id, inactiveDays: 10, thresholdDays: 7 });
    expect(events[0]?.subject).toMatchObject({ id: idle.id, email: idle.email });
    expect(await inactiveEvents(t, busy.id)).toEqual([]);
    expect(await deliveries(t, week)).toHaveLength(1);
    expect(await deliveries(t, month)).toHaveLength(0);

    // The same period: nothing new, however often the scan runs.
    await emitInactivity(h.database.db);
    expect(await inactiveEvents(t, idle.id)).toHaveLength(1);

    // The same period grows past thirty days (here by back-dating it): the monthly automation's turn, and only its.
    await setActivity(t, idle.id, daysAgo(31), daysAgo(100));
    await emitInactivity(h.database.db);
    const later = await inactiveEvents(t, idle.id);
    expect(later.map((e) => (e.data as { thresholdDays: number }).thresholdDays).sort()).toEqual([30, 7]);
    expect(await deliveries(t, month)).toHaveLength(1);

    // New activity re-arms: the next idle week is a new period.
    await setActivity(t, idle.id, daysAgo(8), daysAgo(100));
    const before = (await inactiveEvents(t, idle.id)).length;
    await emitInactivity(h.database.db);
    expect(await inactiveEvents(t, idle.id)).toHaveLength(before + 1);
  });

  it("reaches webhook endpoints subscribed to user_inactive, at the institution's userInactiveDays", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const settings = await h.inject({
      method: "PATCH",
      url: "/api/institution/settings",
      headers: { host: t.host, cookie, ...json },
      payload: { inactivity: { userInactiveDays: 12 } },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const endpoint = await h.inject({
      method: "POST",
      url: "/api/institution/webhooks",
      headers: { host: t.host, cookie, ...json },
      payload: { url: "https://93.184.215.14/inactive", eventTypes: ["user_inactive"] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const idle = await makeUser(h, t, "student");
    const recent = await makeUser(h, t, "student");
    await setActivity(t, idle.id, daysAgo(13), daysAgo(100));
    await setActivity(t, recent.id, daysAgo(11), daysAgo(100));

    await emitInactivity(h.database.db);
    const [event] = await inactiveEvents(t, idle.id);
    expect(event?.data).toMatchObject({ userId: idle.id, inactiveDays: 13, thresholdDays: 12 });
    expect(await inactiveEvents(t, recent.id)).toEqual([]);
    expect(await deliveries(t, endpoint.json().id)).toHaveLength(1);
  });

  it("uses the sign-up date for users who never signed in, skips suspended users and tenants without such automations", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    await automation(t, cookie, undefined);
    const never = await makeUser(h, t, "student");
    const suspended = await makeUser(h, t, "student");
    await setActivity(t, never.id, null, daysAgo(45));
    await setActivity(t, suspended.id, null, daysAgo(45));
    await h.database.db
      .update(users)
      .set({ status: "suspended" })
      .where(and(eq(users.tenantId, t.id), eq(users.id, suspended.id)));
    const quiet = await makeTenant(h);
    const other = await makeUser(h, quiet, "student");
    await setActivity(quiet, other.id, null, daysAgo(400));

    await emitInactivity(h.database.db);
    const [event] = await inactiveEvents(t, never.id);
    expect(event?.data).toMatchObject({ lastActivityAt: null, inactiveDays: 45, thresholdDays: 30 });
    expect(await inactiveEvents(t, suspended.id)).toEqual([]);
    expect(await inactiveEvents(quiet, other.id)).toEqual([]);
  });
});

describe("the worker's schedule", () => {
  it("runs the inactivity scan and the retention purge daily", async () => {
    const { JOBS } = await import("../../worker/runner.js");
    for (const name of ["user-inactivity", "events-retention"]) {
      expect(JOBS.find((j) => j.name === name)?.everyMs, name).toBe(86_400_000);
    }
  });
});
