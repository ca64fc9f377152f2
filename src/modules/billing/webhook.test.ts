/**
 * The Stripe webhook (SECURITY.md API10 tests 1–7): signature over the raw bytes, exactly-once application with
 * its payment-log row, the ordering guard, failures that leave nothing applied, tenant and price binding, and
 * both payload shapes (before and after Stripe's 2025-03 "basil" version), all through the real SDK against a
 * fake Stripe server.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { billingSubscriptions, paymentEvents, tenants } from "../../db/schema/index.js";
import { useBillingApi } from "../../test-support/billing-api.js";
import { fakeSubscription } from "../../test-support/fake-stripe-objects.js";
import { adminCookie, makeTenant, type TestTenant } from "../../test-support/harness.js";
import { nowSeconds, PRICES, signed, stripeEvent } from "../../test-support/stripe-events.js";

const { h, fake } = useBillingApi();

const GROWTH = PRICES.STRIPE_PRICE_GROWTH_BRL;
const DAY = 86_400;

interface Subscriber {
  t: TestTenant;
  customer: string;
  subId: string;
}

/** A tenant that started a checkout (so it has a Stripe customer), and the subscription Stripe holds for it. */
async function subscriber(options: { status?: string; priceId?: string; tenantId?: string } = {}) {
  const t = await makeTenant(h);
  const customer = `cus_${t.slug}`;
  const subId = `sub_${t.slug}`;
  await h.database.db.insert(billingSubscriptions).values({ tenantId: t.id, stripeCustomerId: customer });
  fake.subscriptions.set(
    subId,
    fakeSubscription({
      id: subId,
      customer,
      tenantId: options.tenantId ?? t.id,
      priceId: options.priceId ?? GROWTH,
      status: options.status ?? "active",
    }),
  );
  return { t, customer, subId } satisfies Subscriber;
}

function deliver(event: Record<string, unknown> | string, options: Parameters<typeof signed>[1] = {}) {
  const { payload, headers } = signed(event, options);
  return h.inject({ method: "POST", url: "/api/webhooks/stripe", headers, payload });
}

function checkoutCompleted(s: Subscriber, created?: number, extra: Record<string, unknown> = {}) {
  return stripeEvent(
    "checkout.session.completed",
    {
      id: `cs_test_${randomUUID()}`,
      object: "checkout.session",
      mode: "subscription",
      customer: s.customer,
      subscription: s.subId,
      client_reference_id: s.t.id,
      metadata: { tenantId: s.t.id, plan: "growth" },
      ...extra,
    },
    { created },
  );
}

/** A subscription event carrying `status` (basil shape unless told otherwise). */
function subscriptionEvent(
  s: Subscriber,
  type: string,
  status: string,
  created: number,
  options: { shape?: "basil" | "legacy"; priceId?: string; periodStart?: number } = {},
) {
  const object = fakeSubscription({
    id: s.subId,
    customer: s.customer,
    tenantId: s.t.id,
    priceId: options.priceId ?? GROWTH,
    status,
    shape: options.shape,
    periodStart: options.periodStart,
  });
  return stripeEvent(type, object, { created });
}

function invoiceEvent(s: Subscriber, type: string, created: number, shape: "basil" | "legacy" = "basil") {
  const link =
    shape === "legacy"
      ? { subscription: s.subId }
      : { parent: { type: "subscription_details", subscription_details: { subscription: s.subId } } };
  return stripeEvent(
    type,
    {
      id: `in_${randomUUID()}`,
      object: "invoice",
      customer: s.customer,
      customer_email: "aluno@example.com",
      status: type === "invoice.payment_failed" ? "open" : "paid",
      ...link,
    },
    { created, apiVersion: shape === "legacy" ? "2025-02-24.acacia" : "2025-03-31.basil" },
  );
}

async function billingOf(t: TestTenant) {
  const rows = await h.database.db
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.tenantId, t.id));
  return rows[0];
}

async function planOf(t: TestTenant) {
  const rows = await h.database.db.select({ plan: tenants.plan }).from(tenants).where(eq(tenants.id, t.id));
  return rows[0]?.plan;
}

