import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { describe, expect, it } from "vitest";
import { BULK_CHUNK } from "../../db/chunks.js";
import type { Db } from "../../db/client.js";
import * as schema from "../../db/schema/index.js";
import { classGroups, enrollments, platformEvents, webhookDeliveries } from "../../db/schema/index.js";
import { MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { bearer, json, makeKey, makeTenant, makeUser, type TestTenant } from "../../test-support/harness.js";
import { automationDeps, createAutomation } from "../automations/service.js";
import { EVENT_SAMPLES } from "../events/catalogue.js";
import { emitEvents } from "../events/emit.js";
import { bulkEnroll } from "./bulk-enroll.js";

const { h } = useApi({ env: MANY_STUDENTS });

const bulk = (t: TestTenant, key: string, items: unknown[]) =>
  h.inject({
    method: "POST",
    url: "/api/institution/enrollments/bulk",
    headers: { host: t.host, "accept-language": "en-US", ...bearer(key), ...json },
    payload: { items },
  });

async function tenantEnrollments(t: TestTenant) {
  return h.database.db.select().from(enrollments).where(eq(enrollments.tenantId, t.id));
}

async function createdEvents(t: TestTenant) {
  return h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "enrollment_created")));
}

/** `count` students of the tenant written in one statement; returns their ids. */
async function manyStudents(t: TestTenant, count: number): Promise<string[]> {
  const rows = (await h.database.db.execute(sql`INSERT INTO users (tenant_id, name, email, role)
    SELECT ${t.id}, 'Learner ' || g, 'learner' || g || '@' || ${t.slug} || '.test', 'student'
    FROM generate_series(1, ${count}) g RETURNING id`)) as unknown as { rows: { id: string }[] };
  return rows.rows.map((r) => r.id);
}

