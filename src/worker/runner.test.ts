/**
 * The worker delivers webhooks whatever NODE_ENV says: production code does not branch on the test environment
 * (tests that must not run the loop pass `deliveries: false`). This harness runs with NODE_ENV=test, like every
 * test's, on an embedded database of its own (even when DATABASE_URL names a shared one), so the loop it starts
 * with the defaults can take no other test file's deliveries.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../test-support/api.js";
import { adminCookie, json, makeTenant } from "../test-support/harness.js";
import { startWorker } from "./runner.js";

const { h } = useApi({ env: { DATABASE_URL: "", REDIS_URL: "", OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" } });
let receiver: Server;
let port: number;
const received: { url: string; headers: IncomingMessage["headers"]; body: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.2", resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

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
        action: { type: "send_webhook", url: `http://127.0.0.2:${port}/hook` },
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
      const deadline = Date.now() + 10_000;
      while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.stop();
    }
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.url).toBe("/hook");
    const flat = Object.fromEntries(Object.entries(request?.headers ?? {}).map(([k, v]) => [k, String(v)]));
    expect(() => new Webhook(signingSecret).verify(request?.body ?? "", flat)).not.toThrow();
    expect(JSON.parse(request?.body ?? "{}")).toMatchObject({
      type: "user_created",
      data: { userId: user.json().id },
    });
  });
});
