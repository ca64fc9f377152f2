/**
 * The delivery worker against real sockets and a real database (PGlite, or PostgreSQL with DATABASE_URL):
 * the receiver listens on 127.0.0.2 (allow-listed, OUTBOUND_ALLOW_CIDRS) and verifies every request with the
 * `standardwebhooks` library; a canary on 127.0.0.1, on the same port, must never see a connection.
 * Every drain is scoped to the test's tenant, so test files sharing one PostgreSQL do not take each other's rows.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { asc, eq, inArray } from "drizzle-orm";
import pino from "pino";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { automations, deliveryAttemptLog, webhookDeliveries } from "../../db/schema/index.js";
import { sealSecret } from "../../platform/crypto/secret-box.js";
import { createOutboundClient, type OutboundClient } from "../../platform/outbound/client.js";
import { createDnsStub, type DnsStub } from "../../platform/outbound/resolver.js";
import { checkTargetUrl } from "../../platform/outbound/target-url.js";
import { useApi } from "../../test-support/api.js";
import { adminCookie, makeTenant, type TestTenant } from "../../test-support/harness.js";
import { startWorker } from "../../worker/runner.js";
import { claimDue, DISABLED_AUTOMATION_ERROR } from "./claim.js";
import { keyringFrom, SECRET_ERROR } from "./deliver.js";
import { type DrainOptions, type DrainSummary, drainOnce } from "./drain.js";
import { FAILING_REASON, GONE_REASON, recordAttempt } from "./record.js";
import {
  decide,
  describeAttempt,
  MAX_RETRY_AFTER_SECONDS,
  parseRetryAfter,
  truncateUtf8,
} from "./retry-policy.js";
import { signedHeaders } from "./send.js";
import { startDeliveryLoop } from "./worker.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Seen {
  route: string;
  headers: Record<string, string>;
  body: string;
  /** Whether `new Webhook(secret).verify(body, headers)` accepted it. */
  verified: boolean;
}

interface Listener {
  server: Server;
  port: number;
  connections: number;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function flatHeaders(headers: IncomingMessage["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { h } = useApi({
  env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32", WEBHOOK_RETRY_SCHEDULE: "1,1,1", WEBHOOK_TIMEOUT_MS: "1000" },
});
let client: OutboundClient;
let dns: DnsStub;
let receiver: Listener;
let canary: Listener;
let port: number;
/** Per route (first path segment): the handler and the secret the receiver verifies with. */
const routes = new Map<string, { handler: Handler; secret: string }>();
const seen: Seen[] = [];

beforeAll(async () => {
  dns = createDnsStub();
  client = createOutboundClient(h.config.outbound, { resolve: dns.resolve });
  for (let attempt = 0; ; attempt++) {
    const first = createServer();
    const second = createServer();
    try {
      port = await listen(first, "127.0.0.2", 0);
      await listen(second, "127.0.0.1", port);
      receiver = { server: first, port, connections: 0 };
      canary = { server: second, port, connections: 0 };
      break;
    } catch (err) {
      await Promise.all([closeServer(first), closeServer(second)].map((p) => p.catch(() => {})));
      if (attempt > 5) throw err;
    }
  }
  receiver.server.on("connection", () => void receiver.connections++);
  canary.server.on("connection", () => void canary.connections++);
  canary.server.on("request", (_req: IncomingMessage, res: ServerResponse) => res.end("canary"));
  receiver.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const route = (req.url ?? "/").split("/")[1] ?? "";
      const entry = routes.get(route);
      const headers = flatHeaders(req.headers);
      let verified = false;
      if (entry !== undefined) {
        try {
          new Webhook(entry.secret).verify(body, headers);
          verified = true;
        } catch {
          verified = false;
        }
      }
      seen.push({ route, headers, body, verified });
      if (entry === undefined) {
        res.statusCode = 404;
        res.end();
      } else {
        entry.handler(req, res, body);
      }
    });
  });
});

