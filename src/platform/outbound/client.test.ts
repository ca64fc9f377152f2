/**
 * Real sockets (SECURITY.md API7 §3–5, API10 §8): the first hop listens on 127.0.0.2 (Linux routes all of
 * 127/8 to lo) and is allow-listed; a canary on 127.0.0.1, on the same port, must never see a connection.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ipaddr from "ipaddr.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Cidr } from "../../config/outbound.js";
import { loadOutboundConfig } from "../../config/outbound.js";
import { createOutboundClient, OutboundClient, type OutboundResult } from "./client.js";
import { createDnsStub, type Resolver } from "./resolver.js";
import { checkTargetUrl } from "./target-url.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Listener {
  server: Server;
  port: number;
  connections: number;
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
  handler: Handler;
}

function attach(server: Server): Listener {
  const listener: Listener = {
    server,
    port: 0,
    connections: 0,
    requests: [],
    handler: (_req, res) => res.end("ok"),
  };
  server.on("connection", () => {
    listener.connections += 1;
  });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      listener.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      listener.handler(req, res, body);
    });
  });
  return listener;
}

function listen(listener: Listener, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    listener.server.once("error", reject);
    listener.server.listen(port, host, () => {
      listener.server.off("error", reject);
      listener.port = (listener.server.address() as AddressInfo).port;
      resolve();
    });
  });
}

function close(listener: Listener): Promise<void> {
  listener.server.closeAllConnections();
  return new Promise((resolve) => listener.server.close(() => resolve()));
}

const ALLOW: Cidr[] = [ipaddr.parseCIDR("127.0.0.2/32")];
let receiver: Listener;
let canary: Listener;
let port: number;

/** The canary takes the receiver's port on 127.0.0.1, so a flipped DNS answer would land on it. */
beforeAll(async () => {
  for (let attempt = 0; ; attempt++) {
    receiver = attach(createServer());
    await listen(receiver, "127.0.0.2", 0);
    canary = attach(createServer());
    try {
      await listen(canary, "127.0.0.1", receiver.port);
      break;
    } catch (error) {
      await close(receiver);
      if (attempt === 10) throw error;
    }
  }
  port = receiver.port;
});

afterAll(async () => {
  await close(receiver);
  await close(canary);
});

const clients: OutboundClient[] = [];
function client(options: ConstructorParameters<typeof OutboundClient>[0] = {}): OutboundClient {
  const c = new OutboundClient({ allow: ALLOW, timeoutMs: 2_000, ...options });
  clients.push(c);
  return c;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.destroy()));
  receiver.server.closeAllConnections();
  receiver.connections = 0;
  receiver.requests = [];
  receiver.handler = (_req, res) => res.end("ok");
  expect(canary.connections, "the canary on 127.0.0.1 saw a connection").toBe(0);
});

function expectFailure(result: OutboundResult, kind: string): void {
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.kind, result.message).toBe(kind);
}

