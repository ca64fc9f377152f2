import { randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small fake of the Stripe HTTP API for tests, reached by the official `stripe` SDK through its
 * `host` / `port` / `protocol` options. It serves the few endpoints our billing code calls, records every
 * request, and can be told to fail. Object shapes follow `/work/shared/stripe-fixtures` in their main fields.
 */

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. "/v1/customers". */
  path: string;
  /** The parsed form body (nested keys become objects / arrays); for GET and DELETE, the parsed query string. */
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

export interface FakeStripe {
  /** "http://127.0.0.1:<port>" */
  url: string;
  port: number;
  /** Every request received, in order (including ones answered by failNext or an idempotent replay). */
  requests: RecordedRequest[];
  /** GET /v1/subscriptions/:id serves these. */
  subscriptions: Map<string, Record<string, unknown>>;
  /** Created customers by id. */
  customers: Map<string, Record<string, unknown>>;
  /** When true, POST /v1/checkout/sessions listing (in payment_method_types or allowed_payment_method_types) any method other than "card" answers 400, as Stripe does for a method the account has not activated. */
  refuseNonCardMethods: boolean;
  /** Queue a failure: the next request whose method matches and whose path starts with `pathPrefix` gets `status` with a Stripe-shaped error body (type "api_error" for 5xx, "invalid_request_error" otherwise). Each queued failure is used once. */
  failNext(method: string, pathPrefix: string, status: number): void;
  /** Count of requests matching method + path prefix. */
  count(method: string, pathPrefix: string): number;
  /** Clears requests, failures, maps (and remembered idempotency keys); refuseNonCardMethods = false. */
  reset(): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------
// Form bodies
// ---------------------------------------------------------------------------------------------------------

const INDEX = /^(0|[1-9][0-9]*)$/;
const BRACKETED_KEY = /^([^[\]]+)((?:\[[^\]]*\])+)$/;

/**
 * Parses an `application/x-www-form-urlencoded` body the way Stripe reads what the SDK sends:
 * `line_items[0][price]=p&metadata[tenantId]=t` → `{ line_items: [{ price: "p" }], metadata: { tenantId: "t" } }`.
 * Objects whose keys are all numeric indexes become arrays (in index order, holes dropped, as `qs` does);
 * `a[]=x` appends. Brackets may arrive raw (the SDK leaves them unencoded) or as %5B / %5D.
 * Values stay strings: form encoding has no types (Stripe coerces per parameter, we leave that to callers).
 */
export function parseFormBody(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    assign(root, splitKey(key), value);
  }
  return arraysFromIndexes(root);
}

/** "a[b][0]" → ["a", "b", "0"]; a key that is not of that form is taken whole. */
function splitKey(key: string): string[] {
  const match = BRACKETED_KEY.exec(key);
  if (!match) return [key];
  const [, head = key, tail = ""] = match;
  return [head, ...Array.from(tail.matchAll(/\[([^\]]*)\]/g), (m) => m[1] ?? "")];
}

function assign(root: Record<string, unknown>, path: string[], value: string): void {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    let segment = path[i] ?? "";
    // Assigning "__proto__" would replace the object's prototype instead of adding a key.
    if (segment === "__proto__") return;
    // `a[]=x`: the next free index (objects stand in for arrays until the end, see arraysFromIndexes).
    if (segment === "" && i > 0) segment = String(Object.keys(node).length);
    if (i === path.length - 1) {
      node[segment] = value;
      return;
    }
    const existing = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (isRecord(existing)) {
      node = existing;
    } else {
      // Missing, or a plain value now used as a container (`a=1&a[b]=2`): the nested form wins.
      const child: Record<string, unknown> = {};
      node[segment] = child;
      node = child;
    }
  }
}

function arraysFromIndexes(node: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(node)) {
    if (!isRecord(value)) continue;
    const converted = arraysFromIndexes(value);
    const keys = Object.keys(converted);
    node[key] =
      keys.length > 0 && keys.every((k) => INDEX.test(k))
        ? keys
            .map(Number)
            .sort((a, b) => a - b)
            .map((k) => converted[String(k)])
        : converted;
  }
  return node;
}

// ---------------------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random alphanumeric suffix, like the tail of a Stripe id. */
function randomId(length = 14): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
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

// ---------------------------------------------------------------------------------------------------------
// Replies
// ---------------------------------------------------------------------------------------------------------

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function ok(body: unknown): Reply {
  return { status: 200, body };
}