afterAll(async () => {
  await client?.destroy();
  await Promise.all([receiver, canary].filter((l) => l !== undefined).map((l) => closeServer(l.server)));
});

interface TestAutomation {
  tenant: TestTenant;
  id: string;
  secret: string;
  route: string;
  url: string;
}

/** A tenant, an automation whose URL routes to `handler` on the receiver, and its secret. */
async function setup(
  handler: Handler,
  options: { url?: (route: string) => string; failingSince?: string } = {},
): Promise<TestAutomation> {
  const tenant = await makeTenant(h);
  const id = randomUUID();
  const route = randomBytes(6).toString("hex");
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const url = options.url?.(route) ?? `http://127.0.0.2:${port}/${route}/hook`;
  routes.set(route, { handler, secret });
  await h.database.db.insert(automations).values({
    tenantId: tenant.id,
    id,
    name: "delivery test",
    triggerEvent: "lesson_completed",
    action: { type: "send_webhook", url },
    signingSecret: sealSecret(secret, keyringFrom(h.ctx), `automation:${id}`),
    ...(options.failingSince === undefined ? {} : { failingSince: options.failingSince }),
  });
  return { tenant, id, secret, route, url };
}

async function enqueue(
  a: TestAutomation,
  count = 1,
  extra: { headers?: Record<string, string>; body?: (i: number) => string } = {},
): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    tenantId: a.tenant.id,
    id: randomUUID(),
    automationId: a.id,
    eventId: randomUUID(),
    eventType: "lesson_completed",
    url: a.url,
    headers: extra.headers ?? {},
    body: extra.body?.(i) ?? JSON.stringify({ type: "lesson_completed", n: i, data: { score: 90 } }),
  }));
  await h.database.db.insert(webhookDeliveries).values(rows);
  return rows.map((r) => r.id);
}

function drain(a: TestAutomation, options: DrainOptions = {}): Promise<DrainSummary> {
  return drainOnce(h.ctx, client, { tenantIds: [a.tenant.id], ...options });
}

async function delivery(id: string) {
  const [row] = await h.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  if (row === undefined) throw new Error(`no delivery ${id}`);
  return row;
}

async function attemptsOf(id: string) {
  return h.database.db
    .select()
    .from(deliveryAttemptLog)
    .where(eq(deliveryAttemptLog.deliveryId, id))
    .orderBy(asc(deliveryAttemptLog.attempt));
}

async function automationRow(a: TestAutomation) {
  const [row] = await h.database.db.select().from(automations).where(eq(automations.id, a.id));
  if (row === undefined) throw new Error("no automation");
  return row;
}

const requestsFor = (a: TestAutomation) => seen.filter((s) => s.route === a.route);

/** Drains (real clock) until `done` or the deadline: retries become due along the 1-second schedule. */
async function drainUntil(a: TestAutomation, done: () => Promise<boolean>, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("timed out draining");
    await drain(a);
    await sleep(100);
  }
}

/** A fake clock for one drain: `hours` hours from now, the same for every reading within the drain. */
function hoursLater(hours: number): () => Date {
  const at = new Date(Date.now() + hours * 3600_000);
  return () => at;
}

const ok: Handler = (_req, res) => res.end('{"received":true}');

