/**
 * A suspended institution is suspended everywhere (CONTRACT "Billing"): its inbound webhook URLs answer 402
 * `subscription_inactive` and store nothing, and its outbound deliveries wait, attempts and retries untouched,
 * until it pays; then they go. The status moves through the real paths: Stripe events through the webhook
 * route, the grace-expiry cron route.
 */
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  billingSubscriptions,
  inboundReceipts,
  platformEvents,
  webhookDeliveries,
} from "../../db/schema/index.js";
import { createOutboundClient, type OutboundClient } from "../../platform/outbound/client.js";
import { useBillingApi } from "../../test-support/billing-api.js";
import { fakeSubscription } from "../../test-support/fake-stripe-objects.js";
import { adminCookie, bearer, json, makeTenant, type TestTenant } from "../../test-support/harness.js";
import { type Receiver, startReceiver } from "../../test-support/receiver.js";
import { nowSeconds, PRICES, signed, stripeEvent } from "../../test-support/stripe-events.js";
import { drainOnce } from "../outbox/drain.js";

const CRON_SECRET = "cron-secret-for-tests-0123456789";
const DAY = 86_400;

const { h } = useBillingApi({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" });
let client: OutboundClient;
let receiver: Receiver;

beforeAll(async () => {
  client = createOutboundClient(h.config.outbound, { resolve: h.ctx.resolve });
  receiver = await startReceiver({ respond: () => ({ status: 200, body: "ok" }) });
});
afterAll(async () => {
  await client.destroy();
  await receiver.close();
});

const hex = () => randomBytes(6).toString("hex");

async function stripe(type: string, object: Record<string, unknown>, created: number) {
  const res = await h.inject({
    method: "POST",
    url: "/api/webhooks/stripe",
    ...signed(stripeEvent(type, object, { created })),
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ outcome: "applied" });
}

interface Billed {
  t: TestTenant;
  customer: string;
  subscription: string;
}

/** A tenant whose `growth` subscription Stripe reported active 30 days ago. */
async function billedTenant(): Promise<Billed> {
  const t = await makeTenant(h);
  const customer = `cus_test_${hex()}`;
  const subscription = `sub_test_${hex()}`;
  await h.database.db.insert(billingSubscriptions).values({ tenantId: t.id, stripeCustomerId: customer });
  const object = fakeSubscription({
    id: subscription,
    customer,
    tenantId: t.id,
    priceId: PRICES.STRIPE_PRICE_GROWTH_BRL,
  });
  await stripe("customer.subscription.created", object, nowSeconds() - 30 * DAY);
  return { t, customer, subscription };
}

const invoice = (b: Billed) => ({
  id: `in_test_${hex()}`,
  object: "invoice",
  customer: b.customer,
  currency: "brl",
  amount_due: 4990,
  billing_reason: "subscription_cycle",
  status: "open",
  parent: { type: "subscription_details", subscription_details: { subscription: b.subscription } },
});

/** A payment failed 8 days ago, and the grace-expiry cron ran: suspended. */
async function suspend(b: Billed) {
  await stripe("invoice.payment_failed", invoice(b), nowSeconds() - 8 * DAY);
  const cron = await h.inject({
    method: "POST",
    url: "/api/cron/billing-grace-expire",
    headers: { host: "localhost", ...bearer(CRON_SECRET) },
  });
  expect(cron.statusCode, cron.body).toBe(200);
  expect(await statusOf(b)).toBe("suspended");
}

async function statusOf(b: Billed) {
  const rows = await h.database.db
    .select({ status: billingSubscriptions.status })
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.tenantId, b.t.id));
  return rows[0]?.status;
}

async function countOf(table: typeof platformEvents | typeof inboundReceipts, t: TestTenant) {
  const rows = await h.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(eq(table.tenantId, t.id));
  return rows[0]?.n ?? 0;
}

async function deliveriesOf(t: TestTenant) {
  return h.database.db
    .select({
      id: webhookDeliveries.id,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.tenantId, t.id))
    .orderBy(webhookDeliveries.createdAt);
}