async function logRows(eventId: string) {
  return h.database.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId));
}

const idOf = (event: Record<string, unknown>) => event.id as string;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe("the signature", () => {
  it("is required: missing, malformed or made with another secret → 400 invalid_signature, nothing stored", async () => {
    const s = await subscriber();
    const event = checkoutCompleted(s);
    const { payload } = signed(event);
    const variants: Record<string, string>[] = [
      { "content-type": "application/json" },
      { "content-type": "application/json", "stripe-signature": "t=abc,v1=def" },
      { "content-type": "application/json", "stripe-signature": "" },
      signed(event, { secret: "whsec_someone_else" }).headers,
    ];
    for (const headers of variants) {
      const res = await h.inject({ method: "POST", url: "/api/webhooks/stripe", headers, payload });
      expect(res.statusCode, JSON.stringify(headers)).toBe(400);
      expect(res.json().error).toBe("invalid_signature");
    }
    expect(await logRows(idOf(event))).toEqual([]);
    expect(await planOf(s.t)).toBe("free");
    expect(fake.count("GET", `/v1/subscriptions/${s.subId}`)).toBe(0);
  });

  it("covers the raw bytes: the same JSON re-serialised with other whitespace is refused, the exact bytes pass", async () => {
    const s = await subscriber();
    const event = checkoutCompleted(s);
    const exact = signed(event);
    const reformatted = JSON.stringify(event, null, 2);
    const res = await h.inject({
      method: "POST",
      url: "/api/webhooks/stripe",
      headers: exact.headers,
      payload: reformatted,
    });
    expect(res.statusCode).toBe(400);
    expect(await logRows(idOf(event))).toEqual([]);
    const ok = await h.inject({ method: "POST", url: "/api/webhooks/stripe", ...exact });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ received: true, outcome: "applied" });
  });

  it("expires after 300 seconds: signed 301 s ago → 400, 200 s ago → 200", async () => {
    const s = await subscriber();
    const old = checkoutCompleted(s);
    expect((await deliver(old, { timestamp: nowSeconds() - 301 })).statusCode).toBe(400);
    expect(await logRows(idOf(old))).toEqual([]);
    expect((await deliver(old, { timestamp: nowSeconds() - 200 })).statusCode).toBe(200);
  });

  it("takes JSON only, sets no cookie and ignores session cookies", async () => {
    const s = await subscriber();
    const event = checkoutCompleted(s);
    const { payload, headers } = signed(event);
    const text = await h.inject({
      method: "POST",
      url: "/api/webhooks/stripe",
      headers: { ...headers, "content-type": "text/plain" },
      payload,
    });
    expect(text.statusCode).toBe(415);
    const cookie = await adminCookie(h, s.t);
    const withCookie = await h.inject({
      method: "POST",
      url: "/api/webhooks/stripe",
      headers: { ...headers, cookie, host: s.t.host },
      payload,
    });
    expect(withCookie.statusCode).toBe(200);
    expect(withCookie.headers["set-cookie"]).toBeUndefined();
    const without = await deliver(payload);
    expect(without.statusCode).toBe(200);
    expect(without.json().outcome).toBe("duplicate");
  });
});

describe("exactly once", () => {
  it("applies a repeated event once: 200 both times, one log row, one state change", async () => {
    const s = await subscriber();
    const event = checkoutCompleted(s);
    const first = await deliver(event);
    const second = await deliver(event);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(first.json().outcome).toBe("applied");
    expect(second.json().outcome).toBe("duplicate");
    expect(await logRows(idOf(event))).toHaveLength(1);
    expect(fake.count("GET", `/v1/subscriptions/${s.subId}`)).toBe(1);
    expect(await planOf(s.t)).toBe("growth");
  });

  it("applies ten concurrent copies once", async () => {
    const s = await subscriber();
    const event = checkoutCompleted(s);
    const { payload, headers } = signed(event);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        h.inject({ method: "POST", url: "/api/webhooks/stripe", headers, payload }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const outcomes = results.map((r) => r.json().outcome).sort();
    expect(outcomes).toEqual(["applied", ...Array(9).fill("duplicate")]);
    const rows = await logRows(idOf(event));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.outcome).toBe("applied");
    expect(fake.count("GET", `/v1/subscriptions/${s.subId}`)).toBe(1);
    expect((await billingOf(s.t))?.lastEventId).toBe(idOf(event));
  });
});

