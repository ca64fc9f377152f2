/**
 * What the HTTP server answers before Fastify has a request (issue 10, items 7 and 10), over real sockets: headers
 * past the size limit (431) and malformed requests (400) in the contract's envelope, with the connection closed
 * since the parser cannot go on; and slow clients (slowloris) cut off by the configured timeouts.
 */

import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";

// Short timeouts so that the test sees them pass; the defaults are seconds.
const { h } = useApi({
  env: {
    HTTP_HEADERS_TIMEOUT_MS: "400",
    HTTP_REQUEST_TIMEOUT_MS: "800",
    HTTP_KEEP_ALIVE_TIMEOUT_MS: "5000",
    HTTP_CONNECTION_TIMEOUT_MS: "5000",
  },
  harness: {
    // A handler slower than the request timeout: that timeout is for receiving the request, not for answering.
    routes: (app) => {
      app.get("/test/slow", async () => {
        await new Promise((r) => setTimeout(r, 1500));
        return { slow: true };
      });
    },
  },
});
let port: number;

beforeAll(async () => {
  await h.app.listen({ host: "127.0.0.1", port: 0 });
  port = (h.app.server.address() as AddressInfo).port;
});

interface Conversation {
  /** Everything the server sent. */
  received: string;
  /** Milliseconds from connecting until the server closed the connection; undefined if it stayed open. */
  closedAfterMs?: number;
}

/**
 * Connects, writes each chunk `gapMs` apart (while the connection is open), and listens until the server closes
 * the connection or `waitMs` passes.
 */
function converse(chunks: string[], gapMs: number, waitMs: number): Promise<Conversation> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const started = Date.now();
    let received = "";
    let done = false;
    const finish = (closedAfterMs?: number) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ received, closedAfterMs });
    };
    socket.on("data", (data) => {
      received += data.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("end", () => finish(Date.now() - started));
    socket.on("close", () => finish(Date.now() - started));
    socket.on("connect", async () => {
      for (const chunk of chunks) {
        if (done || socket.destroyed || !socket.writable) break;
        socket.write(chunk);
        await new Promise((r) => setTimeout(r, gapMs));
      }
    });
    setTimeout(() => finish(undefined), waitMs);
  });
}

const healthz = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n";

/** The responses in a stream, each as its status, headers and body. */
function responses(stream: string) {
  const out: { status: number; headers: Record<string, string>; body: string }[] = [];
  let rest = stream;
  while (rest.startsWith("HTTP/1.1 ")) {
    const end = rest.indexOf("\r\n\r\n");
    const [statusLine, ...lines] = rest.slice(0, end).split("\r\n");
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
    );
    const length = Number(headers["content-length"]);
    out.push({
      status: Number(statusLine?.split(" ")[1]),
      headers,
      // Read as latin1 so that lengths are bytes; the body itself is UTF-8.
      body: Buffer.from(rest.slice(end + 4, end + 4 + length), "latin1").toString("utf8"),
    });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

describe("refused by the HTTP parser", () => {
  it("answers headers past the limit with 431 in the envelope and closes the keep-alive connection", async () => {
    const oversized = `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`;
    // A request on the same connection after the 431 must not be served.
    const talk = await converse([healthz, oversized, healthz], 150, 3000);
    const [first, refused, ...after] = responses(talk.received);
    expect(first?.status).toBe(200);
    expect(refused?.status).toBe(431);
    expect(refused?.headers.connection).toBe("close");
    expect(refused?.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(refused?.body ?? "")).toEqual({
      error: "headers_too_large",
      message: "Os cabeçalhos da requisição são grandes demais.",
    });
    expect(after).toEqual([]);
    expect(talk.closedAfterMs).toBeDefined();
  });

  it("answers a malformed request with 400 validation_failed and closes the connection", async () => {
    const talk = await converse(["GET /healthz HTTP/1.1\r\nHost localhost\r\n\r\n", healthz], 150, 3000);
    const all = responses(talk.received);
    expect(all).toHaveLength(1);
    expect(all[0]?.status).toBe(400);
    expect(all[0]?.headers.connection).toBe("close");
    expect(JSON.parse(all[0]?.body ?? "")).toEqual({
      error: "validation_failed",
      message: expect.any(String),
      details: [{ field: "request", message: expect.any(String) }],
    });
    expect(talk.closedAfterMs).toBeDefined();
  });
});

describe("the Host header on the wire", () => {
  it("is required of HTTP/1.1 (400 in the envelope naming Host) and optional in HTTP/1.0", async () => {
    const missing = responses((await converse(["GET /healthz HTTP/1.1\r\n\r\n"], 0, 500)).received);
    expect(missing[0]?.status).toBe(400);
    expect(JSON.parse(missing[0]?.body ?? "")).toEqual({
      error: "validation_failed",
      message: expect.any(String),
      details: [{ field: "Host", message: "Este campo é obrigatório." }],
    });
    const old = responses((await converse(["GET /healthz HTTP/1.0\r\n\r\n"], 0, 500)).received);
    expect(old[0]?.status).toBe(200);
  });
});

describe("slow clients", () => {
  it("closes a connection whose headers trickle in past HTTP_HEADERS_TIMEOUT_MS (slowloris)", async () => {
    // One header line every 100 ms, forever: without the timeout the connection stays open for as long as the
    // client likes.
    const trickle = [
      "GET /healthz HTTP/1.1\r\n",
      ...Array.from({ length: 60 }, (_, i) => `X-Slow-${i}: a\r\n`),
    ];
    const talk = await converse(trickle, 100, 5000);
    expect(talk.closedAfterMs).toBeDefined();
    expect(talk.closedAfterMs).toBeLessThan(2500);
    const [timedOut] = responses(talk.received);
    expect(timedOut?.status).toBe(408);
    expect(JSON.parse(timedOut?.body ?? "")).toEqual({
      error: "request_timeout",
      message: expect.any(String),
    });
  });

  it("closes a connection whose body trickles in past HTTP_REQUEST_TIMEOUT_MS", async () => {
    const head =
      "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
    const talk = await converse([head, ...Array.from({ length: 60 }, (): string => " ")], 100, 5000);
    expect(talk.closedAfterMs).toBeDefined();
    expect(talk.closedAfterMs).toBeLessThan(3000);
  });

  it("serves a client that sends promptly, however long the answer takes", async () => {
    const talk = await converse([healthz], 0, 300);
    expect(responses(talk.received)[0]?.status).toBe(200);
    const slow = await converse(["GET /test/slow HTTP/1.1\r\nHost: localhost\r\n\r\n"], 0, 3000);
    expect(responses(slow.received)[0]?.status).toBe(200);
    expect(responses(slow.received)[0]?.body).toBe('{"slow":true}');
  });
});