/** An automation of the tenant fired by its inbound URL, posting to the local receiver under `route`. */
async function inboundAutomation(t: TestTenant, route: string) {
  const res = await h.inject({
    method: "POST",
    url: "/api/institution/automations",
    headers: { host: t.host, cookie: await adminCookie(h, t), ...json },
    payload: {
      name: "From the ERP",
      trigger: { event: "webhook" },
      action: { type: "send_webhook", url: receiver.url(`/${route}`) },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return new URL(res.json().inboundUrl).pathname;
}

const inbound = (path: string, payload: object, key?: string) =>
  h.inject({
    method: "POST",
    url: path,
    headers: {
      ...json,
      "accept-language": "en-US",
      ...(key === undefined ? {} : { "idempotency-key": key }),
    },
    payload,
  });

const fromRoute = (route: string) => receiver.received.filter((r) => r.url === `/${route}`);

describe("a suspended institution's webhooks", () => {
  it("inbound URLs answer 402 and store nothing; deliveries wait through the suspension and go when it pays", async () => {
    const b = await billedTenant();
    const route = hex();
    const path = await inboundAutomation(b.t, route);
    const drain = (now?: Date) =>
      drainOnce(h.ctx, client, { tenantIds: [b.t.id], ...(now === undefined ? {} : { now: () => now }) });

    // Active: accepted and delivered.
    expect((await inbound(path, { n: 1 })).statusCode).toBe(202);
    expect((await drain()).claimed).toBe(1);
    expect(fromRoute(route)).toHaveLength(1);

    // Accepted while active, not yet sent when the suspension comes.
    expect((await inbound(path, { n: 2 })).statusCode).toBe(202);
    await suspend(b);
    const events = await countOf(platformEvents, b.t);

    const refused = await inbound(path, { n: 3 }, "order-3");
    expect(refused.statusCode, refused.body).toBe(402);
    expect(refused.json()).toEqual({
      error: "subscription_inactive",
      message: "This institution's subscription is inactive. Update billing to restore access.",
    });
    expect(await countOf(platformEvents, b.t)).toBe(events);
    expect(await countOf(inboundReceipts, b.t)).toBe(0);

    // The waiting delivery is not claimed, now or days later: no attempt, no retry spent.
    expect((await drain()).claimed).toBe(0);
    expect((await drain(new Date(Date.now() + 3 * DAY * 1000))).claimed).toBe(0);
    const waiting = await deliveriesOf(b.t);
    expect(waiting.map((d) => [d.status, d.attempts])).toEqual([
      ["succeeded", 1],
      ["pending", 0],
    ]);
    expect(fromRoute(route)).toHaveLength(1);

    // It pays: the waiting delivery goes at the next claim, and the inbound URL works again (the refused
    // request left no receipt, so its key is new).
    await stripe("invoice.payment_succeeded", invoice(b), nowSeconds());
    expect(await statusOf(b)).toBe("active");
    expect((await drain()).claimed).toBe(1);
    expect(fromRoute(route).map((r) => JSON.parse(r.body).data.n)).toEqual([1, 2]);
    const again = await inbound(path, { n: 3 }, "order-3");
    expect(again.statusCode, again.body).toBe(202);
    expect((await drain()).claimed).toBe(1);
    expect(fromRoute(route).map((r) => JSON.parse(r.body).data.n)).toEqual([1, 2, 3]);
    expect((await deliveriesOf(b.t)).map((d) => [d.status, d.attempts])).toEqual([
      ["succeeded", 1],
      ["succeeded", 1],
      ["succeeded", 1],
    ]);
  });

  it("another tenant's deliveries are not held back by one's suspension", async () => {
    const [suspended, active] = [await billedTenant(), await billedTenant()];
    const [r1, r2] = [hex(), hex()];
    const [p1, p2] = [await inboundAutomation(suspended.t, r1), await inboundAutomation(active.t, r2)];
    expect((await inbound(p1, { n: 1 })).statusCode).toBe(202);
    expect((await inbound(p2, { n: 1 })).statusCode).toBe(202);
    await suspend(suspended);
    const summary = await drainOnce(h.ctx, client, { tenantIds: [suspended.t.id, active.t.id] });
    expect(summary.claimed).toBe(1);
    expect(fromRoute(r1)).toHaveLength(0);
    expect(fromRoute(r2)).toHaveLength(1);
    const held = await h.database.db
      .select({ status: webhookDeliveries.status, attempts: webhookDeliveries.attempts })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.tenantId, suspended.t.id)));
    expect(held).toEqual([{ status: "pending", attempts: 0 }]);
  });
});