describe("ordering", () => {
  it("acknowledges an event older than the last one applied without applying it", async () => {
    const s = await subscriber();
    const t0 = nowSeconds() - 1000;
    expect((await deliver(checkoutCompleted(s, t0))).statusCode).toBe(200);
    const paid = invoiceEvent(s, "invoice.payment_succeeded", t0 + 20);
    const failed = invoiceEvent(s, "invoice.payment_failed", t0 + 10);
    expect((await deliver(paid)).json().outcome).toBe("applied");
    const late = await deliver(failed);
    expect(late.statusCode).toBe(200);
    expect(late.json().outcome).toBe("stale");
    const billing = await billingOf(s.t);
    expect(billing?.status).toBe("active");
    expect(billing?.graceDeadline).toBeNull();
    expect(billing?.lastEventId).toBe(idOf(paid));
    expect((await logRows(idOf(failed)))[0]?.outcome).toBe("stale");
  });

  it("keeps the newer snapshot when subscription.created arrives after subscription.updated (fixture case)", async () => {
    const s = await subscriber({ status: "active" });
    const t0 = nowSeconds() - 1000;
    const created = subscriptionEvent(s, "customer.subscription.created", "incomplete", t0 + 2);
    const updated = subscriptionEvent(s, "customer.subscription.updated", "active", t0 + 3);
    expect((await deliver(updated)).json().outcome).toBe("applied");
    expect((await deliver(created)).json().outcome).toBe("stale");
    expect((await billingOf(s.t))?.status).toBe("active");
    expect(await planOf(s.t)).toBe("growth");
  });

  it("re-reads the subscription from Stripe for an event from the same second, and applies Stripe's state", async () => {
    const s = await subscriber({ status: "past_due" });
    const t = nowSeconds() - 500;
    await deliver(subscriptionEvent(s, "customer.subscription.updated", "active", t));
    const before = fake.count("GET", `/v1/subscriptions/${s.subId}`);
    // This event says active, but Stripe's record (the fake) says past_due: Stripe wins.
    const sameSecond = subscriptionEvent(s, "customer.subscription.updated", "active", t);
    expect((await deliver(sameSecond)).json().outcome).toBe("applied");
    expect(fake.count("GET", `/v1/subscriptions/${s.subId}`)).toBe(before + 1);
    const billing = await billingOf(s.t);
    expect(billing?.status).toBe("past_due");
    expect(billing?.graceDeadline).toBe(iso(t + 7 * DAY));
    expect(billing?.lastEventId).toBe(idOf(sameSecond));
  });

  it("ends a shuffled delivery of a subscription's life in the same state as the ordered delivery", async () => {
    const t0 = nowSeconds() - 10_000;
    const lifecycle = (s: Subscriber) => [
      subscriptionEvent(s, "customer.subscription.created", "incomplete", t0 + 1),
      invoiceEvent(s, "invoice.payment_succeeded", t0 + 2),
      subscriptionEvent(s, "customer.subscription.updated", "active", t0 + 3),
      checkoutCompleted(s, t0 + 4),
      invoiceEvent(s, "invoice.payment_failed", t0 + 100, "legacy"),
      subscriptionEvent(s, "customer.subscription.updated", "past_due", t0 + 101),
      invoiceEvent(s, "invoice.paid", t0 + 200),
      subscriptionEvent(s, "customer.subscription.updated", "active", t0 + 201, { periodStart: t0 + 150 }),
    ];
    const finalState = async (order: (events: Record<string, unknown>[]) => Record<string, unknown>[]) => {
      const s = await subscriber({ status: "active" });
      for (const event of order(lifecycle(s))) expect((await deliver(event)).statusCode).toBe(200);
      const billing = await billingOf(s.t);
      return {
        plan: await planOf(s.t),
        status: billing?.status,
        subscribedPlan: billing?.plan,
        subscription: billing?.stripeSubscriptionId === s.subId,
        periodStart: billing?.currentPeriodStart,
        graceDeadline: billing?.graceDeadline,
        lastEventAt: billing?.lastEventAt,
      };
    };
    const ordered = await finalState((events) => events);
    expect(ordered).toEqual({
      plan: "growth",
      status: "active",
      subscribedPlan: "growth",
      subscription: true,
      periodStart: iso(t0 + 150),
      graceDeadline: null,
      lastEventAt: iso(t0 + 201),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6, 7], { minLength: 8 }),
        async (permutation) => {
          const shuffled = await finalState((events) =>
            permutation.map((i) => events[i] as Record<string, unknown>),
          );
          expect(shuffled).toEqual(ordered);
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe("failures", () => {
  it("answers 5xx with nothing applied when Stripe fails, and applies the event once on Stripe's retry", async () => {
    const s = await subscriber();
    const event = checkoutCompleted(s);
    fake.failNext("GET", `/v1/subscriptions/${s.subId}`, 500);
    const failed = await deliver(event);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ error: "payment_provider_error", message: expect.any(String) });
    expect(await logRows(idOf(event))).toEqual([]);
    expect(await planOf(s.t)).toBe("free");
    expect((await billingOf(s.t))?.status).toBeNull();
    const retried = await deliver(event);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().outcome).toBe("applied");
    expect(await logRows(idOf(event))).toHaveLength(1);
    expect(await planOf(s.t)).toBe("growth");
    expect((await deliver(event)).json().outcome).toBe("duplicate");
  });

  it("answers 5xx and rolls back when the payment log cannot be written", async () => {
    const s = await subscriber();
    const event = checkoutCompleted(s);
    // The database refuses this event's log row (a trigger stands in for a failing insert) after the
    // subscription was already updated inside the transaction.
    const fn = sql.identifier(`refuse_${s.t.slug.replace(/-/g, "_")}`);
    await h.database.db.execute(
      sql`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.event_id = ${sql.raw(`'${idOf(event)}'`)} THEN RAISE EXCEPTION 'log row refused'; END IF; RETURN NEW; END $$`,
    );
    await h.database.db.execute(
      sql`CREATE TRIGGER ${fn} BEFORE INSERT ON payment_events FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    );
    try {
      const res = await deliver(event);
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toMatch(/log row refused|at .*\.ts/);
      expect(await logRows(idOf(event))).toEqual([]);
      expect(await planOf(s.t)).toBe("free");
      expect((await billingOf(s.t))?.stripeSubscriptionId).toBeNull();
    } finally {
      await h.database.db.execute(sql`DROP TRIGGER ${fn} ON payment_events`);
      await h.database.db.execute(sql`DROP FUNCTION ${fn}()`);
    }
  });
});

describe("text PostgreSQL cannot store", () => {
  it("applies a signed event carrying U+0000 and lone surrogates, in values and keys, and logs it with U+FFFD", async () => {
    const s = await subscriber();
    // Stripe signs what it sends and retries anything but a 2xx, so such an event must never be refused.
    const event = checkoutCompleted(s, undefined, {
      custom_text: { submit: { message: "bad \u0000 byte, lone \ud800 surrogate" } },
      metadata: { tenantId: s.t.id, plan: "growth", "key\u0000": "v", "\udc00": "w" },
    });
    const res = await deliver(event);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().outcome).toBe("applied");
    expect(await planOf(s.t)).toBe("growth");
    const [row] = await logRows(idOf(event));
    const payload = row?.payload as { data: { object: Record<string, unknown> } };
    expect(payload.data.object.custom_text).toEqual({
      submit: { message: "bad \uFFFD byte, lone \uFFFD surrogate" },
    });
    expect(payload.data.object.metadata).toEqual({
      tenantId: s.t.id,
      plan: "growth",
      "key\uFFFD": "v",
      "\uFFFD": "w",
    });
    expect((await deliver(event)).json().outcome).toBe("duplicate");
  });
});

describe("binding to a tenant", () => {
  it("promotes only when Stripe's subscription names the same tenant", async () => {
    const other = await makeTenant(h);
    const s = await subscriber({ tenantId: other.id });
    const event = checkoutCompleted(s);
    const res = await deliver(event);
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome).toBe("ignored");
    expect(await planOf(s.t)).toBe("free");
    expect(await planOf(other)).toBe("free");
    const [row] = await logRows(idOf(event));
    expect(row?.reason).toBe("subscription names another tenant");
  });

  it("promotes only for a price in the paid-plan list", async () => {
    const s = await subscriber({ priceId: "price_made_in_the_dashboard" });
    const res = await deliver(checkoutCompleted(s));
    expect(res.json().outcome).toBe("ignored");
    expect(await planOf(s.t)).toBe("free");
    const updated = subscriptionEvent(s, "customer.subscription.updated", "active", nowSeconds(), {
      priceId: "price_made_in_the_dashboard",
    });
    expect((await deliver(updated)).json().outcome).toBe("ignored");
    expect(await planOf(s.t)).toBe("free");
  });

  it("maps each allowed price to its plan", async () => {
    for (const [price, plan] of [
      [PRICES.STRIPE_PRICE_MINI_USD, "mini"],
      [PRICES.STRIPE_PRICE_PRO_100_BRL, "pro_100"],
    ] as const) {
      const s = await subscriber({ priceId: price });
      expect((await deliver(checkoutCompleted(s))).json().outcome).toBe("applied");
      expect(await planOf(s.t)).toBe(plan);
    }
  });

  it("ignores events for unknown tenants or customers, logging why without a tenant", async () => {
    const s = await subscriber();
    const unknownTenant = stripeEvent("checkout.session.completed", {
      object: "checkout.session",
      mode: "subscription",
      customer: s.customer,
      subscription: s.subId,
      metadata: { tenantId: randomUUID() },
    });
    const notUuid = stripeEvent("checkout.session.completed", {
      object: "checkout.session",
      mode: "subscription",
      client_reference_id: "tenant_demo_001",
    });
    const foreignCustomer = checkoutCompleted({ ...s, customer: "cus_not_ours" });
    const unknownCustomer = subscriptionEvent(
      { ...s, customer: "cus_nobody" },
      "customer.subscription.updated",
      "active",
      nowSeconds(),
    );
    for (const event of [unknownTenant, notUuid, foreignCustomer, unknownCustomer]) {
      const res = await deliver(event);
      expect(res.statusCode).toBe(200);
      expect(res.json().outcome).toBe("ignored");
      const [row] = await logRows(idOf(event));
      expect(row?.tenantId).toBeNull();
      expect(row?.reason).toEqual(expect.any(String));
    }
    expect(await planOf(s.t)).toBe("free");
  });

  it("does not let a superseded subscription overwrite the current one", async () => {
    const s = await subscriber();
    await deliver(checkoutCompleted(s, nowSeconds() - 100));
    const old = { ...s, subId: `sub_old_${s.t.slug}` };
    const deleted = subscriptionEvent(old, "customer.subscription.deleted", "canceled", nowSeconds());
    const res = await deliver(deleted);
    expect(res.json().outcome).toBe("ignored");
    expect((await billingOf(s.t))?.status).toBe("active");
    expect(await planOf(s.t)).toBe("growth");
  });

  it("answers 200 to event types it does not use, and logs nothing", async () => {
    const event = stripeEvent("customer.created", { id: "cus_x", object: "customer" });
    const res = await deliver(event);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, outcome: "unhandled" });
    expect(await logRows(idOf(event))).toEqual([]);
  });
});

describe("payload shapes and statuses", () => {
  it("reads the invoice's subscription in both shapes (invoice.subscription and parent.subscription_details)", async () => {
    for (const shape of ["legacy", "basil"] as const) {
      const s = await subscriber();
      const t0 = nowSeconds() - 1000;
      await deliver(checkoutCompleted(s, t0));
      const failed = invoiceEvent(s, "invoice.payment_failed", t0 + 10, shape);
      expect((await deliver(failed)).json().outcome, shape).toBe("applied");
      const billing = await billingOf(s.t);
      expect(billing?.status, shape).toBe("past_due");
      expect(billing?.graceDeadline, shape).toBe(iso(t0 + 10 + 7 * DAY));
      expect(await planOf(s.t), "the plan holds during the grace").toBe("growth");
      const paid = invoiceEvent(s, "invoice.payment_succeeded", t0 + 20, shape);
      expect((await deliver(paid)).json().outcome).toBe("applied");
      expect((await billingOf(s.t))?.status).toBe("active");
      expect((await billingOf(s.t))?.graceDeadline).toBeNull();
    }
  });

  it("reads the billing period from the subscription (legacy) or from its items (basil)", async () => {
    for (const shape of ["legacy", "basil"] as const) {
      const s = await subscriber();
      const start = nowSeconds() - 5 * DAY;
      const event = subscriptionEvent(s, "customer.subscription.updated", "active", nowSeconds(), {
        shape,
        periodStart: start,
      });
      expect((await deliver(event)).json().outcome).toBe("applied");
      const billing = await billingOf(s.t);
      expect(billing?.currentPeriodStart, shape).toBe(iso(start));
      expect(billing?.currentPeriodEnd, shape).toBe(iso(start + 30 * DAY));
    }
  });

  it("applies the real fixture events of Stripe's current shapes once their ids are the tenant's", async () => {
    const s = await subscriber();
    const dir = join(process.cwd(), "test/fixtures/stripe/derived");
    const load = (file: string) => {
      const text = readFileSync(join(dir, file), "utf8")
        .replaceAll("cus_QXg1o8vcGmoR32", s.customer)
        .replaceAll("sub_1Pgc6rB7WZ01zgkWNy0Cn5nw", s.subId)
        .replaceAll("price_1PgafmB7WZ01zgkW6dKueIc5", GROWTH)
        .replaceAll("tenant_demo_001", s.t.id);
      return JSON.parse(text) as Record<string, unknown>;
    };
    const active = load("evt_customer.subscription.updated.active.json");
    expect((await deliver(active)).json().outcome).toBe("applied");
    expect((await billingOf(s.t))?.status).toBe("active");
    expect(await planOf(s.t)).toBe("growth");
    const pastDue = load("evt_customer.subscription.updated.past_due.json");
    expect((await deliver(pastDue)).json().outcome).toBe("applied");
    expect((await billingOf(s.t))?.graceDeadline).toBe(iso((pastDue.created as number) + 7 * DAY));
    const deleted = load("evt_customer.subscription.deleted.json");
    expect((await deliver(deleted)).json().outcome).toBe("applied");
    expect((await billingOf(s.t))?.status).toBe("canceled");
    expect(await planOf(s.t)).toBe("free");
  });

  it("keeps the plan free while the first payment is incomplete, and grants it once paid", async () => {
    const s = await subscriber({ status: "incomplete" });
    const t0 = nowSeconds() - 100;
    await deliver(subscriptionEvent(s, "customer.subscription.created", "incomplete", t0));
    expect((await billingOf(s.t))?.status).toBe("incomplete");
    expect(await planOf(s.t)).toBe("free");
    await deliver(invoiceEvent(s, "invoice.paid", t0 + 1));
    expect((await billingOf(s.t))?.status).toBe("active");
    expect(await planOf(s.t)).toBe("growth");
  });

  it("cancels: customer.subscription.deleted → canceled and plan free, and a later paid invoice does not revive it", async () => {
    const s = await subscriber();
    const t0 = nowSeconds() - 100;
    await deliver(checkoutCompleted(s, t0));
    await deliver(subscriptionEvent(s, "customer.subscription.deleted", "canceled", t0 + 1));
    expect((await billingOf(s.t))?.status).toBe("canceled");
    expect(await planOf(s.t)).toBe("free");
    await deliver(invoiceEvent(s, "invoice.payment_succeeded", t0 + 2));
    expect((await billingOf(s.t))?.status).toBe("canceled");
    expect(await planOf(s.t)).toBe("free");
  });
});
