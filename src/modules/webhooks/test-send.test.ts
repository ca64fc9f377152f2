/**
 * POST /webhooks/:id/test: a dry run that writes nothing, and a test event delivered through the delivery engine
 * to a real receiver (on 127.0.0.2, allowed by OUTBOUND_ALLOW_CIDRS), logged as a delivery with its attempt, retried
 * and redelivered like any other.
 */
import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries } from "../../db/schema/index.js";
import { createOutboundClient } from "../../platform/outbound/client.js";
import { type Credential, callApi, type TenantAdmin, tenantAdmin, useApi } from "../../test-support/api.js";
import { makeKey, roleCookie, type TestTenant } from "../../test-support/harness.js";
import { type Receiver, startReceiver } from "../../test-support/receiver.js";
import { TEST_SENDS_PER_HOUR } from "../automations/routes.js";
import { EVENT_SAMPLES } from "../events/catalogue.js";
import { drainOnce } from "../outbox/drain.js";

let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver({
    respond: (r) =>
      r.url === "/fail"
        ? { status: 500, body: "down for maintenance" }
        : { status: 200, headers: { "content-type": "text/plain" }, body: "thanks" },
  });
});
afterAll(() => receiver.close());
// Declared after the receiver, so it closes before the receiver does.
const { h } = useApi({ env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" } });

const hits = (path: string) => receiver.received.filter((r) => r.url === path);

async function deliveriesOf(t: TestTenant, id: string) {
  return h.database.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, t.id), eq(webhookDeliveries.automationId, id)));
}

async function setup(path: string, eventTypes = ["enrollment_created", "quiz_submitted"]) {
  const a = await tenantAdmin(h);
  const created = await callApi(h, a.t, a.cookie, "POST", "/webhooks", {
    url: receiver.url(path),
    eventTypes,
  });
  expect(created.statusCode, created.body).toBe(201);
  const { id, signingSecret } = created.json() as { id: string; signingSecret: string };
  const test = (payload?: unknown, who: Credential = a.cookie, as: TenantAdmin = a) =>
    callApi(h, as.t, who, "POST", `/webhooks/${id}/test`, payload);
  return { a, id, signingSecret, test };
}

