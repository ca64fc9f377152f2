import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { describe, expect, it } from "vitest";
import { billingSubscriptions, paymentEvents, tenants } from "../../db/schema/index.js";
import { type TenantAdmin, tenantAdmin } from "../../test-support/api.js";
import { useBillingApi } from "../../test-support/billing-api.js";
import type { RecordedRequest } from "../../test-support/fake-stripe.js";
import { fakeSubscription } from "../../test-support/fake-stripe-objects.js";
import {
  bearer,
  type Harness,
  json,
  makeKey,
  roleCookie,
  startHarness,
  type TestTenant,
  tablesContaining,
} from "../../test-support/harness.js";
import { billingEnv, nowSeconds, PRICES, signed, stripeEvent } from "../../test-support/stripe-events.js";

const { h, fake } = useBillingApi();

const CHECKOUT = "/api/institution/billing/checkout";
const PORTAL = "/api/institution/billing/portal";
const STATUS = "/api/institution/billing/subscription";
const EVENTS = "/api/institution/billing/events";
const WEBHOOK = "/api/webhooks/stripe";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CHECKOUT_URL = /^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_[A-Za-z0-9]+$/;
const PORTAL_URL = /^https:\/\/billing\.stripe\.test\/p\/session\/bps_[A-Za-z0-9]+$/;
/** 2026-01-01T00:00:00Z and a month later: the period of every subscription these tests buy. */
const PERIOD_START = 1_767_225_600;
const PERIOD_END = 1_769_904_000;

const FREE_STATUS = {
  plan: "free",
  // The documented default limit of the free plan; a fresh tenant has only its administrator (no seat).
  students: { used: 0, limit: 10 },
  status: null,
  subscribedPlan: null,
  currency: null,
  currentPeriodStart: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  graceDeadline: null,
};

type Admin = TenantAdmin;

interface ErrorBody {
  error: string;
  message: string;
  details?: { field: string; message: string }[];
}

interface PaymentEventItem {
  id: string;
  provider: string;
  externalEventId: string;
  type: string;
  outcome: string;
  reason: string | null;
  eventCreatedAt: string;
  receivedAt: string;
  rawPayload: Record<string, unknown>;
}

interface EventPage {
  data: PaymentEventItem[];
  pagination: { page: number; perPage: number; total: number; totalPages: number };
}

const freshAdmin = (harness: Harness = h): Promise<Admin> => tenantAdmin(harness);

function postCheckout(
  admin: Admin,
  payload: unknown = { plan: "growth" },
  headers: Record<string, string> = {},
  harness: Harness = h,
): Promise<LightMyRequestResponse> {
  return harness.inject({
    method: "POST",
    url: CHECKOUT,
    headers: { host: admin.t.host, cookie: admin.cookie, ...json, ...headers },
    payload: payload as object,
  });
}

function postPortal(admin: Admin, harness: Harness = h): Promise<LightMyRequestResponse> {
  return harness.inject({
    method: "POST",
    url: PORTAL,
    headers: { host: admin.t.host, cookie: admin.cookie, ...json },
    payload: {},
  });
}

function getStatus(t: TestTenant, headers: Record<string, string>): Promise<LightMyRequestResponse> {
  return h.inject({ method: "GET", url: STATUS, headers: { host: t.host, ...headers } });
}

function getEvents(admin: Admin, query = ""): Promise<LightMyRequestResponse> {
  return h.inject({
    method: "GET",
    url: `${EVENTS}${query}`,
    headers: { host: admin.t.host, cookie: admin.cookie },
  });
}

function deliver(event: Record<string, unknown>): Promise<LightMyRequestResponse> {
  const { payload, headers } = signed(event);
  return h.inject({ method: "POST", url: WEBHOOK, headers, payload });
}

/** The Checkout Session requests the fake received for a tenant (checkout names it in client_reference_id). */
function sessionRequests(tenantId: string): RecordedRequest[] {
  return fake.requests.filter(
    (r) =>
      r.method === "POST" && r.path === "/v1/checkout/sessions" && r.body.client_reference_id === tenantId,
  );
}

/** The customer-creation requests the fake received for a tenant (checkout puts it in the metadata). */
function customerRequests(tenantId: string): RecordedRequest[] {
  return fake.requests.filter((r) => {
    const metadata = r.body.metadata as Record<string, unknown> | undefined;
    return r.method === "POST" && r.path === "/v1/customers" && metadata?.tenantId === tenantId;
  });
}

function portalRequests(customer: string): RecordedRequest[] {
  return fake.requests.filter(
    (r) => r.method === "POST" && r.path === "/v1/billing_portal/sessions" && r.body.customer === customer,
  );
}

async function billingRows(tenantId: string, harness: Harness = h) {
  return harness.database.db
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.tenantId, tenantId));
}

async function tenantPlan(tenantId: string): Promise<string | undefined> {
  const rows = await h.database.db
    .select({ plan: tenants.plan })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return rows[0]?.plan;
}

async function eventRow(eventId: string) {
  const rows = await h.database.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId));
  return rows[0];
}

async function eventRows(tenantId: string) {
  return h.database.db.select().from(paymentEvents).where(eq(paymentEvents.tenantId, tenantId));
}

/** Runs a checkout (which creates the tenant's Stripe customer) and answers the customer stored for it. */
async function customerOf(admin: Admin): Promise<string> {
  const res = await postCheckout(admin);
  expect(res.statusCode, res.body).toBe(200);
  const [row] = await billingRows(admin.t.id);
  if (row === undefined) throw new Error("checkout stored no billing row");
  return row.stripeCustomerId;
}

