/**
 * A local HTTP receiver for tests of what Aula sends out (webhook deliveries, automation test sends), and `until`,
 * to wait for what a background loop does. The receiver listens on 127.0.0.2 by default: the outbound policy
 * refuses loopback addresses, and tests allow that one address with `OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32"`.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  /** The path and query, as the request line gave them. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ReceiverAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** A body written piece by piece as it comes (instead of `body`); stopped when the client goes away. */
  pieces?: AsyncIterable<string>;
  /** Called when the client closed the connection before the pieces ended. */
  onAbort?: () => void;
}

export interface ReceiverOptions {
  /** Default 127.0.0.2. */
  host?: string;
  /** What to answer each request (after its body has arrived and been recorded); default 204 with no body. */
  respond?: (request: ReceivedRequest) => ReceiverAnswer;
}

export interface Receiver {
  port: number;
  /** `http://<host>:<port><path>`. */
  url(path?: string): string;
  /** Every request so far, in arrival order. */
  received: ReceivedRequest[];
  close(): Promise<void>;
}

async function writePieces(res: ServerResponse, pieces: AsyncIterable<string>, onAbort?: () => void) {
  let gone = false;
  res.on("close", () => {
    if (!res.writableFinished) {
      gone = true;
      onAbort?.();
    }
  });
  for await (const piece of pieces) {
    if (gone) return;
    res.write(piece);
  }
  if (!gone) res.end();
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const host = options.host ?? "127.0.0.2";
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = {
        method: req.method ?? "GET",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(request);
      const answer = options.respond?.(request) ?? {};
      res.writeHead(answer.status ?? 204, answer.headers);
      if (answer.pieces === undefined) res.end(answer.body);
      else void writePieces(res, answer.pieces, answer.onAbort);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = "/") => `http://${host}:${port}${path}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `condition` holds, checking every 25 ms; throws naming `what` after `ms`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  ms = 20_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
