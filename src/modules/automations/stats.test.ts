/**
 * Delivery stats per automation and endpoint: pending count, oldest pending age, and the last hour's attempts from
 * the per-minute buckets the delivery_attempts trigger keeps. Real deliveries go to a receiver on 127.0.0.2
 * (allow-listed); the minute arithmetic is checked with attempts written directly, at chosen times.
 */

import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/rows.js";
import { createOutboundClient, type OutboundClient } from "../../platform/outbound/client.js";
import { AS_WRITTEN, callApi, type TenantAdmin, tenantAdmin, useApi } from "../../test-support/api.js";
import { bearer, makeKey, roleCookie } from "../../test-support/harness.js";
import { type Receiver, startReceiver } from "../../test-support/receiver.js";
import { EVENT_SAMPLES } from "../events/catalogue.js";
import { emitEvent } from "../events/emit.js";
import { drainOnce } from "../outbox/drain.js";
import { PENDING_COUNT_CAP } from "./stats.js";

const { h } = useApi({ env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32", WEBHOOK_RETRY_SCHEDULE: "60" } });
let receiver: Receiver;
let client: OutboundClient;

beforeAll(async () => {
  client = createOutboundClient(h.config.outbound);
  receiver = await startReceiver({ respond: (req) => ({ status: req.url.startsWith("/ok") ? 200 : 500 }) });
});
afterAll(async () => {
  await client?.destroy();
  await receiver?.close();
});

type Admin = TenantAdmin;
const admin = () => tenantAdmin(h);
const get = (a: Admin, url: string, auth: Record<string, string> = { cookie: a.cookie }) =>
  callApi(h, a.t, auth, "GET", url, undefined, AS_WRITTEN);

async function create(a: Admin, url: string, payload: object): Promise<string> {
  const res = await callApi(h, a.t, a.cookie, "POST", url, payload, AS_WRITTEN);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

const automation = (a: Admin, path: string) =>
  create(a, "/api/institution/automations", {
    name: `to ${path}`,
    trigger: { event: "user_created" },
    action: { type: "send_webhook", url: receiver.url(`/${path}`) },
  });
const endpoint = (a: Admin, path: string) =>
  create(a, "/api/institution/webhooks", {
    url: receiver.url(`/${path}`),
    eventTypes: ["user_created"],
  });

function userCreated(a: Admin) {
  return emitEvent(h.database.db, {
    tenantId: a.t.id,
    type: "user_created",
    data: { ...EVENT_SAMPLES.user_created, userId: a.t.adminUserId, role: "teacher", status: "active" },
    actor: { type: "system" },
  });
}

/** Deliveries written directly: `status`, and `createdSecondsAgo` for the pending age. */
async function deliveries(
  a: Admin,
  automationId: string,
  rows: { status: string; createdSecondsAgo?: number }[],
): Promise<string[]> {
  const ids = rows.map(() => randomUUID());
  for (const [i, row] of rows.entries()) {
    await h.database.db.execute(sql`
      INSERT INTO webhook_deliveries (tenant_id, id, automation_id, event_id, event_type, status, url, headers, body,
        created_at, completed_at)
      VALUES (${a.t.id}, ${ids[i]}, ${automationId}, ${randomUUID()}, 'user_created', ${row.status},
        'https://93.184.215.14/x', '{}', '{}', now() - make_interval(secs => ${row.createdSecondsAgo ?? 0}),
        CASE WHEN ${row.status} IN ('succeeded', 'failed') THEN now() END)`);
  }
  return ids;
}

describe("delivery stats", () => {
  it("count what real deliveries did: pending before the worker, attempts and successes after", async () => {
    const a = await admin();
    const failing = await automation(a, "fail");
    const succeeding = await endpoint(a, "ok");
    await userCreated(a);
    await userCreated(a);

    const before = await get(a, `/api/institution/webhooks/${succeeding}/stats`);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toMatchObject({
      pending: 2,
      lastHour: { attempts: 0, succeeded: 0, successRate: null },
    });
    expect(before.json().oldestPendingAgeSeconds).toBeGreaterThanOrEqual(0);

    const drained = await drainOnce(h.ctx, client, { tenantIds: [a.t.id] });
    expect(drained.claimed).toBe(4);

    const endpointStats = await get(a, `/api/institution/webhooks/${succeeding}/stats`);
    expect(endpointStats.json()).toEqual({
      pending: 0,
      oldestPendingAgeSeconds: null,
      lastHour: { attempts: 2, succeeded: 2, successRate: 1 },
    });
    // Both failed with 500 and wait for their retry: still pending, two failed attempts.
    const automationStats = await get(a, `/api/institution/automations/${failing}/stats`);
    expect(automationStats.json()).toMatchObject({
      pending: 2,
      lastHour: { attempts: 2, succeeded: 0, successRate: 0 },
    });

    const all = await get(a, "/api/institution/webhooks/deliveries/stats");
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().pagination).toEqual({ page: 1, perPage: 20, total: 2, totalPages: 1 });
    // The same figures as each one's own route (the pending age has gone on ticking meanwhile).
    const [first, last] = all.json().data;
    expect(first).toEqual({
      automationId: failing,
      kind: "automation",
      name: "to fail",
      ...automationStats.json(),
      oldestPendingAgeSeconds: expect.any(Number),
    });
    expect(first.oldestPendingAgeSeconds).toBeGreaterThanOrEqual(
      automationStats.json().oldestPendingAgeSeconds,
    );
    expect(last).toEqual({
      automationId: succeeding,
      kind: "endpoint",
      name: receiver.url("/ok"),
      ...endpointStats.json(),
    });
    const second = await get(a, "/api/institution/webhooks/deliveries/stats?perPage=1&page=2");
    expect(second.json().data.map((s: { automationId: string }) => s.automationId)).toEqual([succeeding]);
  });

  it("sum the buckets of the current minute and the 59 before it, per automation, from batched inserts", async () => {
    const a = await admin();
    const first = await automation(a, "one");
    const other = await automation(a, "two");
    const [d1, d2, d3] = await deliveries(a, first, [
      { status: "succeeded" },
      { status: "failed" },
      { status: "succeeded" },
    ]);
    const [e1] = await deliveries(a, other, [{ status: "failed" }]);
    // One statement over two automations and four minutes, as the worker's batched records write them.
    await h.database.db.execute(sql`
      INSERT INTO delivery_attempts (tenant_id, delivery_id, automation_id, attempt, started_at, duration_ms, outcome)
      VALUES
        (${a.t.id}, ${d1}, ${first}, 1, now(), 5, 'succeeded'),
        (${a.t.id}, ${d2}, ${first}, 1, now(), 5, 'http_error'),
        (${a.t.id}, ${d2}, ${first}, 2, now() - interval '30 minutes', 5, 'timeout'),
        (${a.t.id}, ${d3}, ${first}, 1, now() - interval '30 minutes', 5, 'succeeded'),
        (${a.t.id}, ${d3}, ${first}, 2, now() - interval '61 minutes', 5, 'succeeded'),
        (${a.t.id}, ${d1}, ${first}, 2, now() - interval '3 hours', 5, 'network'),
        (${a.t.id}, ${e1}, ${other}, 1, now(), 5, 'http_error')`);

    const buckets = rowsOf<{ automation_id: string; attempts: number; succeeded: number }>(
      await h.database.db.execute(sql`
        SELECT automation_id, attempts, succeeded FROM delivery_stats WHERE tenant_id = ${a.t.id}
        ORDER BY automation_id = ${first} DESC, minute DESC`),
    );
    expect(buckets).toEqual([
      { automation_id: first, attempts: 2, succeeded: 1 },
      { automation_id: first, attempts: 2, succeeded: 1 },
      { automation_id: first, attempts: 1, succeeded: 1 },
      { automation_id: first, attempts: 1, succeeded: 0 },
      { automation_id: other, attempts: 1, succeeded: 0 },
    ]);

    const stats = await get(a, `/api/institution/automations/${first}/stats`);
    expect(stats.json()).toEqual({
      pending: 0,
      oldestPendingAgeSeconds: null,
      lastHour: { attempts: 4, succeeded: 2, successRate: 0.5 },
    });
    // A later batch adds to the minute (to this session's row, or to another session's own).
    await h.database.db.execute(sql`
      INSERT INTO delivery_attempts (tenant_id, delivery_id, automation_id, attempt, started_at, duration_ms, outcome)
      VALUES (${a.t.id}, ${d1}, ${first}, 3, now(), 5, 'succeeded'), (${a.t.id}, ${d2}, ${first}, 3, now(), 5, 'succeeded')`);
    const later = await get(a, `/api/institution/automations/${first}/stats`);
    expect(later.json().lastHour).toEqual({ attempts: 6, succeeded: 4, successRate: 0.6667 });
    const otherStats = await get(a, `/api/institution/automations/${other}/stats`);
    expect(otherStats.json().lastHour).toEqual({ attempts: 1, succeeded: 0, successRate: 0 });
  });

  // Two sessions: PGlite has one, so this runs on PostgreSQL (CI).
  it.skipIf(!process.env.DATABASE_URL)(
    "let two sessions record attempts of one automation and minute without waiting for each other",
    async () => {
      const a = await admin();
      const id = await automation(a, "busy");
      const [d1, d2] = await deliveries(a, id, [{ status: "delivering" }, { status: "delivering" }]);
      const attempt = (delivery: string | undefined) => sql`
        INSERT INTO delivery_attempts (tenant_id, delivery_id, automation_id, attempt, started_at, duration_ms, outcome)
        VALUES (${a.t.id}, ${delivery}, ${id}, 1, date_trunc('minute', now()) + interval '1 second', 5, 'succeeded')`;
      await h.database.db.transaction(async (tx) => {
        await tx.execute(attempt(d1));
        // Another connection of the pool, while this transaction holds its own bucket row.
        const other = h.database.db.execute(attempt(d2));
        const waited = await Promise.race([
          other.then(() => false),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 3_000)),
        ]);
        expect(waited).toBe(false);
      });
      const stats = await get(a, `/api/institution/automations/${id}/stats`);
      expect(stats.json().lastHour).toEqual({ attempts: 2, succeeded: 2, successRate: 1 });
    },
  );

  it("age the oldest delivery not completed yet, delivering ones included, and ignore completed ones", async () => {
    const a = await admin();
    const id = await automation(a, "aging");
    await deliveries(a, id, [
      { status: "succeeded", createdSecondsAgo: 9_000 },
      { status: "delivering", createdSecondsAgo: 600 },
      { status: "pending", createdSecondsAgo: 100 },
      { status: "failed", createdSecondsAgo: 7_000 },
    ]);
    const stats = (await get(a, `/api/institution/automations/${id}/stats`)).json();
    expect(stats.pending).toBe(2);
    expect(stats.oldestPendingAgeSeconds).toBeGreaterThanOrEqual(600);
    expect(stats.oldestPendingAgeSeconds).toBeLessThan(660);
  });

  it(`stop counting pending deliveries at ${PENDING_COUNT_CAP}`, async () => {
    const a = await admin();
    const id = await automation(a, "backlog");
    await h.database.db.execute(sql`
      INSERT INTO webhook_deliveries (tenant_id, automation_id, event_id, event_type, url, headers, body)
      SELECT ${a.t.id}, ${id}, gen_random_uuid(), 'user_created', 'https://93.184.215.14/x', '{}', '{}'
      FROM generate_series(1, ${PENDING_COUNT_CAP + 5})`);
    const stats = (await get(a, `/api/institution/automations/${id}/stats`)).json();
    expect(stats.pending).toBe(PENDING_COUNT_CAP);
  });

  it("are the tenant's own, each kind under its own group: another id is 404", async () => {
    const a = await admin();
    const b = await admin();
    const auto = await automation(a, "mine");
    const hook = await endpoint(a, "mine");
    await userCreated(a);
    for (const url of [
      `/api/institution/automations/${auto}/stats`,
      `/api/institution/webhooks/${hook}/stats`,
    ]) {
      expect((await get(a, url)).statusCode).toBe(200);
      const other = await get(b, url);
      expect(other.statusCode, other.body).toBe(404);
      expect(other.json().error).toBe("not_found");
    }
    // The kinds do not cross: an endpoint is not an automation, nor the reverse.
    expect((await get(a, `/api/institution/automations/${hook}/stats`)).statusCode).toBe(404);
    expect((await get(a, `/api/institution/webhooks/${auto}/stats`)).statusCode).toBe(404);
    expect((await get(a, "/api/institution/automations/not-a-uuid/stats")).statusCode).toBe(404);
    const theirs = await get(b, "/api/institution/webhooks/deliveries/stats");
    expect(theirs.json()).toEqual({
      data: [],
      pagination: { page: 1, perPage: 20, total: 0, totalPages: 0 },
    });
  });

  it("need automations:read on a key and an administrator's session", async () => {
    const a = await admin();
    const id = await automation(a, "scoped");
    const urls = [`/api/institution/automations/${id}/stats`, "/api/institution/webhooks/deliveries/stats"];
    const reader = bearer(await makeKey(h, a.t, ["automations:read"]));
    const stranger = bearer(await makeKey(h, a.t, ["courses:read"]));
    const teacher = { cookie: await roleCookie(h, a.t, "teacher") };
    for (const url of urls) {
      expect((await get(a, url, reader)).statusCode).toBe(200);
      expect((await get(a, url, stranger)).statusCode).toBe(403);
      expect((await get(a, url, teacher)).statusCode).toBe(403);
      expect((await get(a, url, {})).statusCode).toBe(401);
    }
  });
});