const subscriptionId = () => `sub_test_${randomBytes(8).toString("hex")}`;
const sessionId = () => `cs_test_${randomBytes(12).toString("hex")}`;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** A paid growth/BRL subscription at the fake, for `customer`, naming the tenant. */
function putSubscription(customer: string, tenantId: string): string {
  const id = subscriptionId();
  fake.subscriptions.set(
    id,
    fakeSubscription({
      id,
      customer,
      tenantId,
      priceId: PRICES.STRIPE_PRICE_GROWTH_BRL,
      status: "active",
      periodStart: PERIOD_START,
      periodEnd: PERIOD_END,
    }),
  );
  return id;
}

function completedSession(
  tenantId: string,
  customer: string,
  subscription: string | null,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: sessionId(),
    object: "checkout.session",
    mode: "subscription",
    status: "complete",
    payment_status: "paid",
    customer,
    subscription,
    client_reference_id: tenantId,
    metadata: { tenantId, plan: "growth" },
    ...extra,
  };
}

/** Checkout, then the signed checkout.session.completed Stripe sends once the buyer paid. */
async function subscribe(admin: Admin, created = nowSeconds()) {
  const customer = await customerOf(admin);
  const subscription = putSubscription(customer, admin.t.id);
  const event = stripeEvent(
    "checkout.session.completed",
    completedSession(admin.t.id, customer, subscription),
    { created },
  );
  const res = await deliver(event);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ received: true, outcome: "applied" });
  return { customer, subscription, event };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** billingEnv without some of its variables. */
