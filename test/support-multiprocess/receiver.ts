/**
 * The webhook receiver of the multi-process test: a bare node:http server on 127.0.0.2 (the children reach it
 * through OUTBOUND_ALLOW_CIDRS=127.0.0.2/32) answering 204 to every request once its body is read, and keeping
 * every request: by `webhook-id`, in arrival order, with the body and the signature headers as they came.
 * Verification happens after the run, outside the delivery path. `hold()` keeps the answers back (requests are
 * still read and kept) until `release()`, so the test can kill a worker while sends are certainly in flight.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const RECEIVER_HOST = "127.0.0.2";
export const HOOK_PATH = "/hook";

export interface Receipt {
  body: string;
  headers: { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string };
}

export interface Receiver {
  url: string;
  /** Requests with a `webhook-id` to HOOK_PATH, by that id. */
  receipts: Map<string, Receipt[]>;
  /** Anything else: another method or path, or a request without the three headers. */
  strays: string[];
  /** Requests taken so far, repeats included. */
  total(): number;
  /** From now on, read and keep each request but do not answer it until `release()`. */
  hold(): void;
  /** Answers every request held back, and answers at once again from now on. */
  release(): void;
  /** Requests read and not yet answered because of `hold()`. */
  held(): number;
  close(): Promise<void>;
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
};

export async function startReceiver(): Promise<Receiver> {
  const receipts = new Map<string, Receipt[]>();
  const strays: string[] = [];
  let total = 0;
  let holding = false;
  let waiting: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      total++;
      const id = header(req, "webhook-id");
      const timestamp = header(req, "webhook-timestamp");
      const signature = header(req, "webhook-signature");
      if (req.method !== "POST" || req.url !== HOOK_PATH || !id || !timestamp || !signature) {
        strays.push(`${req.method} ${req.url} webhook-id=${id}`);
      } else {
        const receipt: Receipt = {
          body: Buffer.concat(chunks).toString("utf8"),
          headers: { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature },
        };
        const list = receipts.get(id);
        if (list === undefined) receipts.set(id, [receipt]);
        else list.push(receipt);
      }
      if (holding) waiting.push(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, RECEIVER_HOST, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${RECEIVER_HOST}:${port}${HOOK_PATH}`,
    receipts,
    strays,
    total: () => total,
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      const answers = waiting;
      waiting = [];
      // A worker killed while held has closed its sockets; writing to them is harmless.
      for (const res of answers) if (!res.destroyed) res.writeHead(204).end();
    },
    held: () => waiting.length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
