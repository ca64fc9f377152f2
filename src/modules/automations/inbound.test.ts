/**
 * Inbound webhook URLs (contract "Automations and webhooks", SECURITY.md API10.9): the token is the credential,
 * bodies are JSON objects up to 256 KiB, repeats within 24 hours are accepted once, and each URL is rate-limited.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { inboundReceipts, platformEvents, webhookDeliveries } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { adminCookie, json, makeTenant, type TestTenant } from "../../test-support/harness.js";
import { INBOUND_PER_MINUTE } from "./routes.js";

const { h } = useApi();

interface Inbound {
  t: TestTenant;
  automationId: string;
  path: string;
  cookie: string;
}

async function inboundAutomation(t?: TestTenant, trigger = "webhook"): Promise<Inbound> {
  const tenant = t ?? (await makeTenant(h));
  const cookie = await adminCookie(h, tenant);
  const res = await h.inject({
    method: "POST",
    url: "/api/institution/automations",
    headers: { host: tenant.host, cookie, ...json },
    payload: {
      name: "From the HR system",
      trigger: { event: trigger },
      action: {
        type: "send_webhook",
        url: "https://93.184.215.14/hook",
        body: '{"who": "{{event.person.name}}"}',
      },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const url = new URL(res.json().inboundUrl ?? "http://x/none");
  return { t: tenant, automationId: res.json().id, path: url.pathname, cookie };
}

function post(path: string, payload: unknown, headers: Record<string, string> = {}) {
  return h.inject({
    method: "POST",
    url: path,
    headers: { "content-type": "application/json", ...headers },
    payload: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
}

async function deliveries(a: Inbound) {
  return h.database.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, a.t.id), eq(webhookDeliveries.automationId, a.automationId)));
}

describe("POST /api/automations/webhook/:token", () => {
  it("answers 202 {accepted, eventId}, records the body as the event and runs only its own automation", async () => {
    const a = await inboundAutomation();
    const sibling = await inboundAutomation(a.t);
    const res = await post(a.path, { person: { name: 'Zé "Z"' }, n: 1 });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ accepted: true, eventId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(res.headers["set-cookie"]).toBeUndefined();
    const [event] = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.t.id), eq(platformEvents.id, res.json().eventId)));
    expect(event).toMatchObject({ type: "webhook", data: { person: { name: 'Zé "Z"' }, n: 1 } });
    const mine = await deliveries(a);
    expect(mine).toHaveLength(1);
    expect(JSON.parse(mine[0]?.body ?? "")).toEqual({ who: 'Zé "Z"' });
    expect(await deliveries(sibling)).toEqual([]);
  });

  it("answers 404 not_found to unknown, malformed, rotated and non-inbound tokens, all alike", async () => {
    const a = await inboundAutomation();
    const unknown = await post(`/api/automations/webhook/${"a".repeat(64)}`, {});
    const short = await post("/api/automations/webhook/abc", {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe("not_found");
    expect(short.body).toBe(unknown.body);
    const rotated = await h.inject({
      method: "POST",
      url: `/api/institution/automations/${a.automationId}/rotate-token`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect((await post(a.path, {})).statusCode).toBe(404);
    expect((await post(new URL(rotated.json().inboundUrl).pathname, {})).statusCode).toBe(202);
  });

  it("takes JSON objects only: other JSON → 400, other media types → 415, over 256 KiB → 413", async () => {
    const a = await inboundAutomation();
    for (const body of ["[1,2]", '"text"', "42", "null"]) {
      const res = await post(a.path, body);
      expect(res.statusCode, body).toBe(400);
    }
    const text = await h.inject({
      method: "POST",
      url: a.path,
      headers: { "content-type": "text/plain" },
      payload: "hello",
    });
    expect(text.statusCode).toBe(415);
    const big = await post(a.path, { blob: "x".repeat(256 * 1024) });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe("payload_too_large");
    expect(await deliveries(a)).toEqual([]);
  });

  it("accepts a repeated Idempotency-Key or webhook-id once within 24 hours, even concurrently", async () => {
    const a = await inboundAutomation();
    const first = await post(a.path, { n: 1 }, { "idempotency-key": "order-42" });
    const again = await post(a.path, { n: 2 }, { "idempotency-key": "order-42" });
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.json().eventId).toBe(first.json().eventId);
    const copies = await Promise.all(
      Array.from({ length: 5 }, () => post(a.path, { n: 3 }, { "webhook-id": "msg_7" })),
    );
    expect(new Set(copies.map((c) => c.json().eventId)).size).toBe(1);
    expect(await deliveries(a)).toHaveLength(2);
    // A day later the key is free again.
    await h.database.db
      .update(inboundReceipts)
      .set({ receivedAt: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .where(
        and(eq(inboundReceipts.automationId, a.automationId), eq(inboundReceipts.idempotencyKey, "order-42")),
      );
    const later = await post(a.path, { n: 4 }, { "idempotency-key": "order-42" });
    expect(later.statusCode).toBe(202);
    expect(later.json().eventId).not.toBe(first.json().eventId);
    expect(await deliveries(a)).toHaveLength(3);
  });

  it("limits each URL per minute, not its neighbours", async () => {
    const a = await inboundAutomation();
    const b = await inboundAutomation(a.t);
    let limited: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i <= INBOUND_PER_MINUTE; i++) {
      const res = await post(a.path, { i });
      if (res.statusCode === 429) {
        limited = res;
        break;
      }
    }
    expect(limited?.statusCode).toBe(429);
    expect(Number(limited?.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited?.json().error).toBe("rate_limit_exceeded");
    expect((await post(b.path, {})).statusCode).toBe(202);
  });

  it("ignores session cookies: the token alone decides", async () => {
    const a = await inboundAutomation();
    const other = await makeTenant(h);
    const cookie = await adminCookie(h, other);
    const res = await post(a.path, { x: 1 }, { cookie, host: other.host });
    expect(res.statusCode).toBe(202);
    const [event] = await h.database.db
      .select({ tenantId: platformEvents.tenantId })
      .from(platformEvents)
      .where(eq(platformEvents.id, res.json().eventId));
    expect(event?.tenantId).toBe(a.t.id);
  });
});