describe("OutboundClient delivery", () => {
  it("POSTs the exact body and headers to an allow-listed receiver and returns a header subset", async () => {
    receiver.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "x-internal": "not for us", "retry-after": "5" });
      res.end("thanks");
    };
    const body = '{"type":"lesson_completed","data":{"score":9}}';
    const result = await client().postJson(`http://127.0.0.2:${port}/hooks?x=1`, {
      headers: { "webhook-id": "msg_1", "webhook-signature": "v1,abc=", "X-Tenant": "acme" },
      body,
    });
    expect(result).toMatchObject({
      ok: true,
      status: 200,
      body: "thanks",
      truncated: false,
      headers: { "content-type": "text/plain", "retry-after": "5" },
    });
    if (result.ok) expect(result.headers).not.toHaveProperty("x-internal");
    expect(receiver.requests).toHaveLength(1);
    const [seen] = receiver.requests;
    expect(seen).toMatchObject({ method: "POST", url: "/hooks?x=1", body });
    expect(seen?.headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": "msg_1",
      "webhook-signature": "v1,abc=",
      "x-tenant": "acme",
    });
  });

  it("without the allow-list the same receiver is blocked before any connection", async () => {
    const result = await client({ allow: [] }).postJson(`http://127.0.0.2:${port}/`, { body: "{}" });
    expectFailure(result, "blocked");
    expect(receiver.connections).toBe(0);
  });

  it("blocks forbidden URLs at delivery without resolving or connecting", async () => {
    const dns = createDnsStub({ "localhost.example.com": ["127.0.0.2"] });
    const c = client({ resolve: dns.resolve });
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://localhost:${port}/`,
      `http://metadata.google.internal:${port}/`,
      `ftp://127.0.0.2:${port}/`,
      `http://user:pw@127.0.0.2:${port}/`,
    ]) {
      expectFailure(await c.postJson(url, { body: "{}" }), "blocked");
    }
    expect(dns.calls.size).toBe(0);
    expect(receiver.connections).toBe(0);
  });

  it("connects to the address its own lookup checked (a name only the stub knows)", async () => {
    const dns = createDnsStub({ "receiver.example.com": ["127.0.0.2"] });
    const result = await client({ resolve: dns.resolve }).postJson(`http://receiver.example.com:${port}/h`, {
      body: "{}",
    });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(receiver.requests[0]?.headers.host).toBe(`receiver.example.com:${port}`);
    expect(dns.calls.get("receiver.example.com")).toBe(1);
  });

  it("resolves a trailing-dot name as the save-time check did", async () => {
    const dns = createDnsStub({ "receiver.example.com": ["127.0.0.2"] });
    const result = await client({ resolve: dns.resolve }).postJson(`http://receiver.example.com.:${port}/`, {
      body: "{}",
    });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(dns.calls.get("receiver.example.com")).toBe(1);
  });

  it("createOutboundClient takes the allow-list and timeout from configuration", async () => {
    const config = loadOutboundConfig({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32", WEBHOOK_TIMEOUT_MS: "300" });
    const c = createOutboundClient(config);
    clients.push(c);
    expect(await c.postJson(`http://127.0.0.2:${port}/`, { body: "{}" })).toMatchObject({ ok: true });
    receiver.handler = () => {};
    expectFailure(await c.postJson(`http://127.0.0.2:${port}/`, { body: "{}" }), "timeout");
    const strict = createOutboundClient(loadOutboundConfig({}));
    clients.push(strict);
    expectFailure(await strict.postJson(`http://127.0.0.2:${port}/`, { body: "{}" }), "blocked");
  });

  it("DNS rebinding: a name checked as 127.0.0.2 at save time that flips to 127.0.0.1 is blocked at connect", async () => {
    const dns = createDnsStub({ "rebind.example.com": [["127.0.0.2"], ["127.0.0.1"]] });
    const url = `http://rebind.example.com:${port}/`;
    expect(await checkTargetUrl(url, { allow: ALLOW, resolve: dns.resolve })).toMatchObject({ ok: true });
    const result = await client({ resolve: dns.resolve }).postJson(url, { body: "{}" });
    expectFailure(result, "blocked");
    if (!result.ok) {
      expect(result.message).not.toContain("127.0.0.1");
      expect(result.detail).toContain("127.0.0.1");
    }
    expect(dns.calls.get("rebind.example.com")).toBe(2);
    expect(receiver.connections).toBe(0);
  });

  it("a retry whose answer flips is blocked too: one lookup per new connection, each re-checked", async () => {
    const dns = createDnsStub({ "retry.example.com": [["127.0.0.2"], ["127.0.0.1"]] });
    // The receiver closes each connection, so the retry has to connect (and look up) again.
    receiver.handler = (_req, res) => {
      res.writeHead(503, { connection: "close" });
      res.end();
    };
    const c = client({ resolve: dns.resolve });
    const url = `http://retry.example.com:${port}/`;
    expect(await c.postJson(url, { body: "{}" })).toMatchObject({ ok: true, status: 503 });
    expectFailure(await c.postJson(url, { body: "{}" }), "blocked");
    expect(dns.calls.get("retry.example.com")).toBe(2);
    expect(receiver.connections).toBe(1);
  });

  it("one forbidden address among the answers blocks the name", async () => {
    const dns = createDnsStub({ "mixed.example.com": ["127.0.0.2", "127.0.0.1"] });
    const result = await client({ resolve: dns.resolve }).postJson(`http://mixed.example.com:${port}/`, {
      body: "{}",
    });
    expectFailure(result, "blocked");
    expect(receiver.connections).toBe(0);
  });

  it.each([301, 302, 303, 307, 308])(
    "a %i to the canary is returned as a status, never followed",
    async (status) => {
      const location = `http://127.0.0.1:${port}/steal`;
      receiver.handler = (_req, res) => {
        res.writeHead(status, { location });
        res.end();
      };
      const result = await client().postJson(`http://127.0.0.2:${port}/`, { body: '{"secret":1}' });
      expect(result).toMatchObject({ ok: true, status, headers: { location } });
      expect(receiver.requests).toHaveLength(1);
    },
  );

  it("a redirect back to the allow-listed receiver is not followed either", async () => {
    receiver.handler = (req, res) => {
      if (req.url === "/") res.writeHead(307, { location: "/again" });
      res.end();
    };
    const result = await client().postJson(`http://127.0.0.2:${port}/`, { body: "{}" });
    expect(result).toMatchObject({ ok: true, status: 307 });
    expect(receiver.requests.map((r) => r.url)).toEqual(["/"]);
  });
});

