/**
 * The endpoints the fake serves (customers, checkout and billing-portal sessions, reading a subscription), and
 * Stripe-shaped replies. fake-stripe.ts runs the server around them: recording, injected failures, idempotency.
 */
import { asRecord, asString } from "./fake-stripe-form.js";
import { createCustomer, nowSeconds, randomId } from "./fake-stripe-objects.js";

/** What the endpoints read and change, which a test sees on its FakeStripe. */
export interface FakeStripeState {
  /** GET /v1/subscriptions/:id serves these. */
  subscriptions: Map<string, Record<string, unknown>>;
  /** Created customers by id. */
  customers: Map<string, Record<string, unknown>>;
  /** When true, POST /v1/checkout/sessions listing (in payment_method_types or allowed_payment_method_types) any method other than "card" answers 400, as Stripe does for a method the account has not activated. */
  refuseNonCardMethods: boolean;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function ok(body: unknown): Reply {
  return { status: 200, body };
}

export function stripeError(
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

/** The answer of the endpoint a request names; a path the fake does not serve is 404, worded as Stripe does. */
export function serveEndpoint(
  fake: FakeStripeState,
  method: string,
  path: string,
  body: Record<string, unknown>,
): Reply {
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