function stripeError(
  status: number,
  type: string,
  message: string,
  extra: { code?: string; param?: string } = {},
): Reply {
  return { status, body: { error: { type, message, ...extra } } };
}

function unrecognized(method: string, path: string): Reply {
  return stripeError(
    404,
    "invalid_request_error",
    `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Objects
// ---------------------------------------------------------------------------------------------------------

/** A subscription object like Stripe returns. shape "basil" (API 2025-03-31 and later) puts current_period_start/end on items.data[] only; shape "legacy" (2025-02 and earlier) puts them at top level and not on the items. */
export function fakeSubscription(opts: {
  id: string;
  customer: string;
  tenantId?: string;
  priceId: string;
  /** Default "active". */
  status?: string;
  /** Unix seconds; defaults now and now + 30 days. */
  periodStart?: number;
  periodEnd?: number;
  cancelAtPeriodEnd?: boolean;
  /** Default "basil". */
  shape?: "basil" | "legacy";
}): Record<string, unknown> {
  const now = nowSeconds();
  const periodStart = opts.periodStart ?? now;
  const periodEnd = opts.periodEnd ?? periodStart + 30 * 24 * 60 * 60;
  const status = opts.status ?? "active";
  const cancelAtPeriodEnd = opts.cancelAtPeriodEnd ?? false;
  const legacy = opts.shape === "legacy";
  const period = { current_period_start: periodStart, current_period_end: periodEnd };

  const item: Record<string, unknown> = {
    id: `si_${randomId()}`,
    object: "subscription_item",
    created: periodStart,
    discounts: [],
    metadata: {},
    price: {
      id: opts.priceId,
      object: "price",
      active: true,
      billing_scheme: "per_unit",
      created: periodStart,
      currency: "brl",
      livemode: false,
      lookup_key: null,
      metadata: {},
      nickname: null,
      product: "prod_fake",
      recurring: {
        interval: "month",
        interval_count: 1,
        meter: null,
        usage_type: "licensed",
        trial_period_days: null,
      },
      tax_behavior: "unspecified",
      tiers_mode: null,
      transform_quantity: null,
      type: "recurring",
      unit_amount: 4990,
      unit_amount_decimal: "4990",
    },
    quantity: 1,
    subscription: opts.id,
    tax_rates: [],
    ...(legacy ? {} : period),
  };

  return {
    id: opts.id,
    object: "subscription",
    application: null,
    billing_cycle_anchor: periodStart,
    // Stripe sets cancel_at to the period end when the subscription is set to cancel at period end.
    cancel_at: cancelAtPeriodEnd ? periodEnd : null,
    cancel_at_period_end: cancelAtPeriodEnd,
    canceled_at: cancelAtPeriodEnd || status === "canceled" ? now : null,
    collection_method: "charge_automatically",
    created: periodStart,
    currency: "brl",
    customer: opts.customer,
    default_payment_method: null,
    description: null,
    discounts: [],
    ended_at: status === "canceled" ? now : null,
    items: {
      object: "list",
      data: [item],
      has_more: false,
      url: `/v1/subscription_items?subscription=${opts.id}`,
    },
    latest_invoice: null,
    livemode: false,
    metadata: opts.tenantId === undefined ? {} : { tenantId: opts.tenantId },
    pending_update: null,
    schedule: null,
    start_date: periodStart,
    status,
    test_clock: null,
    trial_end: null,
    trial_start: null,
    ...(legacy ? period : {}),
  };
}

function createCustomer(body: Record<string, unknown>): Record<string, unknown> {
  return {
    id: `cus_fake_${randomId()}`,
    object: "customer",
    address: body.address ?? null,
    balance: 0,
    created: nowSeconds(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: body.description ?? null,
    discount: null,
    email: body.email ?? null,
    invoice_prefix: randomId(8).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: asRecord(body.metadata) ?? {},
    name: body.name ?? null,
    next_invoice_sequence: 1,
    phone: body.phone ?? null,
    preferred_locales: Array.isArray(body.preferred_locales) ? body.preferred_locales : [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

/** The session's currency: the explicit `currency`, else the first line item's `price_data[currency]`, else null (a bare price id carries none we could know). */
function checkoutCurrency(body: Record<string, unknown>): string | null {
  const explicit = asString(body.currency);
  if (explicit !== undefined) return explicit;
  const items = Array.isArray(body.line_items) ? body.line_items : [];
  for (const item of items) {
    const currency = asString(asRecord(asRecord(item)?.price_data)?.currency);
    if (currency !== undefined) return currency;
  }
  return null;
}

/** A list parameter as strings (`x[0]=a&x[1]=b`, or a lone `x=a`); undefined when absent. */
function stringList(raw: unknown): string[] | undefined {
  if (typeof raw === "string") return [raw];
  return Array.isArray(raw) ? raw.filter((t): t is string => typeof t === "string") : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------------------

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

  function route(method: string, path: string, body: Record<string, unknown>): Reply {
    if (method === "POST" && path === "/v1/customers") {
      const customer = createCustomer(body);
      fake.customers.set(String(customer.id), customer);
      return ok(customer);
    }

    if (method === "POST" && path === "/v1/checkout/sessions") {
      // stripe-node 23 (API 2026-10-28.endive) replaced `payment_method_types` in its create params with
      // `allowed_payment_method_types` (a filter on the dynamically eligible methods). Either list naming a
      // method the account has not activated is refused when refuseNonCardMethods is set.
      const types = stringList(body.payment_method_types);
      const allowed = stringList(body.allowed_payment_method_types);
      const param = types !== undefined ? "payment_method_types" : "allowed_payment_method_types";
      const refused = fake.refuseNonCardMethods ? (types ?? allowed)?.find((t) => t !== "card") : undefined;
      if (refused !== undefined) {
        return stripeError(
          400,
          "invalid_request_error",
          `The payment method type "${refused}" is invalid. Please ensure the provided type is activated in your dashboard (https://dashboard.stripe.com/account/payments/settings) and your account is enabled for any preview features that you are trying to use.`,
          { code: "parameter_invalid", param },
        );
      }
      const id = `cs_test_${randomId(58)}`;
      const created = nowSeconds();
      return ok({
        id,
        object: "checkout.session",
        amount_subtotal: null,
        amount_total: null,
        cancel_url: body.cancel_url ?? null,
        client_reference_id: body.client_reference_id ?? null,
        created,
        currency: checkoutCurrency(body),
        customer: body.customer ?? null,
        customer_email: body.customer_email ?? null,
        expires_at: created + 24 * 60 * 60,
        invoice: null,
        livemode: false,
        locale: body.locale ?? null,
        metadata: asRecord(body.metadata) ?? {},
        mode: body.mode ?? "payment",
        payment_intent: null,
        allowed_payment_method_types: allowed ?? null,
        // Without an explicit list Stripe answers with the eligible methods (card, plus others unless
        // refuseNonCardMethods says they are not activated), narrowed by allowed_payment_method_types.
        payment_method_types: types ??
          allowed?.filter((t) => t === "card" || !fake.refuseNonCardMethods) ?? ["card"],
        payment_status: "unpaid",
        status: "open",
        subscription: null,
        success_url: body.success_url ?? null,
        url: `https://checkout.stripe.test/c/pay/${id}`,
      });
    }

    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      const customer = asString(body.customer);
      if (customer === undefined || customer === "") {
        return stripeError(400, "invalid_request_error", "Missing required param: customer.", {
          code: "parameter_missing",
          param: "customer",
        });
      }
      const id = `bps_${randomId(24)}`;
      return ok({
        id,
        object: "billing_portal.session",
        configuration: "bpc_fake",
        created: nowSeconds(),
        customer,
        flow: null,
        livemode: false,
        locale: body.locale ?? null,
        on_behalf_of: null,
        return_url: body.return_url ?? null,
        url: `https://billing.stripe.test/p/session/${id}`,
      });
    }

    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === "GET" && subscriptionPath) {
      const raw = subscriptionPath[1] ?? "";
      let id = raw;
      try {
        id = decodeURIComponent(raw);
      } catch {
        // Malformed escape: look it up as sent.
      }
      const subscription = fake.subscriptions.get(id);
      if (subscription === undefined) {
        return stripeError(404, "invalid_request_error", `No such subscription: '${id}'`, {
          code: "resource_missing",
          param: "id",
        });
      }
      return ok(subscription);
    }

    return unrecognized(method, path);
  }

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

    if (method !== "POST" || key === undefined) return route(method, path, body);

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
    const reply = route(method, path, body);
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
