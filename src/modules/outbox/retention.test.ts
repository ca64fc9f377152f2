/**
 * The delivery log's retention purge. Scoped to the test's tenant (`tenantIds`), so test files sharing one
 * PostgreSQL keep their rows; the scheduled job itself runs on an embedded database of its own.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { readCounter } from "../../db/counters.js";
import { rowsOf } from "../../db/rows.js";
import { useApi } from "../../test-support/api.js";
import {
  adminCookie,
  type Harness,
  json,
  makeTenant,
  startHarness,
  type TestTenant,
} from "../../test-support/harness.js";
import { JOBS, startWorker } from "../../worker/runner.js";
import { purgeCompletedDeliveries } from "./retention.js";

const { h } = useApi();

interface Owner {
  t: TestTenant;
  cookie: string;
  automationId: string;
}

async function owner(harness: Harness): Promise<Owner> {
  const t = await makeTenant(harness);
  const cookie = await adminCookie(harness, t);
  const res = await harness.inject({
    method: "POST",
    url: "/api/institution/automations",
    headers: { host: t.host, cookie, ...json },
    payload: {
      name: "kept a while",
      trigger: { event: "user_created" },
      action: { type: "send_webhook", url: "https://93.184.215.14/hook" },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { t, cookie, automationId: res.json<{ id: string }>().id };
}

/**
 * A delivery in `status`, created `daysAgo` days ago and (when completed) completed `completedDaysAgo` days ago,
 * with one attempt started when it completed (or was created), which also fills that minute's stats bucket.
 */
async function delivery(
  harness: Harness,
  o: Owner,
  status: string,
  days: { created: number; completed?: number },
): Promise<string> {
  const id = randomUUID();
  const completed = days.completed ?? null;
  await harness.database.db.execute(sql`
    INSERT INTO webhook_deliveries (tenant_id, id, automation_id, event_id, event_type, status, url, headers, body,
      attempts, created_at, completed_at)
    VALUES (${o.t.id}, ${id}, ${o.automationId}, ${randomUUID()}, 'user_created', ${status},
      'https://93.184.215.14/hook', '{}', '{}', 1, now() - make_interval(days => ${days.created}),
      now() - make_interval(days => ${completed}::int))`);
  await harness.database.db.execute(sql`
    INSERT INTO delivery_attempts (tenant_id, delivery_id, automation_id, attempt, started_at, duration_ms, outcome)
    VALUES (${o.t.id}, ${id}, ${o.automationId}, 1, now() - make_interval(days => ${completed ?? days.created}), 5,
      ${status === "succeeded" ? "succeeded" : "http_error"})`);
  return id;
}

async function remaining(harness: Harness, o: Owner) {
  const deliveries = rowsOf<{ id: string }>(
    await harness.database.db.execute(
      sql`SELECT id FROM webhook_deliveries WHERE tenant_id = ${o.t.id} ORDER BY id`,
    ),
  ).map((r) => r.id);
  const attempts = rowsOf<{ delivery_id: string }>(
    await harness.database.db.execute(
      sql`SELECT delivery_id FROM delivery_attempts WHERE tenant_id = ${o.t.id} ORDER BY delivery_id`,
    ),
  ).map((r) => r.delivery_id);
  const buckets = rowsOf<{ n: number }>(
    await harness.database.db.execute(
      sql`SELECT count(*)::int AS n FROM delivery_stats WHERE tenant_id = ${o.t.id}`,
    ),
  )[0]?.n;
  return { deliveries, attempts, buckets };
}