describe("OutboundClient limits", () => {
  it("times out when the response headers never come", async () => {
    receiver.handler = () => {};
    const result = await client().postJson(`http://127.0.0.2:${port}/`, { body: "{}", timeoutMs: 300 });
    expectFailure(result, "timeout");
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    expect(result.durationMs).toBeLessThan(1_500);
  });

  it("times out when the body trickles forever (one deadline, not a per-chunk idle timer)", async () => {
    receiver.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const tick = setInterval(() => res.write("x"), 20);
      res.on("close", () => clearInterval(tick));
    };
    const result = await client().postJson(`http://127.0.0.2:${port}/`, { body: "{}", timeoutMs: 400 });
    expectFailure(result, "timeout");
    expect(result.durationMs).toBeLessThan(1_500);
  });

  it("times out when the resolver hangs", async () => {
    const hanging: Resolver = () => new Promise(() => {});
    const result = await client({ resolve: hanging }).postJson(`http://slow-dns.example.com:${port}/`, {
      body: "{}",
      timeoutMs: 300,
    });
    expectFailure(result, "timeout");
    expect(result.durationMs).toBeLessThan(1_500);
  });

  it("reads at most maxResponseBytes of an endless response, then drops the connection", async () => {
    let stopped = false;
    receiver.handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(64 * 1024, "a");
      const pump = () => {
        while (!stopped && !res.destroyed && res.write(chunk)) {}
      };
      res.on("drain", pump);
      res.on("close", () => {
        stopped = true;
      });
      pump();
    };
    const result = await client().postJson(`http://127.0.0.2:${port}/`, {
      body: "{}",
      maxResponseBytes: 1000,
    });
    expect(result).toMatchObject({ ok: true, status: 200, truncated: true });
    if (result.ok) expect(result.body).toBe("a".repeat(1000));
    await expect.poll(() => stopped, { timeout: 2_000 }).toBe(true);
  });

  it("defaults to 64 KiB and does not flag a body of exactly the limit as truncated", async () => {
    receiver.handler = (_req, res) => res.end("b".repeat(64 * 1024));
    const exact = await client().postJson(`http://127.0.0.2:${port}/`, { body: "{}" });
    expect(exact).toMatchObject({ ok: true, truncated: false });
    if (exact.ok) expect(exact.body).toHaveLength(64 * 1024);
    receiver.handler = (_req, res) => res.end("b".repeat(64 * 1024 + 1));
    const over = await client().postJson(`http://127.0.0.2:${port}/`, { body: "{}" });
    expect(over).toMatchObject({ ok: true, truncated: true });
    if (over.ok) expect(over.body).toHaveLength(64 * 1024);
  });

  it("reports a refused connection as a network failure", async () => {
    const spare = attach(createServer());
    await listen(spare, "127.0.0.2", 0);
    const closedPort = spare.port;
    await close(spare);
    const result = await client().postJson(`http://127.0.0.2:${closedPort}/`, { body: "{}" });
    expectFailure(result, "network");
    if (!result.ok) expect(result.message).toContain("ECONNREFUSED");
  });

  it("refuses header injection and framing headers before connecting", async () => {
    const c = client();
    const url = `http://127.0.0.2:${port}/`;
    const cases: Record<string, string>[] = [
      { "x-name": "a\r\nx-injected: 1" },
      { "x-name": "a\nb" },
      { "bad name": "x" },
      { Host: "internal.example.com" },
      { "Content-Length": "0" },
      { "Transfer-Encoding": "chunked" },
      { "Proxy-Authorization": "Basic eA==" },
      { TE: "trailers" },
    ];
    for (const headers of cases) {
      expectFailure(await c.postJson(url, { headers, body: "{}" }), "invalid");
    }
    expect(receiver.connections).toBe(0);
  });
});

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!hasOpenssl())("OutboundClient TLS (certificate made with openssl at test time)", () => {
  let dir: string;
  let cert: string;
  let tls: Listener;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "aula-outbound-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=hooks.example.com",
        "-addext",
        "subjectAltName=DNS:hooks.example.com",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    cert = readFileSync(join(dir, "cert.pem"), "utf8");
    tls = attach(createTlsServer({ key: readFileSync(join(dir, "key.pem")), cert }) as unknown as Server);
    await listen(tls, "127.0.0.2", 0);
  });

  afterAll(async () => {
    await close(tls);
    rmSync(dir, { recursive: true, force: true });
  });

  const dns = createDnsStub({ "hooks.example.com": ["127.0.0.2"], "other.example.com": ["127.0.0.2"] });

  it("refuses a self-signed receiver: verification is on", async () => {
    tls.requests = [];
    const result = await client({ resolve: dns.resolve }).postJson(`https://hooks.example.com:${tls.port}/`, {
      body: "{}",
    });
    expectFailure(result, "network");
    if (!result.ok) expect(result.message).toMatch(/self[- ]signed/i);
    expect(tls.requests).toHaveLength(0);
  });

  it("trusting that certificate makes the same receiver work, so the failure above was verification", async () => {
    const result = await client({ resolve: dns.resolve, ca: cert }).postJson(
      `https://hooks.example.com:${tls.port}/`,
      { body: "{}" },
    );
    expect(result).toMatchObject({ ok: true, status: 200, body: "ok" });
  });

  it("checks the certificate against the URL's name, not the address connected to", async () => {
    tls.requests = [];
    const result = await client({ resolve: dns.resolve, ca: cert }).postJson(
      `https://other.example.com:${tls.port}/`,
      { body: "{}" },
    );
    expectFailure(result, "network");
    if (!result.ok) expect(result.message).toContain("ERR_TLS_CERT_ALTNAME_INVALID");
    expect(tls.requests).toHaveLength(0);
  });
});