describe("bulk enrollment", () => {
  it("creates, skips and fails item by item, and emits one event per created enrollment", async () => {
    const t = await makeTenant(h);
    const other = await makeTenant(h);
    const key = await makeKey(h, t, ["enrollments:write"]);
    const [u1, u2, u3, u4, u5] = [
      await makeUser(h, t, "student"),
      await makeUser(h, t, "student"),
      await makeUser(h, t, "student"),
      await makeUser(h, t, "student"),
      await makeUser(h, t, "teacher"),
    ];
    const foreign = await makeUser(h, other, "student");
    const c1 = (await makeCourse(h.database.db, t.id)).courseId;
    const c2 = (await makeCourse(h.database.db, t.id)).courseId;
    const [group] = await h.database.db
      .insert(classGroups)
      .values({ tenantId: t.id, name: "Turma" })
      .returning({ id: classGroups.id });
    await enrollDirectly(h.database.db, t.id, u1.id, c1);
    const unknownUser = randomUUID();
    const unknownCourse = randomUUID();

    const res = await bulk(t, key, [
      { userId: u1.id, courseId: c1 },
      { email: u2.email.toUpperCase(), courseId: c1 },
      { userId: u2.id, courseId: c1 },
      { userId: unknownUser, courseId: c1 },
      { email: "nobody@nowhere.test", courseId: c1 },
      { userId: u3.id, courseId: unknownCourse },
      { userId: foreign.id, courseId: c1 },
      { userId: u3.id, email: u3.email, courseId: c1 },
      { courseId: c1 },
      {
        userId: u3.id,
        courseId: c2,
        role: "assistant",
        classGroupId: group?.id,
        expiresAt: "2099-01-01T00:00:00Z",
      },
      { userId: u4.id, courseId: c1, expiresAt: "2001-01-01T00:00:00Z" },
      { userId: u4.id, courseId: c1, classGroupId: randomUUID() },
      { userId: u5.id.toUpperCase(), courseId: c2.toUpperCase(), role: "teacher" },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.summary).toEqual({ total: 13, created: 3, skipped: 2, failed: 8 });
    const results = body.results as {
      index: number;
      status: string;
      reason?: string;
      enrollment?: Record<string, unknown>;
      error?: { error: string; message: string; details: { field: string; message: string }[] };
    }[];
    expect(results.map((r) => r.index)).toEqual([...Array(13).keys()]);
    expect(results.map((r) => r.status)).toEqual([
      "skipped",
      "created",
      "skipped",
      "failed",
      "failed",
      "failed",
      "failed",
      "failed",
      "failed",
      "created",
      "failed",
      "failed",
      "created",
    ]);
    expect(results[0]).toEqual({ index: 0, status: "skipped", reason: "already_enrolled" });
    expect(results[2]).toEqual({ index: 2, status: "skipped", reason: "already_enrolled" });
    expect(results[1]?.enrollment).toMatchObject({
      userId: u2.id,
      courseId: c1,
      role: "student",
      status: "active",
      source: "bulk",
      lessonsTotal: 2,
      progressPercent: 0,
    });
    expect(results[9]?.enrollment).toMatchObject({
      userId: u3.id,
      courseId: c2,
      role: "assistant",
      classGroupId: group?.id,
      expiresAt: "2099-01-01T00:00:00.000Z",
    });
    expect(results[12]?.enrollment).toMatchObject({ userId: u5.id, courseId: c2, role: "teacher" });
    const fieldOf = (i: number) => results[i]?.error?.details.map((d) => d.field);
    expect(results[3]?.error).toEqual({
      error: "validation_failed",
      message: "The request is not valid. See details for each field.",
      details: [{ field: "userId", message: `Unknown user: ${unknownUser}.` }],
    });
    expect(results[4]?.error?.details).toEqual([
      { field: "email", message: "No user with the e-mail nobody@nowhere.test." },
    ]);
    expect(fieldOf(5)).toEqual(["courseId"]);
    expect(fieldOf(6)).toEqual(["userId"]);
    expect(results[7]?.error?.details).toEqual([
      { field: "email", message: "Give exactly one of userId and email." },
    ]);
    expect(fieldOf(8)).toEqual(["userId"]);
    expect(fieldOf(10)).toEqual(["expiresAt"]);
    expect(fieldOf(11)).toEqual(["classGroupId"]);

    const stored = await tenantEnrollments(t);
    expect(stored).toHaveLength(4);
    const events = await createdEvents(t);
    expect(events.map((e) => (e.data as { enrollmentId: string }).enrollmentId).sort()).toEqual(
      [results[1], results[9], results[12]].map((r) => r?.enrollment?.id).sort(),
    );
    const assistantEvent = events.find((e) => (e.data as { role: string }).role === "assistant");
    expect(assistantEvent?.data).toMatchObject({ source: "bulk", classGroupId: group?.id, courseId: c2 });
    expect(assistantEvent?.subject).toMatchObject({ id: u3.id, email: u3.email });

    // The same request again: every valid item is now already enrolled.
    const again = await bulk(t, key, [
      { userId: u2.id, courseId: c1 },
      { userId: u3.id, courseId: c2 },
    ]);
    expect(again.json().summary).toEqual({ total: 2, created: 0, skipped: 2, failed: 0 });
    expect(await createdEvents(t)).toHaveLength(3);
  });

  it("refuses more than 1000 items, or none, with 400 before doing anything", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const user = await makeUser(h, t, "student");
    const { courseId } = await makeCourse(h.database.db, t.id);
    const tooMany = await bulk(
      t,
      key,
      Array.from({ length: 1001 }, () => ({ userId: user.id, courseId })),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({
      error: "validation_failed",
      details: [{ field: "items", message: "Must contain at most 1,000 items." }],
    });
    expect((await bulk(t, key, [])).statusCode).toBe(400);
    const malformed = await bulk(t, key, [{ userId: user.id, courseId, tenantId: t.id }]);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details).toEqual([
      { field: "items[0].tenantId", message: "This field is not allowed." },
    ]);
    expect(await tenantEnrollments(t)).toEqual([]);
  });

  it("fans events out to matching automations in the same transaction, condition by condition", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const automation = await createAutomation(
      automationDeps(h.ctx),
      t.id,
      {
        name: "Assistants only",
        trigger: { event: "enrollment_created" },
        condition: { all: [{ field: "event.role", op: "eq", value: "assistant" }] },
        action: { type: "send_webhook", url: "https://93.184.215.14/hook" },
      },
      `http://${t.host}`,
    );
    const ids = await manyStudents(t, 3);
    const { courseId } = await makeCourse(h.database.db, t.id);
    const res = await bulk(t, key, [
      { userId: ids[0], courseId, role: "assistant" },
      { userId: ids[1], courseId },
      { userId: ids[2], courseId, role: "assistant" },
    ]);
    expect(res.json().summary.created).toBe(3);
    const deliveries = await h.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.tenantId, t.id), eq(webhookDeliveries.automationId, automation.id)));
    expect(deliveries).toHaveLength(2);
    const bodies = deliveries.map((d) => JSON.parse(d.body) as { type: string; data: { role: string } });
    expect(bodies.every((b) => b.type === "enrollment_created" && b.data.role === "assistant")).toBe(true);
  });

  it("issues a few statements per chunk of rows, not per item", async () => {
    const t = await makeTenant(h);
    const ids = await manyStudents(t, 1005);
    const { courseId } = await makeCourse(h.database.db, t.id);
    let statements = 0;
    const logger = { logQuery: () => void statements++ };
    const client = (h.database.db as unknown as { $client: never }).$client;
    const db = (h.database.kind === "pglite"
      ? drizzlePglite(client, { schema, logger })
      : drizzleNodePg(client, { schema, logger })) as unknown as Db;

    const small = await bulkEnroll(
      db,
      h.config.plans,
      t.id,
      { kind: "system" },
      ids.slice(0, 5).map((userId) => ({ userId, courseId })),
    );
    expect(small.every((r) => r.status === "created")).toBe(true);
    const forSmall = statements;

    statements = 0;
    const started = performance.now();
    const large = await bulkEnroll(
      db,
      h.config.plans,
      t.id,
      { kind: "system" },
      ids.slice(5).map((userId) => ({ userId, courseId })),
    );
    const ms = performance.now() - started;
    expect(large.filter((r) => r.status === "created")).toHaveLength(1000);
    // users, courses, INSERT … RETURNING, the created rows with progress, the events, the automations they
    // trigger (no class groups asked for, no deliveries to write); whether gamification rewards any of them is
    // read by the events' own statement; BEGIN/COMMIT are not logged on PGlite. The last four once per chunk of
    // BULK_CHUNK rows, so no statement holds the event loop for the whole batch.
    expect(forSmall).toBeLessThanOrEqual(8);
    const extraChunks = Math.ceil(1000 / BULK_CHUNK) - 1;
    expect(statements).toBe(forSmall + 4 * extraChunks);
    expect(await createdEvents(t)).toHaveLength(1005);
    console.info(
      `bulk enrollment: ${statements} statements per request (${(statements / 1000).toFixed(3)} per item at 1000 items); 1000 items in ${ms.toFixed(0)} ms`,
    );
  }, 60_000);
});