async function listedTotal(o: Owner): Promise<number> {
  const res = await h.inject({
    method: "GET",
    url: `/api/institution/automations/${o.automationId}/deliveries`,
    headers: { host: o.t.host, cookie: o.cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().pagination.total;
}

describe("purgeCompletedDeliveries", () => {
  it("deletes completed deliveries past retention with their attempts, in batches, and keeps the rest", async () => {
    const o = await owner(h);
    const expired = [
      await delivery(h, o, "succeeded", { created: 40, completed: 31 }),
      await delivery(h, o, "succeeded", { created: 40, completed: 35 }),
      await delivery(h, o, "succeeded", { created: 90, completed: 89 }),
      await delivery(h, o, "failed", { created: 40, completed: 31 }),
      await delivery(h, o, "failed", { created: 33, completed: 32 }),
    ];
    const kept = [
      await delivery(h, o, "succeeded", { created: 40, completed: 29 }),
      await delivery(h, o, "failed", { created: 1, completed: 0 }),
      // Never completed, however old: still owed to the receiver.
      await delivery(h, o, "pending", { created: 60 }),
      await delivery(h, o, "delivering", { created: 60 }),
    ];
    expect(await listedTotal(o)).toBe(9);
    // One stats bucket per attempt minute: the one of today's attempt stays, the older ones go.
    const before = await remaining(h, o);
    expect(before.buckets).toBeGreaterThan(1);

    const result = await purgeCompletedDeliveries(h.database.db, {
      retentionDays: 30,
      batchSize: 2,
      tenantIds: [o.t.id],
    });
    expect(result.deliveries).toBe(5);
    const after = await remaining(h, o);
    expect(after.deliveries).toEqual([...kept].sort());
    expect(after.attempts).toEqual([...kept].sort());
    expect(after.deliveries).not.toContain(expired[0]);
    // Deliveries: 2, 2, 1 (short: done). Buckets: every one but today's, two per statement, until a short one.
    expect(result.buckets).toBe((before.buckets ?? 0) - 1);
    expect(result.batches).toBe(3 + Math.floor(result.buckets / 2) + 1);
    expect(after.buckets).toBe(1);
    // The list's total (a trigger-kept counter) followed the deletes.
    expect(await listedTotal(o)).toBe(4);
    expect(
      await readCounter(h.database.db, o.t.id, `webhook_deliveries:automation_id:${o.automationId}`),
    ).toBe(4);

    const again = await purgeCompletedDeliveries(h.database.db, { retentionDays: 30, tenantIds: [o.t.id] });
    expect(again).toEqual({ deliveries: 0, buckets: 0, batches: 2 });
  });

  it("loops while batches come back full, a last empty one included", async () => {
    const o = await owner(h);
    for (let i = 0; i < 4; i++) await delivery(h, o, "succeeded", { created: 10, completed: 8 });
    const result = await purgeCompletedDeliveries(h.database.db, {
      retentionDays: 7,
      batchSize: 2,
      tenantIds: [o.t.id],
    });
    expect(result.deliveries).toBe(4);
    // Deliveries 2, 2 and an empty third; buckets until their short batch.
    expect(result.batches).toBe(3 + Math.floor(result.buckets / 2) + 1);
    expect((await remaining(h, o)).deliveries).toEqual([]);
  });

  it("runs hourly in the worker with WEBHOOK_RETENTION_DAYS", async () => {
    const job = JOBS.find((j) => j.name === "webhook-deliveries-retention");
    expect(job?.everyMs).toBe(3_600_000);
    // Its own embedded database: the job purges every tenant's rows.
    const own = await startHarness({ DATABASE_URL: "", REDIS_URL: "", WEBHOOK_RETENTION_DAYS: "3" });
    try {
      const o = await owner(own);
      const old = await delivery(own, o, "succeeded", { created: 5, completed: 4 });
      const young = await delivery(own, o, "succeeded", { created: 5, completed: 2 });
      const worker = startWorker(own.ctx, pino({ level: "silent" }), job === undefined ? [] : [job], {
        deliveries: false,
      });
      await worker.stop();
      const left = (await remaining(own, o)).deliveries;
      expect(left).toContain(young);
      expect(left).not.toContain(old);
    } finally {
      await own.close();
    }
  });
});