describe("retry policy (pure)", () => {
  const facts = (status: number | null, outcome = "http_error", retryAfter: number | null = null) =>
    ({
      outcome,
      statusCode: status,
      responseExcerpt: null,
      error: null,
      durationMs: 1,
      retryAfterSeconds: retryAfter,
    }) as Parameters<typeof decide>[0];

  it("follows the schedule, then gives up; 410 and invalid are final", () => {
    const schedule = [5, 300, 1800];
    expect(decide(facts(500), 1, schedule)).toEqual({ status: "pending", delaySeconds: 5 });
    expect(decide(facts(500), 3, schedule)).toEqual({ status: "pending", delaySeconds: 1800 });
    expect(decide(facts(500), 4, schedule)).toEqual({ status: "failed", why: "exhausted" });
    expect(decide(facts(null, "network"), 2, schedule)).toEqual({ status: "pending", delaySeconds: 300 });
    expect(decide(facts(null, "blocked"), 1, schedule)).toEqual({ status: "pending", delaySeconds: 5 });
    expect(decide(facts(410), 1, schedule)).toEqual({ status: "failed", why: "gone" });
    expect(decide(facts(null, "invalid"), 1, schedule)).toEqual({ status: "failed", why: "invalid" });
    expect(decide(facts(204, "succeeded"), 4, schedule)).toEqual({ status: "succeeded" });
  });

  it("honours Retry-After on 429/503 (at least the schedule, at most 24 h)", () => {
    expect(decide(facts(429, "http_error", 60), 1, [5])).toEqual({ status: "pending", delaySeconds: 60 });
    expect(decide(facts(503, "http_error", 1), 1, [5])).toEqual({ status: "pending", delaySeconds: 5 });
    expect(decide(facts(429, "http_error", 10 ** 9), 1, [5])).toEqual({
      status: "pending",
      delaySeconds: MAX_RETRY_AFTER_SECONDS,
    });
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter(" 7 ", now)).toBe(7);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:01:30 GMT", now)).toBe(90);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("-5", now)).toBeNull();
    expect(parseRetryAfter("1.5", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    // Only 429 and 503 carry it.
    const result = { ok: true as const, headers: { "retry-after": "30" }, body: "", truncated: false };
    expect(describeAttempt({ ...result, status: 429, durationMs: 1 }).retryAfterSeconds).toBe(30);
    expect(describeAttempt({ ...result, status: 500, durationMs: 1 }).retryAfterSeconds).toBeNull();
  });

  it("truncates excerpts at a character boundary and drops NUL", () => {
    expect(truncateUtf8("ééé", 5)).toBe("éé");
    expect(truncateUtf8("abc", 5)).toBe("abc");
    const facts = describeAttempt({
      ok: true,
      status: 500,
      headers: {},
      body: `a\u0000${"€".repeat(600)}`,
      truncated: true,
      durationMs: 3,
    });
    expect(facts.responseExcerpt?.startsWith("a€")).toBe(true);
    expect(Buffer.byteLength(facts.responseExcerpt ?? "")).toBeLessThanOrEqual(1024);
    expect(facts.responseExcerpt).not.toContain("\u0000");
  });

  it("platform headers win over stored ones, whatever their case", () => {
    const signed = signedHeaders(
      {
        id: "msg_1",
        body: "{}",
        headers: { "X-Custom": "1", "Webhook-Id": "forged", "Content-Type": "text/plain", "USER-AGENT": "x" },
      },
      `whsec_${randomBytes(24).toString("base64")}`,
      new Date(),
    );
    expect(signed.ok).toBe(true);
    if (!signed.ok) return;
    expect(signed.headers["x-custom"]).toBe("1");
    expect(signed.headers["webhook-id"]).toBe("msg_1");
    expect(signed.headers["content-type"]).toBe("application/json");
    expect(signed.headers["user-agent"]).toBe("Aula-Webhooks/1");
    expect(Object.keys(signed.headers).filter((k) => k.toLowerCase() === "webhook-id")).toHaveLength(1);
    expect(signedHeaders({ id: "m", body: "{}", headers: { a: 1 } }, "whsec_AAAA", new Date()).ok).toBe(
      false,
    );
  });
});

describe("delivery", () => {
  it("sends signed Standard Webhooks requests the library verifies; success is recorded once", async () => {
    const a = await setup(ok);
    const [id] = await enqueue(a, 1, {
      headers: { "x-tenant-header": "hello", "webhook-signature": "v1,forged" },
    });
    const summary = await drain(a);
    expect(summary.claimed).toBe(1);

    const requests = requestsFor(a);
    expect(requests).toHaveLength(1);
    const req = requests[0]!;
    expect(req.verified).toBe(true);
    expect(req.headers["webhook-id"]).toBe(id);
    expect(req.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(Number(req.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(10);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["user-agent"]).toBe("Aula-Webhooks/1");
    expect(req.headers["x-tenant-header"]).toBe("hello");
    expect(JSON.parse(req.body)).toMatchObject({ type: "lesson_completed", n: 0 });
    // A wrong secret does not verify.
    expect(() =>
      new Webhook(`whsec_${randomBytes(24).toString("base64")}`).verify(req.body, req.headers),
    ).toThrow();

    const row = await delivery(id!);
    expect(row).toMatchObject({ status: "succeeded", attempts: 1, lastStatusCode: 200, leaseUntil: null });
    expect(row.completedAt).not.toBeNull();
    const attempts = await attemptsOf(id!);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      outcome: "succeeded",
      statusCode: 200,
      responseExcerpt: '{"received":true}',
      error: null,
    });
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(0);
    // Nothing more to do.
    expect((await drain(a)).claimed).toBe(0);
    expect(canary.connections).toBe(0);
  });

  it("retries a receiver that fails twice along the schedule, then succeeds (same webhook-id)", async () => {
    let calls = 0;
    const a = await setup((_req, res) => {
      calls++;
      res.statusCode = calls <= 2 ? 500 : 200;
      res.end(calls <= 2 ? "boom" : "ok");
    });
    const [id] = await enqueue(a);
    await drain(a);
    let row = await delivery(id!);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: "HTTP 500" });
    // Not due before the schedule's 1 s.
    expect((await drain(a)).claimed).toBe(0);
    const firstAt = Date.now();
    await drainUntil(a, async () => (await delivery(id!)).status === "succeeded");
    expect(Date.now() - firstAt).toBeGreaterThanOrEqual(1500);

    row = await delivery(id!);
    expect(row).toMatchObject({ status: "succeeded", attempts: 3, lastStatusCode: 200, lastError: null });
    const attempts = await attemptsOf(id!);
    expect(attempts.map((t) => [t.attempt, t.outcome, t.statusCode])).toEqual([
      [1, "http_error", 500],
      [2, "http_error", 500],
      [3, "succeeded", 200],
    ]);
    expect(attempts[0]!.responseExcerpt).toBe("boom");
    // Each retry was at least a schedule step (1 s) after the previous attempt.
    for (let i = 1; i < attempts.length; i++) {
      const gap = Date.parse(attempts[i]!.startedAt) - Date.parse(attempts[i - 1]!.startedAt);
      expect(gap).toBeGreaterThanOrEqual(900);
    }
    const requests = requestsFor(a);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([id]));
    expect(requests.every((r) => r.verified)).toBe(true);
    // A success clears the failing streak.
    expect((await automationRow(a)).failingSince).toBeNull();
    // The API's log is the same three attempts: the two failures are rows, the success is on the delivery.
    const res = await h.inject({
      method: "GET",
      url: `/api/institution/automations/${a.id}/deliveries/${id}`,
      headers: { host: a.tenant.host, cookie: await adminCookie(h, a.tenant) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().attemptLog).toEqual(
      attempts.map((t) => ({
        attempt: t.attempt,
        startedAt: t.startedAt,
        durationMs: t.durationMs,
        outcome: t.outcome,
        statusCode: t.statusCode,
        responseExcerpt: t.responseExcerpt,
        error: t.error,
      })),
    );
    expect(res.json().attemptLog[2]).toMatchObject({ outcome: "succeeded", responseExcerpt: "ok" });
  });

  it("gives up after the schedule runs out (schedule.length + 1 attempts)", async () => {
    const a = await setup((_req, res) => {
      res.statusCode = 502;
      res.end();
    });
    const [id] = await enqueue(a);
    // A fake clock an hour further on at each drain makes every retry due at once.
    for (let i = 1; i <= 6; i++) await drain(a, { now: hoursLater(i) });
    const row = await delivery(id!);
    expect(row).toMatchObject({ status: "failed", attempts: 4, lastStatusCode: 502 });
    expect(row.completedAt).not.toBeNull();
    expect(await attemptsOf(id!)).toHaveLength(4);
    expect(requestsFor(a)).toHaveLength(4);
    const automation = await automationRow(a);
    expect(automation.failingSince).not.toBeNull();
    expect(automation.enabled).toBe(true);
  });

  it("429 with Retry-After: 2 waits at least 2 s (longer than the 1 s schedule)", async () => {
    let calls = 0;
    const a = await setup((_req, res) => {
      calls++;
      if (calls === 1) {
        res.statusCode = 429;
        res.setHeader("retry-after", "2");
      }
      res.end();
    });
    const [id] = await enqueue(a);
    await drain(a);
    const row = await delivery(id!);
    expect(row).toMatchObject({ status: "pending", lastStatusCode: 429 });
    const [first] = await attemptsOf(id!);
    expect(Date.parse(row.nextAttemptAt) - Date.parse(first!.startedAt)).toBeGreaterThanOrEqual(1900);
    await sleep(1300);
    expect((await drain(a)).claimed).toBe(0);
    await drainUntil(a, async () => (await delivery(id!)).status === "succeeded");
    const attempts = await attemptsOf(id!);
    expect(attempts.map((t) => t.outcome)).toEqual(["http_error", "succeeded"]);
    expect(Date.parse(attempts[1]!.startedAt) - Date.parse(attempts[0]!.startedAt)).toBeGreaterThanOrEqual(
      1900,
    );
  });

  it("410 fails the delivery and disables the automation; its other due deliveries are closed unsent", async () => {
    const a = await setup((_req, res) => {
      res.statusCode = 410;
      res.end("gone");
    });
    const [first] = await enqueue(a);
    await drain(a, { batchSize: 1 });
    expect(await delivery(first!)).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 410 });
    const automation = await automationRow(a);
    expect(automation).toMatchObject({ enabled: false, disabledReason: GONE_REASON });

    const [second] = await enqueue(a);
    const summary = await drain(a);
    expect(summary).toMatchObject({ claimed: 0, abandoned: 1 });
    expect(await delivery(second!)).toMatchObject({
      status: "failed",
      attempts: 0,
      lastError: DISABLED_AUTOMATION_ERROR,
    });
    expect(await attemptsOf(second!)).toHaveLength(0);
    expect(requestsFor(a)).toHaveLength(1);
  });

  it("an endpoint failing for 5 days is disabled and says so; a fresh failure only starts the streak", async () => {
    const failing: Handler = (_req, res) => {
      res.statusCode = 500;
      res.end();
    };
    const fresh = await setup(failing);
    await enqueue(fresh);
    await drain(fresh);
    const started = await automationRow(fresh);
    expect(started.enabled).toBe(true);
    expect(started.failingSince).not.toBeNull();

    const old = new Date(Date.now() - 5 * 86_400_000 - 60_000).toISOString();
    const a = await setup(failing, { failingSince: old });
    const [id] = await enqueue(a);
    const summary = await drain(a);
    expect(summary.attempts[0]?.record?.disabledReason).toBe(FAILING_REASON);
    const automation = await automationRow(a);
    expect(automation).toMatchObject({ enabled: false, disabledReason: FAILING_REASON, failingSince: old });
    // The delivery itself was scheduled for a retry, which the next claim closes instead of sending.
    expect((await delivery(id!)).status).toBe("pending");
    await drain(a, { now: () => new Date(Date.now() + 60_000) });
    expect(await delivery(id!)).toMatchObject({ status: "failed", lastError: DISABLED_AUTOMATION_ERROR });
    expect(requestsFor(a)).toHaveLength(1);
  });

  it("stores at most 1 KiB of the response", async () => {
    const a = await setup((_req, res) => {
      res.statusCode = 500;
      res.end(`start:${"é".repeat(5000)}`);
    });
    const [id] = await enqueue(a);
    await drain(a);
    const [attempt] = await attemptsOf(id!);
    expect(attempt!.outcome).toBe("http_error");
    expect(attempt!.responseExcerpt?.startsWith("start:éé")).toBe(true);
    expect(Buffer.byteLength(attempt!.responseExcerpt ?? "")).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(attempt!.responseExcerpt ?? "")).toBeGreaterThan(1000);
    expect(attempt!.responseExcerpt).not.toContain("\uFFFD");
  });

  it("records a receiver that does not answer within WEBHOOK_TIMEOUT_MS as a timeout, and retries", async () => {
    const a = await setup(() => {
      // Never answers; closed with the server.
    });
    const [id] = await enqueue(a);
    const started = Date.now();
    await drain(a);
    expect(Date.now() - started).toBeLessThan(5000);
    const [attempt] = await attemptsOf(id!);
    expect(attempt).toMatchObject({ outcome: "timeout", statusCode: null });
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(900);
    expect(attempt!.error).toMatch(/1000 ms/);
    expect(await delivery(id!)).toMatchObject({ status: "pending", lastStatusCode: null });
  });

  it("a secret the keyring cannot open sends nothing, logs no attempt, and puts the delivery back", async () => {
    const a = await setup(ok);
    const reseal = (context: string) =>
      h.database.db
        .update(automations)
        .set({ signingSecret: sealSecret(a.secret, keyringFrom(h.ctx), context) })
        .where(eq(automations.id, a.id));
    await reseal("automation:someone-else");
    const [id] = await enqueue(a);
    const summary = await drain(a);
    expect(summary.claimed).toBe(1);
    expect(summary.attempts[0]?.record).toBeUndefined();
    const row = await delivery(id!);
    expect(row).toMatchObject({ status: "pending", attempts: 0, lastError: SECRET_ERROR, leaseUntil: null });
    expect(Date.parse(row.nextAttemptAt) - Date.now()).toBeGreaterThan(30_000);
    expect(await attemptsOf(id!)).toHaveLength(0);
    expect(requestsFor(a)).toHaveLength(0);
    // The operator restores the key: the delivery goes out as attempt 1.
    await reseal(`automation:${a.id}`);
    await drain(a, { now: hoursLater(1) });
    expect(await delivery(id!)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(requestsFor(a).every((r) => r.verified)).toBe(true);
  });

  it("a stored header the client refuses (CR/LF) fails the delivery as invalid", async () => {
    const a = await setup(ok);
    const [id] = await enqueue(a, 1, { headers: { "x-bad": "a\r\nx-injected: 1" } });
    await drain(a);
    expect(await delivery(id!)).toMatchObject({ status: "failed" });
    expect((await attemptsOf(id!))[0]).toMatchObject({ outcome: "invalid" });
    expect(requestsFor(a)).toHaveLength(0);
  });
});

