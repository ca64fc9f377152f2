import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeStripe, startFakeStripe } from "./fake-stripe.js";
import { parseFormBody } from "./fake-stripe-form.js";
import { fakeSubscription } from "./fake-stripe-objects.js";

/**
 * stripe-node 23 removed `payment_method_types` from `Checkout.SessionCreateParams` (types only: the SDK
 * still sends any parameter it is given), so the tests add it outside the object literal's type check.
 */
function withMethodTypes(
  params: Stripe.Checkout.SessionCreateParams,
  types: string[],
): Stripe.Checkout.SessionCreateParams {
  const withTypes: Stripe.Checkout.SessionCreateParams & { payment_method_types: string[] } = {
    ...params,
    payment_method_types: types,
  };
  return withTypes;
}

/** The settled rejection of `promise` (fails the test if it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("fake Stripe server, driven by the real SDK", () => {
  let fake: FakeStripe;
  let stripe: Stripe;

  beforeAll(async () => {
    fake = await startFakeStripe();
    stripe = new Stripe("sk_test_x", {
      host: "127.0.0.1",
      port: fake.port,
      protocol: "http",
      maxNetworkRetries: 0,
    });
  });

  afterAll(async () => {
    await fake.close();
  });

  beforeEach(() => {
    fake.reset();
  });

  it("listens on 127.0.0.1 and answers JSON with a request id", async () => {
    expect(fake.url).toBe(`http://127.0.0.1:${fake.port}`);
    const customer = await stripe.customers.create({ email: "a@example.com" });
    expect(customer.lastResponse.requestId).toMatch(/^req_[A-Za-z0-9]+$/);
    expect(customer.lastResponse.statusCode).toBe(200);
  });

  describe("customers", () => {
    it("creates a customer, stores it and records the parsed form body", async () => {
      const customer = await stripe.customers.create({
        email: "aluno@example.com",
        name: "Maria Exemplo",
        metadata: { tenantId: "t_1" },
        preferred_locales: ["pt-BR", "en"],
      });
      expect(customer.id).toMatch(/^cus_fake_/);
      expect(customer.object).toBe("customer");
      expect(customer.email).toBe("aluno@example.com");
      expect(customer.name).toBe("Maria Exemplo");
      expect(customer.metadata).toEqual({ tenantId: "t_1" });
      expect(fake.customers.get(customer.id)).toMatchObject({ id: customer.id, email: "aluno@example.com" });

      const [request] = fake.requests;
      expect(request?.method).toBe("POST");
      expect(request?.path).toBe("/v1/customers");
      expect(request?.body).toEqual({
        email: "aluno@example.com",
        name: "Maria Exemplo",
        metadata: { tenantId: "t_1" },
        preferred_locales: ["pt-BR", "en"],
      });
      expect(request?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
      expect(request?.headers.authorization).toBe("Bearer sk_test_x");
    });

    it("replays the first customer for a reused Idempotency-Key, as Stripe does", async () => {
      const params = { email: "t@example.com", metadata: { tenantId: "t_2" } };
      const first = await stripe.customers.create(params, { idempotencyKey: "k" });
      const second = await stripe.customers.create(params, { idempotencyKey: "k" });
      expect(second.id).toBe(first.id);
      // Stripe sees both requests but creates one customer.
      expect(fake.count("POST", "/v1/customers")).toBe(2);
      expect(fake.customers.size).toBe(1);
      expect(fake.requests.map((r) => r.headers["idempotency-key"])).toEqual(["k", "k"]);
      expect(second.lastResponse.idempotencyKey).toBe("k");
    });

    it("creates exactly one customer for concurrent calls sharing a key", async () => {
      const params = { email: "c@example.com", metadata: { tenantId: "t_3" } };
      const results = await Promise.all(
        Array.from({ length: 5 }, () => stripe.customers.create(params, { idempotencyKey: "tenant-t_3" })),
      );
      expect(new Set(results.map((c) => c.id)).size).toBe(1);
      expect(fake.count("POST", "/v1/customers")).toBe(5);
      expect(fake.customers.size).toBe(1);
    });

    it("creates distinct customers without a caller key (the SDK still sends its own per call)", async () => {
      const a = await stripe.customers.create({ email: "x@example.com" });
      const b = await stripe.customers.create({ email: "x@example.com" });
      expect(a.id).not.toBe(b.id);
      expect(fake.customers.size).toBe(2);
      const keys = fake.requests.map((r) => r.headers["idempotency-key"]);
      expect(keys[0]).toMatch(/^stripe-node-retry-/);
      expect(keys[0]).not.toBe(keys[1]);
    });

    it("refuses a reused key with other parameters (StripeIdempotencyError)", async () => {
      await stripe.customers.create({ email: "one@example.com" }, { idempotencyKey: "k2" });
      const error = await rejectionOf(
        stripe.customers.create({ email: "two@example.com" }, { idempotencyKey: "k2" }),
      );
      expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
      expect(fake.customers.size).toBe(1);
    });
  });

  describe("checkout sessions", () => {
    const base = {
      mode: "subscription" as const,
      customer: "cus_fake_1",
      client_reference_id: "t_1",
      success_url: "https://app.test/ok",
      cancel_url: "https://app.test/cancel",
      metadata: { tenantId: "t_1", plan: "growth" },
    };

    it("creates a card session and echoes the parameters", async () => {
      const session = await stripe.checkout.sessions.create(
        withMethodTypes({ ...base, line_items: [{ price: "price_x", quantity: 1 }] }, ["card"]),
      );
      expect(session.id).toMatch(/^cs_test_/);
      expect(session.object).toBe("checkout.session");
      expect(session.url).toBe(`https://checkout.stripe.test/c/pay/${session.id}`);
      expect(session.mode).toBe("subscription");
      expect(session.customer).toBe("cus_fake_1");
      expect(session.client_reference_id).toBe("t_1");
      expect(session.metadata).toEqual({ tenantId: "t_1", plan: "growth" });
      expect(session.currency).toBeNull();
      expect(session.payment_method_types).toEqual(["card"]);
      expect(session.success_url).toBe("https://app.test/ok");
      expect(session.cancel_url).toBe("https://app.test/cancel");
      expect(session.status).toBe("open");
      expect(fake.requests[0]?.body.line_items).toEqual([{ price: "price_x", quantity: "1" }]);
    });

    it("takes the currency from the line item's price_data", async () => {
      const session = await stripe.checkout.sessions.create({
        ...base,
        line_items: [
          {
            price_data: {
              currency: "brl",
              unit_amount: 4990,
              product: "prod_x",
              recurring: { interval: "month" },
            },
            quantity: 1,
          },
        ],
      });
      expect(session.currency).toBe("brl");
      expect(session.payment_method_types).toEqual(["card"]);
    });

    it("refuses allowed_payment_method_types naming a method the account lacks, when told to", async () => {
      fake.refuseNonCardMethods = true;
      const error = await stripe.checkout.sessions
        .create({
          ...base,
          line_items: [{ price: "price_x", quantity: 1 }],
          allowed_payment_method_types: ["card", "boleto"],
        })
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect((error as Stripe.errors.StripeInvalidRequestError).param).toBe("allowed_payment_method_types");
      const cardOnly = await stripe.checkout.sessions.create({
        ...base,
        line_items: [{ price: "price_x", quantity: 1 }],
        allowed_payment_method_types: ["card"],
      });
      expect(cardOnly.allowed_payment_method_types).toEqual(["card"]);
    });

    it("accepts non-card methods unless refuseNonCardMethods is set", async () => {
      const session = await stripe.checkout.sessions.create(
        withMethodTypes({ ...base, line_items: [{ price: "price_x", quantity: 1 }] }, [
          "card",
          "boleto",
          "pix",
        ]),
      );
      expect(session.payment_method_types).toEqual(["card", "boleto", "pix"]);
    });

    it("refuses the first non-card method when refuseNonCardMethods is set", async () => {
      fake.refuseNonCardMethods = true;
      const error = await rejectionOf(
        stripe.checkout.sessions.create(
          withMethodTypes({ ...base, line_items: [{ price: "price_x", quantity: 1 }] }, [
            "card",
            "boleto",
            "pix",
          ]),
        ),
      );
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      const stripeError = error as Stripe.errors.StripeInvalidRequestError;
      expect(stripeError.param).toBe("payment_method_types");
      expect(stripeError.code).toBe("parameter_invalid");
      expect(stripeError.statusCode).toBe(400);
      expect(stripeError.message).toContain('"boleto"');
      expect(fake.requests[0]?.body.payment_method_types).toEqual(["card", "boleto", "pix"]);

      // Card alone still works.
      const session = await stripe.checkout.sessions.create(
        withMethodTypes({ ...base, line_items: [{ price: "price_x", quantity: 1 }] }, ["card"]),
      );
      expect(session.status).toBe("open");
    });
  });

  describe("billing portal sessions", () => {
    it("creates a session for a customer", async () => {
      const session = await stripe.billingPortal.sessions.create({
        customer: "cus_fake_1",
        return_url: "https://app.test/billing",
      });
      expect(session.id).toMatch(/^bps_/);
      expect(session.object).toBe("billing_portal.session");
      expect(session.customer).toBe("cus_fake_1");
      expect(session.return_url).toBe("https://app.test/billing");
      expect(session.url).toBe(`https://billing.stripe.test/p/session/${session.id}`);
    });

    it("answers 400 when customer is missing", async () => {
      // The SDK's types require customer; Stripe would still answer 400 if it were empty.
      const error = await rejectionOf(stripe.billingPortal.sessions.create({ customer: "" }));
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect((error as Stripe.errors.StripeInvalidRequestError).param).toBe("customer");
    });
  });

  describe("subscriptions", () => {
    const periodStart = 1767225600;
    const periodEnd = 1769904000;

    it("serves a basil-shaped subscription (periods on the items only)", async () => {
      fake.subscriptions.set(
        "sub_basil",
        fakeSubscription({
          id: "sub_basil",
          customer: "cus_1",
          tenantId: "t_1",
          priceId: "price_growth",
          periodStart,
          periodEnd,
        }),
      );
      const sub = await stripe.subscriptions.retrieve("sub_basil");
      expect(sub.id).toBe("sub_basil");
      expect(sub.object).toBe("subscription");
      expect(sub.status).toBe("active");
      expect(sub.customer).toBe("cus_1");
      expect(sub.metadata).toEqual({ tenantId: "t_1" });
      expect(sub.cancel_at_period_end).toBe(false);
      const item = sub.items.data[0];
      expect(item?.price.id).toBe("price_growth");
      expect(item?.price.currency).toBe("brl");
      expect(item?.price.unit_amount).toBe(4990);
      expect(item?.price.recurring?.interval).toBe("month");
      expect(item?.quantity).toBe(1);
      expect(item?.current_period_start).toBe(periodStart);
      expect(item?.current_period_end).toBe(periodEnd);
      expect(sub).not.toHaveProperty("current_period_end");
      expect(fake.count("GET", "/v1/subscriptions/")).toBe(1);
    });

    it("serves a legacy-shaped subscription (periods at top level only)", async () => {
      fake.subscriptions.set(
        "sub_legacy",
        fakeSubscription({
          id: "sub_legacy",
          customer: "cus_1",
          priceId: "price_growth",
          status: "past_due",
          periodStart,
          periodEnd,
          cancelAtPeriodEnd: true,
          shape: "legacy",
        }),
      );
      const sub = await stripe.subscriptions.retrieve("sub_legacy");
      // The SDK's types follow the current API version, which no longer has top-level periods.
      const raw = sub as unknown as Record<string, unknown>;
      expect(raw.current_period_start).toBe(periodStart);
      expect(raw.current_period_end).toBe(periodEnd);
      expect(sub.items.data[0]).not.toHaveProperty("current_period_end");
      expect(sub.status).toBe("past_due");
      expect(sub.cancel_at_period_end).toBe(true);
      expect(sub.cancel_at).toBe(periodEnd);
      expect(sub.metadata).toEqual({});
    });

    it("answers 404 resource_missing for an unknown id", async () => {
      const error = await rejectionOf(stripe.subscriptions.retrieve("sub_nope"));
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      const stripeError = error as Stripe.errors.StripeInvalidRequestError;
      expect(stripeError.statusCode).toBe(404);
      expect(stripeError.code).toBe("resource_missing");
      expect(stripeError.param).toBe("id");
      expect(stripeError.message).toBe("No such subscription: 'sub_nope'");
    });
  });

  describe("failNext", () => {
    it("fails the next matching request once with a 500 api_error", async () => {
      fake.failNext("POST", "/v1/customers", 500);
      const error = await rejectionOf(stripe.customers.create({ email: "f@example.com" }));
      expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
      expect((error as Stripe.errors.StripeAPIError).statusCode).toBe(500);
      expect((error as Stripe.errors.StripeAPIError).type).toBe("StripeAPIError");
      expect(fake.customers.size).toBe(0);

      const customer = await stripe.customers.create({ email: "f@example.com" });
      expect(customer.id).toMatch(/^cus_fake_/);
      expect(fake.count("POST", "/v1/customers")).toBe(2);
    });

    it("only hits requests matching method and path prefix, 4xx as invalid_request_error", async () => {
      fake.failNext("POST", "/v1/checkout", 400);
      await stripe.customers.create({ email: "g@example.com" });
      const error = await rejectionOf(
        stripe.checkout.sessions.create({ mode: "payment", line_items: [{ price: "price_x", quantity: 1 }] }),
      );
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    });

    it("is not remembered under the idempotency key, so the same key succeeds next", async () => {
      fake.failNext("POST", "/v1/customers", 503);
      await expect(
        stripe.customers.create({ email: "h@example.com" }, { idempotencyKey: "k3" }),
      ).rejects.toThrow();
      const customer = await stripe.customers.create({ email: "h@example.com" }, { idempotencyKey: "k3" });
      expect(fake.customers.get(customer.id)).toBeDefined();
    });
  });

  it("answers unknown endpoints with a Stripe-shaped 404", async () => {
    const error = await rejectionOf(stripe.products.retrieve("prod_x"));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((error as Stripe.errors.StripeInvalidRequestError).statusCode).toBe(404);
  });

  it("reset clears everything", async () => {
    await stripe.customers.create({ email: "r@example.com" }, { idempotencyKey: "k4" });
    fake.subscriptions.set("sub_r", fakeSubscription({ id: "sub_r", customer: "c", priceId: "p" }));
    fake.refuseNonCardMethods = true;
    fake.failNext("GET", "/v1", 500);
    fake.reset();
    expect(fake.requests).toEqual([]);
    expect(fake.customers.size).toBe(0);
    expect(fake.subscriptions.size).toBe(0);
    expect(fake.refuseNonCardMethods).toBe(false);
    // The failure and the key are gone too: same key, new customer.
    const again = await stripe.customers.create({ email: "r@example.com" }, { idempotencyKey: "k4" });
    expect(fake.customers.get(again.id)).toBeDefined();
  });
});

describe("parseFormBody", () => {
  it("nests bracketed keys and turns numeric indexes into arrays", () => {
    expect(
      parseFormBody(
        "line_items[0][price]=price_x&line_items[0][quantity]=1&line_items[1][price]=price_y" +
          "&metadata[tenantId]=abc&payment_method_types[0]=card&payment_method_types[1]=pix&mode=subscription",
      ),
    ).toEqual({
      line_items: [{ price: "price_x", quantity: "1" }, { price: "price_y" }],
      metadata: { tenantId: "abc" },
      payment_method_types: ["card", "pix"],
      mode: "subscription",
    });
  });

  it("accepts encoded brackets, empty brackets and empty values, and ignores __proto__", () => {
    expect(parseFormBody("a%5Bb%5D=1&list[]=x&list[]=y&metadata[gone]=&__proto__[polluted]=1")).toEqual({
      a: { b: "1" },
      list: ["x", "y"],
      metadata: { gone: "" },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("keeps objects with non-numeric keys as objects", () => {
    expect(parseFormBody("m[0]=a&m[x]=b")).toEqual({ m: { "0": "a", x: "b" } });
  });
});
