/**
 * The delivery loop as an engine (issue 11): woken by the commit that writes deliveries rather than by its poll,
 * on both databases (PGlite's in-process notification, PostgreSQL's LISTEN on a connection of its own, which
 * comes back after its backend is killed); a per-endpoint cap that keeps an endpoint hanging until the timeout from
 * holding more than its share of the send slots; and successes recorded in batches, fenced like single records.
 */

import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "../../db/migrations-folder.js";
import { rowsOf } from "../../db/rows.js";
import {
  automations,
  deliveryAttemptLog,
  deliveryAttempts,
  webhookDeliveries,
} from "../../db/schema/index.js";
import { sealSecret } from "../../platform/crypto/secret-box.js";
import { createOutboundClient, type OutboundClient } from "../../platform/outbound/client.js";
import { useApi } from "../../test-support/api.js";
import { makeTenant, type TestTenant } from "../../test-support/harness.js";
import { EVENT_SAMPLES } from "../events/catalogue.js";
import { emitEvent } from "../events/emit.js";
import { claimDue } from "./claim.js";
import { keyringFrom } from "./deliver.js";
import { recordSuccesses } from "./record.js";
import { type DeliveryLoopOptions, startDeliveryLoop } from "./worker.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = pino({ level: "silent" });

const { h } = useApi({ env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32", WEBHOOK_TIMEOUT_MS: "1500" } });
let client: OutboundClient;
let server: Server;
let port: number;
/** Requests by route (first path segment), in arrival order, and those still unanswered per route. */
const received = new Map<string, { id: string; at: number }[]>();
const open = new Map<string, number>();
const mostOpen = new Map<string, number>();
/** Routes that never answer (the client's deadline ends them). */
const hanging = new Set<string>();
/** Routes whose answers wait in `held` until a test sends them. */
const holding = new Set<string>();
const held: ServerResponse[] = [];

beforeAll(async () => {
  client = createOutboundClient(h.config.outbound, { resolve: h.ctx.resolve });
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const route = (req.url ?? "/").split("/")[1] ?? "";
    const now = (open.get(route) ?? 0) + 1;
    open.set(route, now);
    mostOpen.set(route, Math.max(mostOpen.get(route) ?? 0, now));
    res.on("close", () => open.set(route, (open.get(route) ?? 1) - 1));
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]);
      received.set(route, [...(received.get(route) ?? []), { id, at: performance.now() }]);
      if (holding.has(route)) {
        held.push(res);
      } else if (!hanging.has(route)) {
        res.statusCode = 204;
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await client?.destroy();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

interface Endpoint {
  tenant: TestTenant;
  id: string;
  route: string;
}

async function endpoint(tenant: TestTenant): Promise<Endpoint> {
  const id = randomUUID();
  const route = randomBytes(6).toString("hex");
  await h.database.db.insert(automations).values({
    tenantId: tenant.id,
    id,
    name: "engine test",
    triggerEvent: "lesson_completed",
    action: { type: "send_webhook", url: `http://127.0.0.2:${port}/${route}/hook` },
    signingSecret: sealSecret(
      `whsec_${randomBytes(24).toString("base64")}`,
      keyringFrom(h.ctx),
      `automation:${id}`,
    ),
  });
  return { tenant, id, route };
}

/** One lesson_completed event in its own transaction, as a service emits it; resolves after the commit. */
async function emit(tenant: TestTenant): Promise<void> {
  await h.database.db.transaction(async (tx) => {
    await emitEvent(tx, {
      tenantId: tenant.id,
      type: "lesson_completed",
      actor: { type: "system" },
      data: {
        ...EVENT_SAMPLES.lesson_completed,
        courseId: randomUUID(),
        lessonId: randomUUID(),
        moduleId: null,
        enrollmentId: randomUUID(),
        completedAt: new Date().toISOString(),
        timeSpentSeconds: 60,
        scorePercent: 90,
        progressPercent: 50,
        courseCompleted: false,
      },
    });
  });
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** The delivery loop for one test tenant's deliveries, with the shared client and the given settings. */
function loopFor(tenant: TestTenant, options: DeliveryLoopOptions) {
  return startDeliveryLoop(h.ctx, log, { client, tenantIds: [tenant.id], ...options });
}

describe("woken on commit", () => {
  it("delivers an event's webhook at once though the loop's poll is a minute away", async () => {
    const tenant = await makeTenant(h);
    const e = await endpoint(tenant);
    const loop = loopFor(tenant, { pollMs: 60_000 });
    try {
      await loop.started; // its first claims (at start, and once listening) have found nothing
      const latencies: number[] = [];
      for (let i = 0; i < 5; i++) {
        const committed = performance.now();
        await emit(tenant);
        await until("the receipt", () => (received.get(e.route)?.length ?? 0) === i + 1);
        latencies.push((received.get(e.route)?.at(-1)?.at ?? 0) - committed);
      }
      // Without the wake-up each would wait for the poll (60 s); the bound leaves room for a loaded CI machine.
      expect(Math.max(...latencies)).toBeLessThan(2_000);
    } finally {
      await loop.stop();
    }
  });

  it.skipIf(process.env.DATABASE_URL === undefined)(
    "listens again after its PostgreSQL connection is killed, and catches up on what it missed",
    async () => {
      const tenant = await makeTenant(h);
      const e = await endpoint(tenant);
      const loop = loopFor(tenant, { pollMs: 60_000 });
      try {
        const listening = sql`SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN aula_outbox' AND datname = current_database()`;
        const listeners = async () => rowsOf<{ pid: number }>(await h.database.db.execute(listening));
        await until("the LISTEN connection", async () => (await listeners()).length > 0);
        const before = (await listeners()).map((r) => r.pid);
        await h.database.db.execute(
          sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY (${sql.param(before)}::int[])`,
        );
        // Written while no connection listens: found when the connection comes back, not at the next poll.
        await emit(tenant);
        await until("the receipt after reconnecting", () => (received.get(e.route)?.length ?? 0) === 1);
        await emit(tenant);
        await until(
          "a receipt woken by the new connection",
          () => (received.get(e.route)?.length ?? 0) === 2,
        );
      } finally {
        await loop.stop();
      }
    },
  );
});

describe("fair between endpoints", () => {
  it("an endpoint that hangs until the timeout holds at most its cap of the send slots", async () => {
    const tenant = await makeTenant(h);
    const stuck = await endpoint(tenant);
    hanging.add(stuck.route);
    const healthy = await Promise.all(Array.from({ length: 3 }, () => endpoint(tenant)));
    // Every event goes to all four; the stuck endpoint's deliveries are the oldest due at every claim.
    for (let i = 0; i < 8; i++) await emit(tenant);
    const loop = loopFor(tenant, { pollMs: 50, concurrency: 4, endpointConcurrency: 1 });
    try {
      const started = performance.now();
      await until("the healthy endpoints' 24 deliveries", () =>
        healthy.every((e) => (received.get(e.route)?.length ?? 0) === 8),
      );
      // Without the cap, the stuck endpoint's deliveries fill all four slots for 1.5 s at a time.
      expect(performance.now() - started).toBeLessThan(1_400);
      expect(mostOpen.get(stuck.route)).toBe(1);
      for (const e of healthy) expect(mostOpen.get(e.route)).toBe(1);
    } finally {
      await loop.stop();
      hanging.delete(stuck.route);
    }
  });

  it("sends the rest of an endpoint's backlog as its slots free, not at the next poll", async () => {
    const tenant = await makeTenant(h);
    const e = await endpoint(tenant);
    // Six due at once for an endpoint allowed two claimed at a time (one sending, one waiting): the first claim
    // fills its allowance and leaves four, which nothing but a finished send can reach before the poll.
    for (let i = 0; i < 6; i++) await emit(tenant);
    const loop = loopFor(tenant, { pollMs: 60_000, concurrency: 4, endpointConcurrency: 1 });
    try {
      const started = performance.now();
      await until("the endpoint's six deliveries", () => (received.get(e.route)?.length ?? 0) === 6);
      // Waiting for the poll would take a minute; the bound leaves room for a loaded CI machine.
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await loop.stop();
    }
  });

  it("claims again as the sends of a claim that found work finish, finding what fell due without a notification", async () => {
    const tenant = await makeTenant(h);
    const e = await endpoint(tenant);
    holding.add(e.route);
    const loop = loopFor(tenant, { pollMs: 60_000 });
    try {
      // Its own claim once listening must not fall between the first claim and the send it waits for.
      await loop.started;
      await emit(tenant);
      await until("the first delivery's request", () => (received.get(e.route)?.length ?? 0) === 1);
      // Due now, but written without the fan-out's notification (as a retry falls due): while the first send is
      // held, so that only the claim after it can find this one before the poll.
      await h.database.db.execute(sql`
        INSERT INTO webhook_deliveries (tenant_id, automation_id, event_id, event_type, status, url, headers, body)
        SELECT tenant_id, automation_id, gen_random_uuid(), event_type, 'pending', url, headers, body
        FROM webhook_deliveries WHERE tenant_id = ${tenant.id} AND automation_id = ${e.id}`);
      holding.delete(e.route);
      for (const res of held.splice(0)) {
        res.statusCode = 204;
        res.end();
      }
      const started = performance.now();
      await until(
        "the delivery written without a notification",
        () => (received.get(e.route)?.length ?? 0) === 2,
      );
      // At the poll it would take a minute; the bound leaves room for a loaded CI machine.
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await loop.stop();
      holding.delete(e.route);
    }
  });

  it("a claim takes at most an endpoint's free slots, and none of an endpoint at its cap", async () => {
    const tenant = await makeTenant(h);
    const [a, b, c] = await Promise.all([endpoint(tenant), endpoint(tenant), endpoint(tenant)]);
    for (let i = 0; i < 5; i++) await emit(tenant);
    const claimed = await claimDue(h.database.db, {
      limit: 100,
      leaseSeconds: 60,
      endpointLimit: 3,
      endpointFree: new Map([
        [a!.id, 0],
        [b!.id, 1],
      ]),
      tenantIds: [tenant.id],
    });
    const count = (e: Endpoint) => claimed.claimed.filter((d) => d.automationId === e.id).length;
    expect([count(a!), count(b!), count(c!)]).toEqual([0, 1, 3]);
    expect(claimed.more).toBe(false);
  });
  it("reaches the other endpoints past one endpoint's backlog at the head of the queue", async () => {
    const tenant = await makeTenant(h);
    const [a, b] = await Promise.all([endpoint(tenant), endpoint(tenant)]);
    for (let i = 0; i < 3; i++) await emit(tenant);
    // 500 more of a's deliveries, due an hour ago: every row the claim's bounded look at the head of the queue
    // reads is a's.
    await h.database.db.execute(sql`
      INSERT INTO webhook_deliveries (tenant_id, automation_id, event_id, event_type, status, url, headers, body,
        attempts, next_attempt_at)
      SELECT tenant_id, automation_id, event_id, event_type, 'pending', url, headers, body, 0,
        now() - interval '1 hour' + n * interval '1 millisecond'
      FROM webhook_deliveries, generate_series(1, 500) AS n
      WHERE tenant_id = ${tenant.id} AND automation_id = ${a!.id}
      LIMIT 500`);
    const claim = (free: Map<string, number>) =>
      claimDue(h.database.db, {
        limit: 10,
        leaseSeconds: 60,
        endpointLimit: 5,
        endpointFree: free,
        tenantIds: [tenant.id],
      });
    const count = (result: Awaited<ReturnType<typeof claim>>, e: Endpoint) =>
      result.claimed.filter((d) => d.automationId === e.id).length;
    // a within its allowance: five of its backlog, and b's three, in one claim.
    const first = await claim(new Map());
    expect([count(first, a!), count(first, b!)]).toEqual([5, 3]);
    expect(first.more).toBe(true);
    // a at its cap: none of a's, and b's (already claimed) not again; a new event of b's is reached.
    await emit(tenant);
    const second = await claim(new Map([[a!.id, 0]]));
    expect([count(second, a!), count(second, b!)]).toEqual([0, 1]);
  });
});

describe("records in batches", () => {
  it("writes many successes in one go, and leaves a claim taken over to its new owner", async () => {
    const tenant = await makeTenant(h);
    const e = await endpoint(tenant);
    for (let i = 0; i < 30; i++) await emit(tenant);
    const { claimed } = await claimDue(h.database.db, {
      limit: 30,
      leaseSeconds: 60,
      tenantIds: [tenant.id],
    });
    expect(claimed).toHaveLength(30);
    // The first claim's lease is taken over for one delivery: its record must not apply there.
    const [takenOver] = claimed;
    await h.database.db
      .update(webhookDeliveries)
      .set({ attempts: sql`attempts + 1` })
      .where(eq(webhookDeliveries.id, takenOver!.id));
    const ok = { ok: true as const, status: 204, headers: {}, body: "", truncated: false, durationMs: 3 };
    const records = await recordSuccesses(
      h.database.db,
      claimed.map((delivery) => ({ delivery, result: ok, startedAt: new Date() })),
    );
    expect(records.filter((r) => r.applied)).toHaveLength(29);
    expect(records[0]?.applied).toBe(false);
    const ids = claimed.map((d) => d.id);
    const rows = await h.database.db
      .select({ id: webhookDeliveries.id, status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, ids));
    expect(rows.filter((r) => r.status === "succeeded")).toHaveLength(29);
    expect(rows.find((r) => r.id === takenOver!.id)?.status).toBe("delivering");
    // Every attempt really made is in the log, the superseded one included: the 29 applied ones on their
    // deliveries' rows, the superseded one (whose delivery is another worker's now) as an attempt row.
    const logged = await h.database.db
      .select({ id: deliveryAttemptLog.deliveryId, outcome: deliveryAttemptLog.outcome })
      .from(deliveryAttemptLog)
      .where(inArray(deliveryAttemptLog.deliveryId, ids));
    expect(logged).toHaveLength(30);
    expect(logged.every((l) => l.outcome === "succeeded")).toBe(true);
    const attemptRows = await h.database.db
      .select({ id: deliveryAttempts.deliveryId })
      .from(deliveryAttempts)
      .where(inArray(deliveryAttempts.deliveryId, ids));
    expect(attemptRows).toEqual([{ id: takenOver!.id }]);
    const applied = await h.database.db
      .select({ startedAt: webhookDeliveries.successStartedAt, ms: webhookDeliveries.successDurationMs })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, ids));
    expect(applied.filter((r) => r.startedAt !== null && r.ms === 3)).toHaveLength(29);
    expect(e.id).toBe(claimed[0]?.automationId);
    // Every attempt is counted once in the endpoint's statistics, on the row or not.
    const stats = async () =>
      rowsOf<{ attempts: number; succeeded: number }>(
        await h.database.db.execute(sql`
          SELECT sum(attempts)::int AS attempts, sum(succeeded)::int AS succeeded FROM delivery_stats
          WHERE tenant_id = ${tenant.id} AND automation_id = ${e.id}`),
      )[0];
    expect(await stats()).toEqual({ attempts: 30, succeeded: 30 });

    // The same record again (a reply lost after the commit, say) changes nothing: no attempt is logged twice.
    const again = await recordSuccesses(
      h.database.db,
      claimed.slice(1).map((delivery) => ({ delivery, result: ok, startedAt: new Date() })),
    );
    expect(again.every((r) => !r.applied)).toBe(true);
    const loggedAgain = await h.database.db
      .select({ id: deliveryAttemptLog.deliveryId })
      .from(deliveryAttemptLog)
      .where(inArray(deliveryAttemptLog.deliveryId, ids));
    expect(loggedAgain).toHaveLength(30);
    expect(await stats()).toEqual({ attempts: 30, succeeded: 30 });
  });

  it("migration 0029 moves each logged success onto its delivery, and leaves the other attempts as rows", async () => {
    const tenant = await makeTenant(h);
    const e = await endpoint(tenant);
    for (let i = 0; i < 2; i++) await emit(tenant);
    const [done, waiting] = await h.database.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.automationId, e.id));
    // As before 0029: `done` succeeded at its second attempt, both attempts rows; `waiting` failed once, retrying.
    const at = "2026-11-01T10:00:00.000Z";
    await h.database.db.execute(sql`
      UPDATE webhook_deliveries SET status = 'succeeded', attempts = 2, last_status_code = 200, completed_at = now()
      WHERE id = ${done!.id}`);
    await h.database.db.execute(sql`
      UPDATE webhook_deliveries SET attempts = 1, last_status_code = 500 WHERE id = ${waiting!.id}`);
    await h.database.db.insert(deliveryAttempts).values([
      { ...row(done!.id), attempt: 1, outcome: "http_error", statusCode: 500 },
      { ...row(done!.id), attempt: 2, outcome: "succeeded", statusCode: 200, responseExcerpt: "thanks" },
      { ...row(waiting!.id), attempt: 1, outcome: "http_error", statusCode: 500 },
    ]);
    function row(deliveryId: string) {
      return { tenantId: tenant.id, deliveryId, automationId: e.id, startedAt: at, durationMs: 12 };
    }
    // The migration's data statements, as written in it.
    const statements = readFileSync(`${migrationsFolder()}/0029_delivery_success_on_row.sql`, "utf8")
      .split("--> statement-breakpoint")
      .filter((s) => /^(UPDATE "webhook_deliveries"|DELETE FROM "delivery_attempts")/m.test(s));
    expect(statements).toHaveLength(2);
    for (const statement of statements) await h.database.db.execute(sql.raw(statement));

    const [moved] = await h.database.db
      .select({
        startedAt: webhookDeliveries.successStartedAt,
        ms: webhookDeliveries.successDurationMs,
        excerpt: webhookDeliveries.successExcerpt,
      })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, done!.id));
    expect(moved).toEqual({ startedAt: at, ms: 12, excerpt: "thanks" });
    const rows = await h.database.db
      .select({ id: deliveryAttempts.deliveryId, attempt: deliveryAttempts.attempt })
      .from(deliveryAttempts)
      .where(inArray(deliveryAttempts.deliveryId, [done!.id, waiting!.id]));
    expect(rows.map((r) => [r.id, r.attempt]).sort()).toEqual(
      [
        [done!.id, 1],
        [waiting!.id, 1],
      ].sort(),
    );
    // The log reads as it did: both of done's attempts, in order, and waiting's failure.
    const logOf = (id: string) =>
      h.database.db
        .select({
          attempt: deliveryAttemptLog.attempt,
          outcome: deliveryAttemptLog.outcome,
          statusCode: deliveryAttemptLog.statusCode,
          excerpt: deliveryAttemptLog.responseExcerpt,
          startedAt: deliveryAttemptLog.startedAt,
        })
        .from(deliveryAttemptLog)
        .where(eq(deliveryAttemptLog.deliveryId, id))
        .orderBy(deliveryAttemptLog.attempt);
    expect(await logOf(done!.id)).toEqual([
      { attempt: 1, outcome: "http_error", statusCode: 500, excerpt: null, startedAt: at },
      { attempt: 2, outcome: "succeeded", statusCode: 200, excerpt: "thanks", startedAt: at },
    ]);
    expect(await logOf(waiting!.id)).toEqual([
      { attempt: 1, outcome: "http_error", statusCode: 500, excerpt: null, startedAt: at },
    ]);
  });
});