describe("emitEvents", () => {
  it("writes every event with its own payload, and a missing subject as SQL null", async () => {
    const t = await makeTenant(h);
    const emitted = await h.database.db.transaction((tx) =>
      emitEvents(tx, t.id, [
        {
          type: "enrollment_dropped",
          data: {
            ...EVENT_SAMPLES.enrollment_dropped,
            enrollmentId: randomUUID(),
            courseId: randomUUID(),
            mode: "drop",
          },
          actor: { type: "system" },
        },
        {
          type: "user_created",
          data: { ...EVENT_SAMPLES.user_created, userId: randomUUID(), role: "student", status: "active" },
          actor: { type: "system" },
          subject: { id: randomUUID(), name: 'Ana "Quote" \\ Souza', email: "ana@x.test", role: "student" },
        },
      ]),
    );
    expect(emitted).toHaveLength(2);
    const rows = await h.database.db.select().from(platformEvents).where(eq(platformEvents.tenantId, t.id));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const dropped = byId.get(emitted[0]?.id as string);
    expect(dropped).toMatchObject({ type: "enrollment_dropped", schemaVersion: 1, subject: null });
    expect(dropped?.occurredAt).toBe(emitted[0]?.occurredAt);
    const created = byId.get(emitted[1]?.id as string);
    expect(created?.subject).toMatchObject({ name: 'Ana "Quote" \\ Souza' });
    expect(created?.actor).toEqual({ type: "system" });
    const isNull = (await h.database.db.execute(
      sql`SELECT subject IS NULL AS "isNull" FROM platform_events WHERE tenant_id = ${t.id} AND id = ${emitted[0]?.id}`,
    )) as unknown as { rows: { isNull: boolean }[] };
    expect(isNull.rows[0]?.isNull).toBe(true);
  });
});