function envWithout(names: string[], extra: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(billingEnv(fake.url, extra)).filter(([name]) => !names.includes(name)),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Checkout
// ---------------------------------------------------------------------------------------------------------

describe("POST /api/institution/billing/checkout", () => {
  it("answers the fake's Checkout Session url for a subscription bought by the tenant's customer", async () => {
    const admin = await freshAdmin();
    const res = await postCheckout(admin, { plan: "growth" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json<{ url: string }>();
    expect(Object.keys(body)).toEqual(["url"]);
    expect(body.url).toMatch(CHECKOUT_URL);

    // One customer, created for this tenant and stored.
    const rows = await billingRows(admin.t.id);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.stripeCustomerId).toMatch(/^cus_fake_/);
    expect(fake.customers.has(row.stripeCustomerId)).toBe(true);
    const customers = customerRequests(admin.t.id);
    expect(customers).toHaveLength(1);
    expect(customers[0]!.body).toMatchObject({
      name: "Test Institution",
      email: admin.t.adminEmail,
      metadata: { tenantId: admin.t.id },
    });

    // Nothing is bought yet: the plan changes only when Stripe reports the payment.
    expect(row).toMatchObject({
      stripeSubscriptionId: null,
      plan: null,
      priceId: null,
      status: null,
      lastEventId: null,
    });
    expect(await tenantPlan(admin.t.id)).toBe("free");

    const sessions = sessionRequests(admin.t.id);
    expect(sessions).toHaveLength(1);
    const session = sessions[0]!.body;
    expect(session).toMatchObject({
      mode: "subscription",
      customer: row.stripeCustomerId,
      client_reference_id: admin.t.id,
      metadata: { tenantId: admin.t.id, plan: "growth" },
      subscription_data: { metadata: { tenantId: admin.t.id } },
      line_items: [{ price: PRICES.STRIPE_PRICE_GROWTH_BRL, quantity: "1" }],
      allowed_payment_method_types: ["card", "boleto", "pix"],
    });
    const origin = `http://${admin.t.host}/`;
    expect(String(session.success_url).startsWith(origin), String(session.success_url)).toBe(true);
    expect(String(session.success_url)).toContain("{CHECKOUT_SESSION_ID}");
    expect(String(session.cancel_url).startsWith(origin), String(session.cancel_url)).toBe(true);
  });

  it("uses each plan's BRL price", async () => {
    const admin = await freshAdmin();
    const expected = {
      mini: PRICES.STRIPE_PRICE_MINI_BRL,
      growth: PRICES.STRIPE_PRICE_GROWTH_BRL,
      pro_100: PRICES.STRIPE_PRICE_PRO_100_BRL,
    };
    for (const [plan, price] of Object.entries(expected)) {
      const res = await postCheckout(admin, { plan });
      expect(res.statusCode, res.body).toBe(200);
      const last = sessionRequests(admin.t.id).at(-1)!;
      expect(last.body).toMatchObject({ line_items: [{ price }], metadata: { plan } });
    }
    expect(sessionRequests(admin.t.id)).toHaveLength(3);
  });

  it("answers 409 while a subscription is live, so a second checkout cannot charge twice", async () => {
    const admin = await freshAdmin();
    await subscribe(admin);
    const before = sessionRequests(admin.t.id).length;
    const res = await postCheckout(admin, { plan: "pro_100" }, { "accept-language": "en-US" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: "conflict", message: expect.stringContaining("billing portal") });
    expect(sessionRequests(admin.t.id)).toHaveLength(before);
  });

  it("returns the buyer to the tenant's Host, not to a forwarded host", async () => {
    const proxied = await startHarness(billingEnv(fake.url, { TRUST_PROXY: "true" }));
    try {
      const admin = await freshAdmin(proxied);
      const res = await postCheckout(
        admin,
        { plan: "growth" },
        { "x-forwarded-host": "evil.example" },
        proxied,
      );
      expect(res.statusCode).toBe(200);
      const [session] = sessionRequests(admin.t.id);
      expect(String(session?.body.success_url)).toMatch(new RegExp(`^http://${admin.t.host}/`));
      expect(JSON.stringify(session?.body)).not.toContain("evil.example");
    } finally {
      await proxied.close();
    }
  });

  describe("currency from the edge's country header", () => {
    const cases: { name: string; headers: Record<string, string>; currency: "brl" | "usd" }[] = [
      { name: "no country header", headers: {}, currency: "brl" },
      { name: "cf-ipcountry BR", headers: { "cf-ipcountry": "BR" }, currency: "brl" },
      { name: "cf-ipcountry US", headers: { "cf-ipcountry": "US" }, currency: "usd" },
      { name: "x-vercel-ip-country DE", headers: { "x-vercel-ip-country": "DE" }, currency: "usd" },
      { name: "x-vercel-ip-country BR", headers: { "x-vercel-ip-country": "BR" }, currency: "brl" },
      { name: "cf-ipcountry XX (unknown)", headers: { "cf-ipcountry": "XX" }, currency: "brl" },
      { name: "cf-ipcountry T1 (Tor)", headers: { "cf-ipcountry": "T1" }, currency: "brl" },
      { name: "lowercase cf-ipcountry us", headers: { "cf-ipcountry": "us" }, currency: "usd" },
      { name: "lowercase br", headers: { "cf-ipcountry": "br" }, currency: "brl" },
    ];
    for (const c of cases) {
      it(`${c.name} → ${c.currency.toUpperCase()}`, async () => {
        const admin = await freshAdmin();
        const res = await postCheckout(admin, { plan: "mini" }, c.headers);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<{ url: string }>().url).toMatch(CHECKOUT_URL);
        const sessions = sessionRequests(admin.t.id);
        expect(sessions).toHaveLength(1);
        expect(sessions[0]!.body).toMatchObject(
          c.currency === "usd"
            ? {
                line_items: [{ price: PRICES.STRIPE_PRICE_MINI_USD }],
                allowed_payment_method_types: ["card"],
              }
            : {
                line_items: [{ price: PRICES.STRIPE_PRICE_MINI_BRL }],
                allowed_payment_method_types: ["card", "boleto", "pix"],
              },
        );
      });
    }
  });

  describe("Brazilian payment methods", () => {
    it("falls back to card alone when Stripe refuses them, and logs a warning saying why", async () => {
      const lines: string[] = [];
      const logged = await startHarness(billingEnv(fake.url), {
        onLog: (line) => void lines.push(line),
        logLevel: "warn",
      });
      try {
        const admin = await freshAdmin(logged);
        fake.refuseNonCardMethods = true;
        const res = await postCheckout(admin, { plan: "growth" }, {}, logged);
        fake.refuseNonCardMethods = false;
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<{ url: string }>().url).toMatch(CHECKOUT_URL);

        const sessions = sessionRequests(admin.t.id);
        expect(sessions.map((s) => s.body.allowed_payment_method_types)).toEqual([
          ["card", "boleto", "pix"],
          ["card"],
        ]);
        // The retry is the same checkout, card only.
        const [first, second] = sessions;
        const { allowed_payment_method_types: _a, ...firstRest } = first!.body;
        const { allowed_payment_method_types: _b, ...secondRest } = second!.body;
        expect(secondRest).toEqual(firstRest);

        const warnings = lines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((entry) => entry.level === 40 && entry.tenantId === admin.t.id);
        expect(warnings).toHaveLength(1);
        const warning = warnings[0]!;
        expect(String(warning.msg)).toMatch(/card only/i);
        expect(warning.methods).toEqual(["card", "boleto", "pix"]);
        // Why: Stripe's own message, naming the refused method.
        expect(String(warning.reason)).toContain("boleto");
      } finally {
        fake.refuseNonCardMethods = false;
        await logged.close();
      }
    });

    it("offers USD buyers card alone, so a refusal of the local methods never concerns them", async () => {
      const admin = await freshAdmin();
      fake.refuseNonCardMethods = true;
      try {
        const res = await postCheckout(admin, { plan: "growth" }, { "cf-ipcountry": "US" });
        expect(res.statusCode, res.body).toBe(200);
      } finally {
        fake.refuseNonCardMethods = false;
      }
      expect(sessionRequests(admin.t.id).map((s) => s.body.allowed_payment_method_types)).toEqual([["card"]]);
    });

    it("honours a custom STRIPE_BRL_METHODS", async () => {
      const custom = await startHarness(billingEnv(fake.url, { STRIPE_BRL_METHODS: "card,pix" }));
      try {
        const admin = await freshAdmin(custom);
        const brl = await postCheckout(admin, { plan: "growth" }, {}, custom);
        expect(brl.statusCode, brl.body).toBe(200);
        const usd = await postCheckout(admin, { plan: "growth" }, { "cf-ipcountry": "US" }, custom);
        expect(usd.statusCode, usd.body).toBe(200);
        expect(sessionRequests(admin.t.id).map((s) => s.body.allowed_payment_method_types)).toEqual([
          ["card", "pix"],
          ["card"],
        ]);
      } finally {
        await custom.close();
      }
    });
  });

  describe("the Stripe customer", () => {
    it("is created at the first checkout and reused afterwards", async () => {
      const admin = await freshAdmin();
      expect((await postCheckout(admin)).statusCode).toBe(200);
      expect(customerRequests(admin.t.id)).toHaveLength(1);
      const customersBefore = fake.count("POST", "/v1/customers");

      const again = await postCheckout(admin, { plan: "pro_100" });
      expect(again.statusCode, again.body).toBe(200);
      // No customers request at all the second time.
      expect(fake.count("POST", "/v1/customers")).toBe(customersBefore);

      const rows = await billingRows(admin.t.id);
      expect(rows).toHaveLength(1);
      const sessions = sessionRequests(admin.t.id);
      expect(sessions).toHaveLength(2);
      expect(sessions.map((s) => s.body.customer)).toEqual([
        rows[0]!.stripeCustomerId,
        rows[0]!.stripeCustomerId,
      ]);
    });

    it("is one customer when five first checkouts of a tenant arrive at once", async () => {
      const admin = await freshAdmin();
      const responses = await Promise.all(Array.from({ length: 5 }, () => postCheckout(admin)));
      for (const res of responses) expect(res.statusCode, res.body).toBe(200);
      expect(new Set(responses.map((r) => r.json<{ url: string }>().url)).size).toBe(5);

      const rows = await billingRows(admin.t.id);
      expect(rows).toHaveLength(1);
      const customer = rows[0]!.stripeCustomerId;
      const sessions = sessionRequests(admin.t.id);
      expect(sessions).toHaveLength(5);
      for (const session of sessions) expect(session.body.customer).toBe(customer);
      // Stripe holds a single customer for the tenant, whatever number of creation requests raced.
      const atStripe = [...fake.customers.values()].filter(
        (c) => (c.metadata as Record<string, unknown>).tenantId === admin.t.id,
      );
      expect(atStripe.map((c) => c.id)).toEqual([customer]);
      const keys = new Set(customerRequests(admin.t.id).map((r) => r.headers["idempotency-key"]));
      expect(keys.size).toBe(1);
    });

    it("is not stored when Stripe fails to create it; the next checkout creates it", async () => {
      const admin = await freshAdmin();
      const sessionsBefore = fake.count("POST", "/v1/checkout/sessions");
      fake.failNext("POST", "/v1/customers", 500);
      const res = await postCheckout(admin);
      expect(res.statusCode).toBe(502);
      expect(res.json<ErrorBody>().error).toBe("payment_provider_error");
      expect(await billingRows(admin.t.id)).toEqual([]);
      expect(fake.count("POST", "/v1/checkout/sessions")).toBe(sessionsBefore);

      const retry = await postCheckout(admin);
      expect(retry.statusCode, retry.body).toBe(200);
      const rows = await billingRows(admin.t.id);
      expect(rows).toHaveLength(1);
      expect(sessionRequests(admin.t.id).map((s) => s.body.customer)).toEqual([rows[0]!.stripeCustomerId]);
    });
  });

  describe("validation", () => {
    const invalid: { name: string; payload: Record<string, unknown>; fields: string[] }[] = [
      { name: "the free plan", payload: { plan: "free" }, fields: ["plan"] },
      { name: "an unknown plan", payload: { plan: "gold" }, fields: ["plan"] },
      { name: "a plan of the wrong type", payload: { plan: 2 }, fields: ["plan"] },
      { name: "no plan", payload: {}, fields: ["plan"] },
      { name: "an extra field", payload: { plan: "growth", tenantId: "x" }, fields: ["tenantId"] },
    ];
    for (const c of invalid) {
      it(`refuses ${c.name} with 400 validation_failed, sending nothing to Stripe`, async () => {
        const admin = await freshAdmin();
        const before = fake.requests.length;
        const res = await postCheckout(admin, c.payload, { "accept-language": "en-US" });
        expect(res.statusCode).toBe(400);
        const body = res.json<ErrorBody>();
        expect(body.error).toBe("validation_failed");
        expect(typeof body.message).toBe("string");
        expect(body.details?.map((d) => d.field)).toEqual(c.fields);
        for (const detail of body.details ?? []) expect(detail.message.length).toBeGreaterThan(0);
        expect(fake.requests.length).toBe(before);
        expect(await billingRows(admin.t.id)).toEqual([]);
      });
    }

    it("names the allowed plans in the message", async () => {
      const admin = await freshAdmin();
      const res = await postCheckout(admin, { plan: "gold" }, { "accept-language": "en-US" });
      expect(res.json<ErrorBody>().details).toEqual([
        { field: "plan", message: "Must be one of: mini, growth, pro_100." },
      ]);
    });
  });

  describe("billing not configured", () => {
    it("answers 503 billing_not_configured for a plan and currency without a price", async () => {
      const partial = await startHarness(envWithout(["STRIPE_PRICE_MINI_USD"]));
      try {
        const admin = await freshAdmin(partial);
        const before = fake.requests.length;
        const res = await postCheckout(admin, { plan: "mini" }, { "cf-ipcountry": "US" }, partial);
        expect(res.statusCode).toBe(503);
        const body = res.json<ErrorBody>();
        expect(body.error).toBe("billing_not_configured");
        expect(Object.keys(body).sort()).toEqual(["error", "message"]);
        expect(res.body).not.toContain("price");
        // Refused before anything reached Stripe, customer creation included.
        expect(fake.requests.length).toBe(before);
        expect(await billingRows(admin.t.id, partial)).toEqual([]);

        // The pairs that have a price still sell.
        const brl = await postCheckout(admin, { plan: "mini" }, {}, partial);
        expect(brl.statusCode, brl.body).toBe(200);
        const usd = await postCheckout(admin, { plan: "growth" }, { "cf-ipcountry": "US" }, partial);
        expect(usd.statusCode, usd.body).toBe(200);
        expect(sessionRequests(admin.t.id).map((s) => s.body.line_items)).toEqual([
          [{ price: PRICES.STRIPE_PRICE_MINI_BRL, quantity: "1" }],
          [{ price: PRICES.STRIPE_PRICE_GROWTH_USD, quantity: "1" }],
        ]);
      } finally {
        await partial.close();
      }
    });

    it("answers 503 billing_not_configured for checkout and portal without STRIPE_SECRET_KEY", async () => {
      const keyless = await startHarness(envWithout(["STRIPE_SECRET_KEY"]));
      try {
        const admin = await freshAdmin(keyless);
        const before = fake.requests.length;
        const res = await postCheckout(admin, { plan: "growth" }, {}, keyless);
        expect(res.statusCode).toBe(503);
        expect(res.json<ErrorBody>().error).toBe("billing_not_configured");
        const portal = await postPortal(admin, keyless);
        expect(portal.statusCode).toBe(503);
        expect(portal.json<ErrorBody>().error).toBe("billing_not_configured");
        expect(fake.requests.length).toBe(before);
        expect(await billingRows(admin.t.id, keyless)).toEqual([]);

        // The status needs no Stripe.
        const status = await keyless.inject({
          method: "GET",
          url: STATUS,
          headers: { host: admin.t.host, cookie: admin.cookie },
        });
        expect(status.statusCode).toBe(200);
        expect(status.json()).toEqual(FREE_STATUS);
      } finally {
        await keyless.close();
      }
    });
  });

  it("answers 502 payment_provider_error in the contract's envelope when Stripe fails", async () => {
    const admin = await freshAdmin();
    fake.failNext("POST", "/v1/checkout/sessions", 500);
    const res = await postCheckout(admin, { plan: "growth" }, { "accept-language": "en-US" });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      error: "payment_provider_error",
      message: "The payment provider could not be reached. Please try again later.",
    });
    expect(res.headers["content-language"]).toBe("en-US");
    // Neither a stack trace nor anything Stripe said.
    for (const leak of [
      "stack",
      "    at ",
      ".ts",
      "Fake Stripe",
      "failNext",
      "api_error",
      "req_",
      "cus_",
      "127.0.0.1",
    ])
      expect(res.body).not.toContain(leak);
    expect(sessionRequests(admin.t.id)).toHaveLength(1);
    expect(await tenantPlan(admin.t.id)).toBe("free");

    // The failure was transient: the next attempt works, with the customer created the first time.
    const retry = await postCheckout(admin);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(customerRequests(admin.t.id)).toHaveLength(1);
    expect(sessionRequests(admin.t.id)).toHaveLength(2);
  });

  describe("access", () => {
    it("refuses teacher and student sessions with 403 forbidden", async () => {
      const admin = await freshAdmin();
      for (const role of ["teacher", "student"] as const) {
        const cookie = await roleCookie(h, admin.t, role);
        const before = fake.requests.length;
        const res = await postCheckout(
          { t: admin.t, cookie },
          { plan: "growth" },
          { "accept-language": "en-US" },
        );
        expect(res.statusCode, role).toBe(403);
        expect(res.json()).toEqual({
          error: "forbidden",
          message: "Only an institution administrator can do this.",
        });
        expect(fake.requests.length).toBe(before);
      }
      expect(await billingRows(admin.t.id)).toEqual([]);
    });

    it("refuses API keys, even one with every scope, with 403 session_required", async () => {
      const admin = await freshAdmin();
      const before = fake.requests.length;
      for (const scopes of [[], ["settings:write", "settings:read"]]) {
        const key = await makeKey(h, admin.t, scopes);
        for (const url of [CHECKOUT, PORTAL]) {
          const res = await h.inject({
            method: "POST",
            url,
            headers: { host: admin.t.host, ...bearer(key), ...json },
            payload: { plan: "growth" },
          });
          expect(res.statusCode, url).toBe(403);
          expect(res.json<ErrorBody>().error).toBe("session_required");
        }
      }
      expect(fake.requests.length).toBe(before);
      expect(await billingRows(admin.t.id)).toEqual([]);
    });

    it("answers 401 without credentials, and to another tenant's admin session", async () => {
      const a = await freshAdmin();
      const b = await freshAdmin();
      const before = fake.requests.length;
      const anonymous = await h.inject({
        method: "POST",
        url: CHECKOUT,
        headers: { host: a.t.host, ...json },
        payload: { plan: "growth" },
      });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json<ErrorBody>().error).toBe("unauthorized");
      const crossed = await postCheckout({ t: a.t, cookie: b.cookie });
      expect(crossed.statusCode).toBe(401);
      expect(fake.requests.length).toBe(before);
      expect(await billingRows(a.t.id)).toEqual([]);
      expect(await billingRows(b.t.id)).toEqual([]);
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Portal
// ---------------------------------------------------------------------------------------------------------

describe("POST /api/institution/billing/portal", () => {
  it("answers 409 conflict before any checkout, asking Stripe nothing", async () => {
    const admin = await freshAdmin();
    const before = fake.requests.length;
    const res = await postPortal(admin);
    expect(res.statusCode).toBe(409);
    const body = res.json<ErrorBody>();
    expect(body.error).toBe("conflict");
    expect(Object.keys(body).sort()).toEqual(["error", "message"]);
    expect(fake.requests.length).toBe(before);
  });

  it("answers the fake's portal url for the tenant's customer after a checkout", async () => {
    const admin = await freshAdmin();
    const customer = await customerOf(admin);
    const res = await postPortal(admin);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ url: string }>();
    expect(Object.keys(body)).toEqual(["url"]);
    expect(body.url).toMatch(PORTAL_URL);
    const requests = portalRequests(customer);
    expect(requests).toHaveLength(1);
    expect(String(requests[0]!.body.return_url).startsWith(`http://${admin.t.host}/`)).toBe(true);
    // The portal neither creates customers nor touches the stored one.
    expect(customerRequests(admin.t.id)).toHaveLength(1);
    expect((await billingRows(admin.t.id)).map((r) => r.stripeCustomerId)).toEqual([customer]);
  });

  it("answers 502 payment_provider_error when Stripe fails", async () => {
    const admin = await freshAdmin();
    const customer = await customerOf(admin);
    fake.failNext("POST", "/v1/billing_portal/sessions", 500);
    const res = await postPortal(admin);
    expect(res.statusCode).toBe(502);
    const body = res.json<ErrorBody>();
    expect(body.error).toBe("payment_provider_error");
    expect(Object.keys(body).sort()).toEqual(["error", "message"]);
    expect(res.body).not.toContain("Fake Stripe");
    expect(res.body).not.toContain(customer);
    expect(portalRequests(customer)).toHaveLength(1);
  });

  it("refuses a teacher with 403 forbidden, asking Stripe nothing", async () => {
    const admin = await freshAdmin();
    const customer = await customerOf(admin);
    const teacher = await roleCookie(h, admin.t, "teacher");
    const res = await postPortal({ t: admin.t, cookie: teacher });
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorBody>().error).toBe("forbidden");
    expect(portalRequests(customer)).toHaveLength(0);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Subscription status
// ---------------------------------------------------------------------------------------------------------

describe("GET /api/institution/billing/subscription", () => {
  it("answers the free plan with no subscription for a fresh tenant, and after a mere checkout", async () => {
    const admin = await freshAdmin();
    const res = await getStatus(admin.t, { cookie: admin.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(FREE_STATUS);

    await customerOf(admin);
    const after = await getStatus(admin.t, { cookie: admin.cookie });
    expect(after.json()).toEqual(FREE_STATUS);
  });

  it("reports the subscription once Stripe's checkout.session.completed is applied", async () => {
    const admin = await freshAdmin();
    const { customer, subscription, event } = await subscribe(admin);
    const expected = {
      plan: "growth",
      students: { used: 0, limit: 250 },
      status: "active",
      subscribedPlan: "growth",
      currency: "brl",
      currentPeriodStart: iso(PERIOD_START),
      currentPeriodEnd: iso(PERIOD_END),
      cancelAtPeriodEnd: false,
      graceDeadline: null,
    };
    const res = await getStatus(admin.t, { cookie: admin.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(expected);

    // The subscription was read from Stripe, not from the event.
    expect(
      fake.requests.filter((r) => r.method === "GET" && r.path === `/v1/subscriptions/${subscription}`),
    ).toHaveLength(1);
    expect(await tenantPlan(admin.t.id)).toBe("growth");
    const rows = await billingRows(admin.t.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      stripeCustomerId: customer,
      stripeSubscriptionId: subscription,
      plan: "growth",
      priceId: PRICES.STRIPE_PRICE_GROWTH_BRL,
      currency: "brl",
      status: "active",
      lastEventId: event.id,
    });

    // Any session and any key holding settings:read see the same.
    const teacher = await roleCookie(h, admin.t, "teacher");
    const student = await roleCookie(h, admin.t, "student");
    for (const headers of [
      { cookie: teacher },
      { cookie: student },
      bearer(await makeKey(h, admin.t, ["settings:read"])),
      bearer(await makeKey(h, admin.t, [])),
    ]) {
      const other = await getStatus(admin.t, headers);
      expect(other.statusCode).toBe(200);
      // The student signed in above takes a seat of the growth plan.
      expect(other.json()).toEqual({ ...expected, students: { used: 1, limit: 250 } });
    }
  });

  it("refuses a key without settings:read with 403 insufficient_scope", async () => {
    const admin = await freshAdmin();
    const key = await makeKey(h, admin.t, ["courses:read", "settings:write"]);
    const res = await getStatus(admin.t, bearer(key));
    expect(res.statusCode).toBe(403);
    const body = res.json<ErrorBody>();
    expect(body.error).toBe("insufficient_scope");
    expect(body.details?.map((d) => d.field)).toEqual(["scope"]);
    expect(res.body).not.toContain("growth");
  });

  it("never shows a tenant another tenant's subscription", async () => {
    const a = await freshAdmin();
    const b = await freshAdmin();
    const { customer, subscription } = await subscribe(a);

    const res = await getStatus(b.t, { cookie: b.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(FREE_STATUS);
    // A's session on B's host is no session at all, and B's key reads B.
    expect((await getStatus(b.t, { cookie: a.cookie })).statusCode).toBe(401);
    const keyB = await makeKey(h, b.t, ["settings:read"]);
    expect((await getStatus(b.t, bearer(keyB))).json()).toEqual(FREE_STATUS);
    const keyA = await makeKey(h, a.t, ["settings:read"]);
    expect((await getStatus(b.t, bearer(keyA))).statusCode).toBe(401);

    // An event naming B but carrying A's customer and subscription cannot give B A's plan: it is logged under
    // no tenant (it is not B's customer's event, and it does not name A).
    const customerB = await customerOf(b);
    const forgedEvent = stripeEvent(
      "checkout.session.completed",
      completedSession(b.t.id, customer, subscription),
    );
    const forged = await deliver(forgedEvent);
    expect(forged.statusCode).toBe(200);
    expect(forged.json()).toEqual({ received: true, outcome: "ignored" });
    expect(await eventRow(String(forgedEvent.id))).toMatchObject({
      tenantId: null,
      outcome: "ignored",
      reason: "customer is not the tenant's",
    });
    // Nor can B's own customer claim A's subscription.
    const claimedEvent = stripeEvent(
      "checkout.session.completed",
      completedSession(b.t.id, customerB, subscription),
    );
    const claimed = await deliver(claimedEvent);
    expect(claimed.json()).toEqual({ received: true, outcome: "ignored" });
    expect(await eventRow(String(claimedEvent.id))).toMatchObject({
      tenantId: b.t.id,
      outcome: "ignored",
      reason: "subscription belongs to another customer",
    });
    expect((await billingRows(b.t.id))[0]).toMatchObject({
      stripeCustomerId: customerB,
      stripeSubscriptionId: null,
      status: null,
    });

    expect((await getStatus(b.t, { cookie: b.cookie })).json()).toEqual(FREE_STATUS);
    expect(await tenantPlan(b.t.id)).toBe("free");
    expect((await getStatus(a.t, { cookie: a.cookie })).json()).toMatchObject({
      plan: "growth",
      status: "active",
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Payment history
// ---------------------------------------------------------------------------------------------------------

describe("GET /api/institution/billing/events", () => {
  it("lists the tenant's events newest first, exactly paginated", async () => {
    const admin = await freshAdmin();
    const base = nowSeconds();
    const { customer, subscription, event: completed } = await subscribe(admin, base);
    const invoice = (id: string) => ({
      id,
      object: "invoice",
      customer,
      subscription,
      status: "open",
      amount_due: 4990,
      currency: "brl",
    });
    const sent: { event: Record<string, unknown>; outcome: string; reason: string | null }[] = [
      { event: completed, outcome: "applied", reason: null },
    ];
    const more = [
      {
        event: stripeEvent("invoice.payment_failed", invoice("in_test_1"), { created: base + 1 }),
        outcome: "applied",
      },
      {
        event: stripeEvent("invoice.payment_succeeded", invoice("in_test_2"), { created: base + 2 }),
        outcome: "applied",
      },
      // Older than what was applied: logged, not applied.
      {
        event: stripeEvent("invoice.payment_failed", invoice("in_test_3"), { created: base - 60 }),
        outcome: "stale",
      },
    ];
    for (const { event, outcome } of more) {
      // receivedAt has millisecond precision: keep the deliveries apart so "newest first" is unambiguous.
      await sleep(5);
      const res = await deliver(event);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ received: true, outcome });
      sent.push({ event, outcome, reason: outcome === "stale" ? "older than the last event applied" : null });
    }

    const res = await getEvents(admin);
    expect(res.statusCode).toBe(200);
    const page = res.json<EventPage>();
    expect(page.pagination).toEqual({ page: 1, perPage: 20, total: 4, totalPages: 1 });
    const newestFirst = [...sent].reverse();
    expect(page.data.map((e) => e.externalEventId)).toEqual(newestFirst.map((s) => s.event.id));
    for (const [i, item] of page.data.entries()) {
      const expected = newestFirst[i]!;
      expect(Object.keys(item).sort()).toEqual([
        "eventCreatedAt",
        "externalEventId",
        "id",
        "outcome",
        "provider",
        "rawPayload",
        "reason",
        "receivedAt",
        "type",
      ]);
      expect(item).toMatchObject({
        provider: "stripe",
        externalEventId: expected.event.id,
        type: expected.event.type,
        outcome: expected.outcome,
        reason: expected.reason,
        eventCreatedAt: iso(expected.event.created as number),
      });
      expect(item.id).toMatch(UUID);
      expect(item.receivedAt).toMatch(ISO);
      expect(item.rawPayload).toMatchObject({ id: expected.event.id, type: expected.event.type });
    }
    const received = page.data.map((e) => Date.parse(e.receivedAt));
    expect([...received].sort((x, y) => y - x)).toEqual(received);

    // The rows are the tenant's, one per event.
    expect((await eventRows(admin.t.id)).map((r) => r.eventId).sort()).toEqual(
      sent.map((s) => String(s.event.id)).sort(),
    );

    // perPage=1: one page per event, in the same order.
    const ids: string[] = [];
    for (let p = 1; p <= 4; p++) {
      const one = await getEvents(admin, `?perPage=1&page=${p}`);
      expect(one.statusCode).toBe(200);
      const body = one.json<EventPage>();
      expect(body.pagination).toEqual({ page: p, perPage: 1, total: 4, totalPages: 4 });
      expect(body.data).toHaveLength(1);
      ids.push(body.data[0]!.externalEventId);
    }
    expect(ids).toEqual(page.data.map((e) => e.externalEventId));
    const beyond = (await getEvents(admin, "?perPage=1&page=5")).json<EventPage>();
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination).toEqual({ page: 5, perPage: 1, total: 4, totalPages: 4 });
    const three = (await getEvents(admin, "?perPage=3&page=2")).json<EventPage>();
    expect(three.pagination).toEqual({ page: 2, perPage: 3, total: 4, totalPages: 2 });
    expect(three.data.map((e) => e.externalEventId)).toEqual([page.data[3]!.externalEventId]);
    // Above 100 is served as 100.
    expect((await getEvents(admin, "?perPage=500")).json<EventPage>().pagination.perPage).toBe(100);
  });

  it("keeps no personal data of the buyer, neither in the answer nor anywhere in the database", async () => {
    const admin = await freshAdmin();
    const customer = await customerOf(admin);
    const subscription = putSubscription(customer, admin.t.id);
    const personal = {
      email: "aluno@example.com",
      name: "Maria Exemplo",
      phone: "+5511900000000",
      cpf: "123.456.789-09",
      line1: "Rua Exemplo 123",
      postalCode: "01000-000",
    };
    const address = {
      city: "São Paulo",
      country: "BR",
      line1: personal.line1,
      line2: null,
      postal_code: personal.postalCode,
      state: "SP",
    };
    const event = stripeEvent(
      "checkout.session.completed",
      completedSession(admin.t.id, customer, subscription, {
        customer_email: personal.email,
        customer_details: {
          address,
          email: personal.email,
          name: personal.name,
          phone: personal.phone,
          tax_exempt: "none",
          tax_ids: [{ type: "br_cpf", value: personal.cpf }],
          business_name: null,
          individual_name: null,
        },
        collected_information: { shipping_details: { name: personal.name, address } },
        amount_total: 4990,
        currency: "brl",
      }),
    );
    const res = await deliver(event);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, outcome: "applied" });

    const list = await getEvents(admin);
    expect(list.statusCode).toBe(200);
    const [item] = list.json<EventPage>().data;
    expect(item?.externalEventId).toBe(event.id);
    for (const value of Object.values(personal)) {
      expect(list.body, value).not.toContain(value);
      expect(await tablesContaining(h, value), value).toEqual([]);
    }
    // What reconciles money stays.
    const object = (item!.rawPayload.data as Record<string, unknown>).object as Record<string, unknown>;
    expect(object).toMatchObject({
      customer,
      subscription,
      client_reference_id: admin.t.id,
      metadata: { tenantId: admin.t.id },
      amount_total: 4990,
      currency: "brl",
      mode: "subscription",
    });
    expect(object.customer_email).not.toBe(personal.email);
    expect(object.customer_details).not.toEqual(expect.objectContaining({ email: personal.email }));
  });

  it("shows a tenant only its own events", async () => {
    const a = await freshAdmin();
    const b = await freshAdmin();
    const { event } = await subscribe(a);
    const customerB = await customerOf(b);

    const listB = await getEvents(b);
    expect(listB.statusCode).toBe(200);
    expect(listB.json<EventPage>()).toEqual({
      data: [],
      pagination: { page: 1, perPage: 20, total: 0, totalPages: 0 },
    });
    expect(listB.body).not.toContain(String(event.id));

    // An event of B's customer lands in B's log alone.
    const own = stripeEvent("checkout.session.completed", completedSession(b.t.id, customerB, null));
    const res = await deliver(own);
    expect(res.json()).toEqual({ received: true, outcome: "ignored" });
    const pageB = (await getEvents(b)).json<EventPage>();
    expect(pageB.data.map((e) => e.externalEventId)).toEqual([own.id]);
    expect(pageB.data[0]?.reason).toBe("session has no subscription");
    expect(pageB.pagination.total).toBe(1);
    const pageA = (await getEvents(a)).json<EventPage>();
    expect(pageA.data.map((e) => e.externalEventId)).toEqual([event.id]);
    expect(pageA.pagination.total).toBe(1);
    // A's session cannot read B's log through B's host.
    expect((await getEvents({ t: b.t, cookie: a.cookie })).statusCode).toBe(401);
  });

  it("refuses unknown or invalid query parameters with 400", async () => {
    const admin = await freshAdmin();
    for (const query of ["?tenantId=x", "?perPage=0", "?page=0", "?page=abc"]) {
      const res = await getEvents(admin, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json<ErrorBody>().error).toBe("validation_failed");
      expect(res.json<ErrorBody>().details?.length, query).toBeGreaterThan(0);
    }
    const unknown = await getEvents(admin, "?tenantId=x");
    expect(unknown.json<ErrorBody>().details?.map((d) => d.field)).toEqual(["tenantId"]);
  });

  it("is for admin sessions only", async () => {
    const admin = await freshAdmin();
    const teacher = await roleCookie(h, admin.t, "teacher");
    const asTeacher = await getEvents({ t: admin.t, cookie: teacher });
    expect(asTeacher.statusCode).toBe(403);
    expect(asTeacher.json<ErrorBody>().error).toBe("forbidden");
    const key = await makeKey(h, admin.t, []);
    const asKey = await h.inject({
      method: "GET",
      url: EVENTS,
      headers: { host: admin.t.host, ...bearer(key) },
    });
    expect(asKey.statusCode).toBe(403);
    expect(asKey.json<ErrorBody>().error).toBe("session_required");
  });
});
