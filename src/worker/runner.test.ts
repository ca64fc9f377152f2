/**
 * The worker delivers webhooks whatever NODE_ENV says: production code does not branch on the test environment
 * (tests that must not run the loop pass `deliveries: false`). This harness runs with NODE_ENV=test, like every
 * test's, on an embedded database of its own (even when DATABASE_URL names a shared one), so the loop it starts
 * with the defaults can take no other test file's deliveries.
 */
import pino from "pino";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../test-support/api.js";
import { adminCookie, json, makeTenant } from "../test-support/harness.js";
import { type Receiver, startReceiver, until } from "../test-support/receiver.js";
import { startWorker } from "./runner.js";

const { h } = useApi({ env: { DATABASE_URL: "", REDIS_URL: "", OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" } });
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver({ respond: () => ({ status: 200, body: "ok" }) });
});
afterAll(() => receiver.close());

describe("startWorker", () => {
  it("runs the delivery loop by default under NODE_ENV=test: a user_created webhook goes out, signed", async () => {
    expect(h.config.nodeEnv).toBe("test");
    const t = await makeTenant(h);
    const headers = { host: t.host, cookie: await adminCookie(h, t), ...json };
    const created = await h.inject({
      method: "POST",
      url: "/api/institution/automations",
      headers,
      payload: {
        name: "tell the receiver",
        trigger: { event: "user_created" },
        action: { type: "send_webhook", url: receiver.url("/hook") },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { signingSecret } = created.json<{ signingSecret: string }>();
    const user = await h.inject({
      method: "POST",
      url: "/api/institution/users",
      headers,
      payload: { name: "Ana Souza", email: `ana@${t.slug}.test`, role: "teacher" },
    });
    expect(user.statusCode, user.body).toBe(201);

    const worker = startWorker(h.ctx, pino({ level: "silent" }), []);
    try {
      await until(() => receiver.received.length > 0, "the delivery", 10_000);
    } finally {
      await worker.stop();
    }
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request?.url).toBe("/hook");
    const flat = Object.fromEntries(Object.entries(request?.headers ?? {}).map(([k, v]) => [k, String(v)]));
    expect(() => new Webhook(signingSecret).verify(request?.body ?? "", flat)).not.toThrow();
    expect(JSON.parse(request?.body ?? "{}")).toMatchObject({
      type: "user_created",
      data: { userId: user.json().id },
    });
  });
});
