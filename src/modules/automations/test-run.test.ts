/**
 * POST /automations/:id/test: a dry run that writes nothing, and a signed send to a real receiver (on 127.0.0.2,
 * allowed by OUTBOUND_ALLOW_CIDRS), quota-limited so Aula cannot be used as a reflector (SECURITY.md API6.1).
 */
import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformEvents, webhookDeliveries } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { adminCookie, json, makeTenant } from "../../test-support/harness.js";
import { type Receiver, startReceiver } from "../../test-support/receiver.js";
import { TEST_SENDS_PER_HOUR } from "./routes.js";

let receiver: Receiver;
let received: Receiver["received"];

beforeAll(async () => {
  receiver = await startReceiver({
    respond: () => ({ status: 200, headers: { "content-type": "text/plain" }, body: "thanks" }),
  });
  received = receiver.received;
});
afterAll(() => receiver.close());
// Declared after the receiver, so it closes before the receiver does.
const { h } = useApi({ env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" } });

async function setup() {
  const t = await makeTenant(h);
  const cookie = await adminCookie(h, t);
  const res = await h.inject({
    method: "POST",
    url: "/api/institution/automations",
    headers: { host: t.host, cookie, ...json },
    payload: {
      name: "Quiz results",
      trigger: { event: "quiz_submitted" },
      condition: { all: [{ field: "event.percent", op: "gte", value: 70 }] },
      action: {
        type: "send_webhook",
        url: receiver.url("/hook"),
        body: '{"student": "{{user.name}}", "percent": {{event.percent}}}',
      },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const { id, signingSecret } = res.json();
  const test = (payload: Record<string, unknown>) =>
    h.inject({
      method: "POST",
      url: `/api/institution/automations/${id}/test`,
      headers: { host: t.host, cookie, ...json },
      payload,
    });
  return { t, id: id as string, signingSecret: signingSecret as string, test };
}

describe("testing an automation", () => {
  it("evaluates and renders against a sample or a given event, and writes nothing", async () => {
    const a = await setup();
    const sample = await a.test({});
    expect(sample.statusCode, sample.body).toBe(200);
    expect(sample.json()).toEqual({
      conditionMatched: true,
      request: {
        url: receiver.url("/hook"),
        headers: {},
        body: '{"student": "Maria Exemplo", "percent": 80}',
      },
    });
    const low = await a.test({ event: { percent: 40 }, user: { name: 'Jo "J"' } });
    expect(low.json().conditionMatched).toBe(false);
    expect(JSON.parse(low.json().request.body)).toEqual({ student: 'Jo "J"', percent: 40 });
    const events = await h.database.db
      .select()
      .from(platformEvents)
      .where(eq(platformEvents.tenantId, a.t.id));
    expect(events.filter((e) => e.type === "quiz_submitted")).toEqual([]);
    const deliveries = await h.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.tenantId, a.t.id), eq(webhookDeliveries.automationId, a.id)));
    expect(deliveries).toEqual([]);
    expect(received).toHaveLength(0);
  });

  it("sends once, signed with the automation's secret, and reports the answer", async () => {
    const a = await setup();
    const before = received.length;
    const res = await a.test({ send: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().response).toMatchObject({ status: 200, body: "thanks", truncated: false });
    expect(received).toHaveLength(before + 1);
    const got = received[received.length - 1]!;
    const verified = new Webhook(a.signingSecret).verify(got.body, got.headers as Record<string, string>);
    expect(verified).toEqual({ student: "Maria Exemplo", percent: 80 });
    expect(got.headers["webhook-id"]).toMatch(/^msg_test_/);
  });

  it(`allows ${TEST_SENDS_PER_HOUR} sends per institution per hour, then 429 with nothing sent`, async () => {
    const a = await setup();
    const before = received.length;
    let sent = 0;
    let refused: number | undefined;
    for (let i = 0; i <= TEST_SENDS_PER_HOUR; i++) {
      const res = await a.test({ send: true });
      if (res.statusCode === 200) sent++;
      else {
        refused = res.statusCode;
        break;
      }
    }
    expect(sent).toBe(TEST_SENDS_PER_HOUR);
    expect(refused).toBe(429);
    expect(received.length - before).toBe(TEST_SENDS_PER_HOUR);
    // Dry runs stay free.
    expect((await a.test({})).statusCode).toBe(200);
  });
});