describe("testing a webhook endpoint", () => {
  it("renders the default payload of a sample of its first event type, writing and sending nothing", async () => {
    const e = await setup("/dry");
    for (const res of [await e.test(), await e.test({})]) {
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body)).toEqual(["request"]);
      expect(body.request).toMatchObject({ url: receiver.url("/dry"), headers: {} });
      expect(JSON.parse(body.request.body)).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: "enrollment_created",
        timestamp: expect.any(String),
        data: EVENT_SAMPLES.enrollment_created,
      });
    }
    const given = await e.test({ eventType: "quiz_submitted", event: { percent: 12 } });
    expect(JSON.parse(given.json().request.body)).toMatchObject({
      type: "quiz_submitted",
      data: { percent: 12 },
    });
    expect(await deliveriesOf(e.a.t, e.id)).toEqual([]);
    expect(hits("/dry")).toEqual([]);
  });

  it("delivers a signed test event through the engine: in the log with its attempt, and redeliverable", async () => {
    const e = await setup("/ok");
    const res = await e.test({ send: true });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.response).toMatchObject({ status: 200, body: "thanks", truncated: false });
    expect(body.sendError).toBeUndefined();
    // The log shows the request every attempt sends: the one rendered.
    expect(body.delivery.request).toEqual(body.request);
    expect(body.delivery).toMatchObject({
      automationId: e.id,
      eventType: "enrollment_created",
      status: "succeeded",
      attempts: 1,
      nextAttemptAt: null,
      lastStatusCode: 200,
      attemptLog: [
        { attempt: 1, outcome: "succeeded", statusCode: 200, responseExcerpt: "thanks", error: null },
      ],
    });
    // The receiver got exactly that body, signed with the endpoint's secret under the delivery's id.
    const got = hits("/ok");
    expect(got).toHaveLength(1);
    expect(got[0]?.body).toBe(body.request.body);
    expect(got[0]?.headers["webhook-id"]).toBe(body.delivery.id);
    const verified = new Webhook(e.signingSecret).verify(
      got[0]!.body,
      got[0]!.headers as Record<string, string>,
    );
    expect(verified).toMatchObject({ type: "enrollment_created", data: EVENT_SAMPLES.enrollment_created });
    // Stored as one delivery, already completed: no worker sends it again.
    const rows = await deliveriesOf(e.a.t, e.id);
    expect(rows.map((r) => [r.id, r.status, r.leaseUntil, r.eventId])).toEqual([
      [body.delivery.id, "succeeded", null, body.delivery.eventId],
    ]);
    const client = createOutboundClient(h.config.outbound);
    try {
      expect((await drainOnce(h.ctx, client, { tenantIds: [e.a.t.id] })).claimed).toBe(0);
      // In the endpoint's log, with its attempt.
      const log = await callApi(h, e.a.t, e.a.cookie, "GET", `/webhooks/${e.id}/deliveries`);
      expect(log.json().data.map((d: { id: string }) => d.id)).toEqual([body.delivery.id]);
      expect(log.json().pagination.total).toBe(1);
      const one = await callApi(
        h,
        e.a.t,
        e.a.cookie,
        "GET",
        `/webhooks/${e.id}/deliveries/${body.delivery.id}`,
      );
      expect(one.json()).toEqual(body.delivery);
      // Redelivered: the same body under a new webhook-id, sent by the worker.
      const again = await callApi(
        h,
        e.a.t,
        e.a.cookie,
        "POST",
        `/webhooks/${e.id}/deliveries/${body.delivery.id}/redeliver`,
      );
      expect(again.statusCode, again.body).toBe(202);
      expect((await drainOnce(h.ctx, client, { tenantIds: [e.a.t.id] })).claimed).toBe(1);
    } finally {
      await client.close();
    }
    expect(hits("/ok")).toHaveLength(2);
    expect(hits("/ok")[1]?.body).toBe(body.request.body);
    expect(hits("/ok")[1]?.headers["webhook-id"]).not.toBe(body.delivery.id);
  });

  it("reports a failing receiver, and the delivery waits for its retry like any other", async () => {
    const e = await setup("/fail");
    const res = await e.test({ send: true, eventType: "quiz_submitted" });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.response).toMatchObject({ status: 500, body: "down for maintenance" });
    expect(body.delivery).toMatchObject({
      eventType: "quiz_submitted",
      status: "pending",
      attempts: 1,
      lastStatusCode: 500,
      lastError: "HTTP 500",
      attemptLog: [{ attempt: 1, outcome: "http_error", statusCode: 500 }],
    });
    const first = h.config.outbound.retryScheduleSeconds[0] ?? 0;
    const due = Date.parse(body.delivery.nextAttemptAt) - Date.parse(body.delivery.attemptLog[0].startedAt);
    expect(due / 1000).toBeGreaterThanOrEqual(first - 1);
    expect(hits("/fail")).toHaveLength(1);
  });

  it("refuses an event type the endpoint does not receive, and a disabled endpoint, sending nothing", async () => {
    const e = await setup("/refused", ["user_created"]);
    const other = await e.test({ send: true, eventType: "quiz_submitted" });
    expect(other.statusCode).toBe(400);
    expect(other.json().details).toEqual([
      { field: "eventType", message: expect.stringContaining("user_created") },
    ]);
    const off = await callApi(h, e.a.t, e.a.cookie, "PATCH", `/webhooks/${e.id}`, { enabled: false });
    expect(off.statusCode).toBe(200);
    const disabled = await e.test({ send: true });
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json()).toMatchObject({
      error: "conflict",
      message: "This webhook endpoint is disabled: enable it before sending it a test event.",
    });
    // A dry run still shows what it would send.
    expect((await e.test({})).statusCode).toBe(200);
    expect(await deliveriesOf(e.a.t, e.id)).toEqual([]);
    expect(hits("/refused")).toEqual([]);
  });

  it("is another institution's 404, a teacher's or a read-only key's 403, and a write key's to use", async () => {
    const e = await setup("/who");
    const stranger = await tenantAdmin(h);
    const cross = await e.test({ send: true }, stranger.cookie, stranger);
    expect(cross.statusCode).toBe(404);
    expect(cross.json().error).toBe("not_found");
    const teacher = await e.test({ send: true }, await roleCookie(h, e.a.t, "teacher"));
    expect(teacher.statusCode).toBe(403);
    const reader = await e.test({ send: true }, await makeKey(h, e.a.t, ["automations:read"]));
    expect(reader.statusCode).toBe(403);
    expect(reader.json().error).toBe("insufficient_scope");
    expect(await deliveriesOf(e.a.t, e.id)).toEqual([]);
    expect(hits("/who")).toEqual([]);
    const writer = await e.test({ send: true }, await makeKey(h, e.a.t, ["automations:write"]));
    expect(writer.statusCode, writer.body).toBe(200);
    expect(writer.json().delivery.status).toBe("succeeded");
    expect(hits("/who")).toHaveLength(1);
  });

  it(`shares the automations' ${TEST_SENDS_PER_HOUR} test sends per institution per hour, then 429 with nothing sent`, async () => {
    const e = await setup("/quota");
    for (let i = 0; i < TEST_SENDS_PER_HOUR; i++) {
      const res = await e.test({ send: true });
      expect(res.statusCode, res.body).toBe(200);
    }
    const refused = await e.test({ send: true });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(hits("/quota")).toHaveLength(TEST_SENDS_PER_HOUR);
    expect(await deliveriesOf(e.a.t, e.id)).toHaveLength(TEST_SENDS_PER_HOUR);
    // An automation of the same institution has none left either; dry runs stay free.
    const automation = await callApi(h, e.a.t, e.a.cookie, "POST", "/automations", {
      name: "A",
      trigger: { event: "user_created" },
      action: { type: "send_webhook", url: receiver.url("/quota") },
    });
    expect(automation.statusCode, automation.body).toBe(201);
    const other = await callApi(h, e.a.t, e.a.cookie, "POST", `/automations/${automation.json().id}/test`, {
      send: true,
    });
    expect(other.statusCode).toBe(429);
    expect(hits("/quota")).toHaveLength(TEST_SENDS_PER_HOUR);
    expect((await e.test({})).statusCode).toBe(200);
  });
});