describe("concurrency and crashes", () => {
  it("two workers draining one queue send each webhook exactly once", async () => {
    const a = await setup((_req, res) => setTimeout(() => res.end("ok"), 5));
    const ids = await enqueue(a, 50);
    const worker = async () => {
      let total = 0;
      for (;;) {
        const summary = await drain(a, { batchSize: 7, concurrency: 4 });
        if (summary.claimed === 0) return total;
        total += summary.claimed;
      }
    };
    const [one, two] = await Promise.all([worker(), worker()]);
    expect(one + two).toBe(50);
    expect(one).toBeGreaterThan(0);
    expect(two).toBeGreaterThan(0);
    const requests = requestsFor(a);
    expect(requests).toHaveLength(50);
    expect(new Set(requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set(ids));
    expect(requests.every((r) => r.verified)).toBe(true);
    const rows = await h.database.db
      .select({ status: webhookDeliveries.status, attempts: webhookDeliveries.attempts })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, ids));
    expect(rows.every((r) => r.status === "succeeded" && r.attempts === 1)).toBe(true);
    const attempts = await h.database.db
      .select()
      .from(deliveryAttemptLog)
      .where(inArray(deliveryAttemptLog.deliveryId, ids));
    expect(attempts).toHaveLength(50);
  });

  it("concurrent claims never hand out the same delivery twice (SKIP LOCKED)", async () => {
    const a = await setup(ok);
    const ids = await enqueue(a, 30);
    const claims = await Promise.all(
      Array.from({ length: 12 }, () =>
        claimDue(h.database.db, { limit: 3, leaseSeconds: 60, tenantIds: [a.tenant.id] }),
      ),
    );
    // A claim racing eleven others may come back short (the rows it reached were locked, and its retries ran out):
    // that costs a claim, never a duplicate. What the race left is claimed afterwards.
    const rest = await claimDue(h.database.db, { limit: 30, leaseSeconds: 60, tenantIds: [a.tenant.id] });
    const claimed = [...claims, rest].flatMap((c) => c.claimed.map((d) => d.id));
    expect(claimed).toHaveLength(30);
    expect(new Set(claimed)).toEqual(new Set(ids));
    expect(claims.every((c) => c.claimed.length <= 3)).toBe(true);
    expect(claims.flatMap((c) => c.claimed).length).toBeGreaterThan(0);
    expect([...claims, rest].flatMap((c) => c.claimed).every((d) => d.attempt === 1)).toBe(true);
  });

  it("a worker killed mid-batch loses nothing: its leases expire and another worker delivers", async () => {
    const a = await setup(ok);
    const ids = await enqueue(a, 5);
    // The first worker claims and "dies" before sending or recording anything.
    const dead = await claimDue(h.database.db, { limit: 10, leaseSeconds: 1, tenantIds: [a.tenant.id] });
    expect(dead.claimed.map((d) => d.id).sort()).toEqual([...ids].sort());
    // While the lease holds, nobody else takes them.
    expect((await drain(a)).claimed).toBe(0);
    await sleep(1300);
    const summary = await drain(a);
    expect(summary.claimed).toBe(5);
    for (const id of ids) {
      expect(await delivery(id)).toMatchObject({ status: "succeeded", attempts: 2 });
      // Attempt 1 was never made (the worker died first); attempt 2 is the takeover.
      expect((await attemptsOf(id)).map((t) => t.attempt)).toEqual([2]);
    }
    expect(requestsFor(a)).toHaveLength(5);

    // The "dead" worker comes back and reports its stale claim: its attempt is logged, but it cannot
    // overwrite the new owner's outcome.
    const stale = dead.claimed[0]!;
    const record = await recordAttempt(
      h.database.db,
      stale,
      { ok: false, kind: "network", message: "ECONNRESET: socket hang up", durationMs: 5 },
      { schedule: h.config.outbound.retryScheduleSeconds, startedAt: new Date() },
    );
    expect(record.applied).toBe(false);
    expect(await delivery(stale.id)).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 200 });
    expect((await attemptsOf(stale.id)).map((t) => [t.attempt, t.outcome])).toEqual([
      [1, "network"],
      [2, "succeeded"],
    ]);
    // A stale success too is logged (as a row: the delivery's own success is the new owner's attempt 2).
    const staleToo = dead.claimed[1]!;
    const success = {
      ok: true as const,
      status: 202,
      headers: {},
      body: "late",
      truncated: false,
      durationMs: 4,
    };
    const late = await recordAttempt(h.database.db, staleToo, success, {
      schedule: h.config.outbound.retryScheduleSeconds,
      startedAt: new Date(),
    });
    expect(late.applied).toBe(false);
    expect(await delivery(staleToo.id)).toMatchObject({
      status: "succeeded",
      attempts: 2,
      lastStatusCode: 200,
    });
    expect((await attemptsOf(staleToo.id)).map((t) => [t.attempt, t.outcome, t.statusCode])).toEqual([
      [1, "succeeded", 202],
      [2, "succeeded", 200],
    ]);
    expect((await automationRow(a)).failingSince).toBeNull();
  });

  it("the loop delivers, and stop() waits for sends in flight", async () => {
    const a = await setup((_req, res) => setTimeout(() => res.end("ok"), 300));
    const ids = await enqueue(a, 3);
    const log = pino({ level: "silent" });
    const loop = startDeliveryLoop(h.ctx, log, { pollMs: 50, client, tenantIds: [a.tenant.id] });
    const deadline = Date.now() + 5000;
    while (requestsFor(a).length < 3 && Date.now() < deadline) await sleep(20);
    // The receiver has the requests but has not answered yet: stop() must wait for the answers and the records.
    await loop.stop();
    for (const id of ids) expect((await delivery(id)).status).toBe("succeeded");
  });

  it("startWorker runs the delivery loop with the options it is given", async () => {
    const a = await setup(ok);
    const [id] = await enqueue(a);
    const log = pino({ level: "silent" });
    const worker = startWorker(h.ctx, log, [], {
      deliveries: { pollMs: 50, client, tenantIds: [a.tenant.id] },
    });
    try {
      const deadline = Date.now() + 5000;
      while ((await delivery(id!)).status !== "succeeded" && Date.now() < deadline) await sleep(50);
    } finally {
      await worker.stop();
    }
    expect((await delivery(id!)).status).toBe("succeeded");
  });
});

