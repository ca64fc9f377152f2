/**
 * The SDK's webhook helper on real deliveries: an endpoint and an automation made through the SDK point at a
 * receiver on this machine, the app's own delivery loop signs and sends, and `verifyWebhook` checks each with
 * the secret the SDK was given and returns the event typed by its `type`. Tampering, another secret and an old
 * timestamp are refused.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { drainOnce } from "../../src/modules/outbox/drain.js";
import { createOutboundClient } from "../../src/platform/outbound/client.js";
import { useApi } from "../../src/test-support/api.js";
import { makeKey } from "../../src/test-support/harness.js";
import { type ReceivedRequest, type Receiver, startReceiver } from "../../src/test-support/receiver.js";
import {
  type Aula,
  createAula,
  type EventOf,
  isKnownEventType,
  verifyWebhook,
  WebhookVerificationError,
} from "../src/index.js";
import { listen, localFetch, originOf } from "./live.js";

const { h, tenants } = useApi({ tenants: 1, env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" } });
const [t] = tenants;
let aula: Aula;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  const apiKey = await makeKey(h, t, []);
  aula = createAula({ baseUrl: originOf(t, await listen(h)), apiKey, fetch: localFetch });
});
afterAll(() => receiver.close());

/** Sends this tenant's due deliveries as the worker does. */
async function deliverAll(): Promise<void> {
  const client = createOutboundClient(h.config.outbound);
  while ((await drainOnce(h.ctx, client, { tenantIds: [t.id] })).claimed > 0) {}
}

const at = (path: string) => receiver.received.filter((r) => r.url === path);
const only = (requests: ReceivedRequest[]): ReceivedRequest => {
  expect(requests).toHaveLength(1);
  return requests[0] as ReceivedRequest;
};

describe("verifyWebhook", () => {
  it("verifies an endpoint's delivery and returns the event typed by its type", async () => {
    const endpoint = await aula.webhooks.create({
      body: { url: receiver.url("/endpoint"), eventTypes: ["course_created"] },
    });
    const course = await aula.courses.create({ body: { title: "Cálculo I" } });
    await deliverAll();
    const delivery = only(at("/endpoint"));

    const event = await verifyWebhook(delivery.body, delivery.headers, endpoint.signingSecret);
    expect(isKnownEventType(event.type)).toBe(true);
    if (event.type !== "course_created") throw new Error(`unexpected ${event.type}`);
    expectTypeOf(event).toEqualTypeOf<EventOf<"course_created">>();
    expectTypeOf(event.data.course.title).toEqualTypeOf<string>();
    expect(event.data.courseId).toBe(course.id);
    expect(event.data.course.title).toBe("Cálculo I");

    // Web-standard Headers work the same as Node's header object.
    const headers = new Headers(delivery.headers as Record<string, string>);
    await expect(verifyWebhook(delivery.body, headers, endpoint.signingSecret)).resolves.toEqual(event);
  });

  it("verifies an automation's delivery with the automation's secret", async () => {
    const automation = await aula.automations.create({
      body: {
        name: "Avisar matrícula",
        trigger: { event: "user_created" },
        action: { type: "send_webhook", url: receiver.url("/automation") },
      },
    });
    const user = await aula.users.create({
      body: { name: "Ana Souza", email: `ana@${t.slug}.test`, role: "student" },
    });
    await deliverAll();
    const delivery = only(at("/automation"));
    const event = await verifyWebhook(delivery.body, delivery.headers, automation.signingSecret);
    expect(event.type).toBe("user_created");
    if (event.type === "user_created") expect(event.data.userId).toBe(user.id);
  });

  it("refuses a changed body, another secret, a missing header and an old timestamp", async () => {
    const endpoint = await aula.webhooks.create({
      body: { url: receiver.url("/refusals"), eventTypes: ["course_created"] },
    });
    const other = await aula.webhooks.create({
      body: { url: receiver.url("/other"), eventTypes: ["course_published"] },
    });
    await aula.courses.create({ body: { title: "Física" } });
    await deliverAll();
    const delivery = only(at("/refusals"));
    const secret = endpoint.signingSecret;

    const refusals = [
      () => verifyWebhook(delivery.body.replace("Física", "Química"), delivery.headers, secret),
      () => verifyWebhook(delivery.body, delivery.headers, other.signingSecret),
      () => verifyWebhook(delivery.body, { ...delivery.headers, "webhook-signature": undefined }, secret),
      () => verifyWebhook(delivery.body, delivery.headers, secret, { now: Date.now() + 10 * 60_000 }),
    ];
    for (const refusal of refusals) await expect(refusal()).rejects.toBeInstanceOf(WebhookVerificationError);
    // During a rotation either secret verifies.
    await expect(
      verifyWebhook(delivery.body, delivery.headers, [other.signingSecret, secret]),
    ).resolves.toMatchObject({ type: "course_created" });
  });
});
