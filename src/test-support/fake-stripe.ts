/**
 * A small fake of the Stripe HTTP API for tests, reached by the official `stripe` SDK through its
 * `host` / `port` / `protocol` options. It serves the few endpoints our billing code calls, records every
 * request, and can be told to fail. Object shapes follow `/work/shared/stripe-fixtures` in their main fields.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type FakeStripeState, type Reply, serveEndpoint, stripeError } from "./fake-stripe-endpoints.js";
import { asRecord, isRecord, parseFormBody } from "./fake-stripe-form.js";
import { randomId } from "./fake-stripe-objects.js";

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. "/v1/customers". */
  path: string;
  /** The parsed form body (nested keys become objects / arrays); for GET and DELETE, the parsed query string. */
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

export interface FakeStripe extends FakeStripeState {
  /** "http://127.0.0.1:<port>" */
  url: string;
  port: number;
  /** Every request received, in order (including ones answered by failNext or an idempotent replay). */
  requests: RecordedRequest[];
  /** Queue a failure: the next request whose method matches and whose path starts with `pathPrefix` gets `status` with a Stripe-shaped error body (type "api_error" for 5xx, "invalid_request_error" otherwise). Each queued failure is used once. */
  failNext(method: string, pathPrefix: string, status: number): void;
  /** Count of requests matching method + path prefix. */
  count(method: string, pathPrefix: string): number;
  /** Clears requests, failures, maps (and remembered idempotency keys); refuseNonCardMethods = false. */
  reset(): void;
  close(): Promise<void>;
}

/** JSON with object keys sorted, so two bodies with the same parameters compare equal whatever their order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isRecord(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

interface QueuedFailure {
  method: string;
  pathPrefix: string;
  status: number;
}

/** A successful POST remembered under its Idempotency-Key, replayed when the key comes again. */
interface IdempotentResult {
  method: string;
  path: string;
  params: string;
  requestId: string;
  reply: Reply;
}

function matches(request: { method: string; path: string }, method: string, pathPrefix: string): boolean {
  return request.method === method.toUpperCase() && request.path.startsWith(pathPrefix);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseRequestBody(
  method: string,
  query: string,
  text: string,
  contentType: string,
): Record<string, unknown> {
  if (method === "GET" || method === "DELETE") return parseFormBody(query);
  if (contentType.startsWith("application/json")) {
    // The SDK's v2 API sends JSON; v1 (everything served here) sends forms.
    const parsed: unknown = text === "" ? {} : JSON.parse(text);
    return asRecord(parsed) ?? {};
  }
  return parseFormBody(text);
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const failures: QueuedFailure[] = [];
  const idempotency = new Map<string, IdempotentResult>();

  /**
   * Stripe's idempotency: a POST carrying an Idempotency-Key already seen gets the first answer again (with
   * `Idempotent-Replayed: true`) instead of running twice; the same key with other parameters or on another
   * endpoint is a 400 idempotency_error. Note that the SDK sends a generated key on EVERY POST, so keyless
   * callers still get distinct keys per call. Only successful answers are remembered, and failNext failures
   * never are: they model a transient outage, so a retry with the same key runs for real.
   */
  function handle(
    method: string,
    path: string,
    body: Record<string, unknown>,
    key: string | undefined,
    requestId: string,
  ): Reply {
    const failureIndex = failures.findIndex((f) => matches({ method, path }, f.method, f.pathPrefix));
    if (failureIndex !== -1) {
      const [failure] = failures.splice(failureIndex, 1);
      const status = failure?.status ?? 500;
      const type = status >= 500 ? "api_error" : "invalid_request_error";
      return stripeError(status, type, `Fake Stripe failure injected by failNext (HTTP ${status}).`);
    }

    if (method !== "POST" || key === undefined) return serveEndpoint(fake, method, path, body);

    const params = canonicalJson(body);
    const previous = idempotency.get(key);
    if (previous !== undefined) {
      if (previous.method !== method || previous.path !== path || previous.params !== params) {
        return stripeError(
          400,
          "idempotency_error",
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        );
      }
      return {
        ...previous.reply,
        headers: { "idempotent-replayed": "true", "original-request": previous.requestId },
      };
    }
    const reply = serveEndpoint(fake, method, path, body);
    if (reply.status >= 200 && reply.status < 300) {
      idempotency.set(key, { method, path, params, requestId, reply });
    }
    return reply;
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_${randomId()}`;
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", "http://fake-stripe.invalid");
    const path = url.pathname;
    const key = firstHeader(req.headers["idempotency-key"]);
    let reply: Reply;
    try {
      const text = await readBody(req);
      const body = parseRequestBody(method, url.search, text, firstHeader(req.headers["content-type"]) ?? "");
      fake.requests.push({ method, path, body, headers: { ...req.headers } });
      reply = handle(method, path, body, key, requestId);
    } catch (error) {
      reply = stripeError(500, "api_error", `Fake Stripe could not handle the request: ${String(error)}`);
    }

    const headers: Record<string, string> = {
      "content-type": "application/json",
      "request-id": requestId,
      ...reply.headers,
    };
    // Like Stripe, echo the key and the API version back (the SDK exposes both on `lastResponse`).
    if (key !== undefined) headers["idempotency-key"] = key;
    const version = firstHeader(req.headers["stripe-version"]);
    if (version !== undefined) headers["stripe-version"] = version;
    res.writeHead(reply.status, headers);
    res.end(JSON.stringify(reply.body));
  }

  const server = createServer((req, res) => {
    void onRequest(req, res);
  });
  // The SDK keeps connections alive. If the server closed an idle socket just as the SDK reused it, the SDK
  // would retry once (even with maxNetworkRetries 0) and the fake would see a duplicate request; so sockets
  // stay open until close(), which then drops them all.
  server.keepAliveTimeout = 10 * 60 * 1000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  const fake: FakeStripe = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: [],
    subscriptions: new Map(),
    customers: new Map(),
    refuseNonCardMethods: false,
    failNext(method, pathPrefix, status) {
      failures.push({ method: method.toUpperCase(), pathPrefix, status });
    },
    count(method, pathPrefix) {
      return fake.requests.filter((r) => matches(r, method, pathPrefix)).length;
    },
    reset() {
      fake.requests.length = 0;
      failures.length = 0;
      idempotency.clear();
      fake.subscriptions.clear();
      fake.customers.clear();
      fake.refuseNonCardMethods = false;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
  return fake;
}