describe("SSRF at delivery time (SECURITY API7 §3-4, API10 §8)", () => {
  it("a DNS answer that flips to loopback after creation is blocked at connect; the canary sees nothing", async () => {
    const host = `flip-${randomBytes(4).toString("hex")}.example.com`;
    dns.set(host, [["127.0.0.2"], ["127.0.0.1"]]);
    const a = await setup(ok, { url: (route) => `http://${host}:${port}/${route}/hook` });
    // Creation-time check (first answer): allowed.
    const check = await checkTargetUrl(a.url, { allow: h.config.outbound.allowCidrs, resolve: dns.resolve });
    expect(check.ok).toBe(true);
    const [id] = await enqueue(a);
    const before = canary.connections;
    await drain(a);
    const [attempt] = await attemptsOf(id!);
    expect(attempt).toMatchObject({ outcome: "blocked", statusCode: null });
    // No oracle: the tenant-visible error names no address.
    expect(attempt!.error).not.toMatch(/127\.0\.0\.1/);
    expect(await delivery(id!)).toMatchObject({ status: "pending" });
    // The retry is checked afresh, and blocked again.
    await drain(a, { now: () => new Date(Date.now() + 60_000) });
    expect((await attemptsOf(id!)).map((t) => t.outcome)).toEqual(["blocked", "blocked"]);
    expect(canary.connections).toBe(before);
    expect(requestsFor(a)).toHaveLength(0);
  });

  it.each([301, 302, 303, 307, 308])("a %i redirect to a private address is not followed", async (status) => {
    const a = await setup((_req, res) => {
      res.statusCode = status;
      res.setHeader("location", `http://127.0.0.1:${port}/steal`);
      res.end();
    });
    const [id] = await enqueue(a);
    const before = canary.connections;
    await drain(a);
    expect((await attemptsOf(id!))[0]).toMatchObject({ outcome: "http_error", statusCode: status });
    // Asking again cannot help when redirects are never followed: the delivery ends failed at once.
    expect(await delivery(id!)).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: status });
    for (let i = 1; i <= 2; i++) await drain(a, { now: hoursLater(i) });
    expect(requestsFor(a)).toHaveLength(1);
    expect(canary.connections).toBe(before);
  });
});
