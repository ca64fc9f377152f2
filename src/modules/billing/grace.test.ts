import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { billingSubscriptions, tenants } from "../../db/schema/index.js";
import { useBillingApi } from "../../test-support/billing-api.js";
import { fakeSubscription } from "../../test-support/fake-stripe-objects.js";
import {
  adminCookie,
  bearer,
  type Harness,
  json,
  makeKey,
  makeTenant,
  startHarness,
  type TestTenant,
} from "../../test-support/harness.js";
import { billingEnv, nowSeconds, PRICES, signed, stripeEvent } from "../../test-support/stripe-events.js";
import { JOBS, startWorker } from "../../worker/runner.js";

const CRON_SECRET = "cron-secret-for-tests-0123456789";
const CRON_URL = "/api/cron/billing-grace-expire";
const DAY = 86_400;
/** On PGlite every harness has its own database; on a shared PostgreSQL other files' tenants are there too. */
const ISOLATED_DB = process.env.DATABASE_URL === undefined;

const { h, fake } = useBillingApi();

const hex = () => randomBytes(6).toString("hex");
const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

interface Billed {
  tenant: TestTenant;
  customer: string;
  subscription: string;
  /** A key holding every scope, for reading the status route without logging in. */
  key: string;
}

async function deliver(type: string, object: Record<string, unknown>, created: number): Promise<string> {
  const res = await h.inject({
    method: "POST",
    url: "/api/webhooks/stripe",
    ...signed(stripeEvent(type, object, { created })),
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ received: true; outcome: string }>();
  return body.outcome;
}

/**
 * A tenant with a Stripe customer whose `growth` subscription Stripe reported active 30 days ago, through the
 * webhook (so its billing row is the webhook's, with `lastEventAt` set).
 */
async function billedTenant(): Promise<Billed> {
  const tenant = await makeTenant(h);
  const customer = `cus_test_${hex()}`;
  const subscription = `sub_test_${hex()}`;
  await h.database.db
    .insert(billingSubscriptions)
    .values({ tenantId: tenant.id, stripeCustomerId: customer });
  const object = fakeSubscription({
    id: subscription,
    customer,
    tenantId: tenant.id,
    priceId: PRICES.STRIPE_PRICE_GROWTH_BRL,
  });
  expect(await deliver("customer.subscription.created", object, nowSeconds() - 30 * DAY)).toBe("applied");
  const key = await makeKey(h, tenant, []);
  return { tenant, customer, subscription, key };
}

/** An invoice event object; `legacy` puts the subscription where API versions before 2025-03 do. */
function invoice(b: Billed, shape: "current" | "legacy" = "current"): Record<string, unknown> {
  const link =
    shape === "legacy"
      ? { subscription: b.subscription }
      : { parent: { type: "subscription_details", subscription_details: { subscription: b.subscription } } };
  return {
    id: `in_test_${hex()}`,
    object: "invoice",
    customer: b.customer,
    currency: "brl",
    amount_due: 4990,
    billing_reason: "subscription_cycle",
    status: "open",
    ...link,
  };
}

async function paymentFailed(b: Billed, created: number, shape: "current" | "legacy" = "current") {
  expect(await deliver("invoice.payment_failed", invoice(b, shape), created)).toBe("applied");
}

async function billingRow(tenantId: string) {
  const rows = await h.database.db
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.tenantId, tenantId));
  const row = rows[0];
  if (row === undefined) throw new Error("no billing row");
  return row;
}

async function tenantPlan(tenantId: string): Promise<string | undefined> {
  const rows = await h.database.db
    .select({ plan: tenants.plan })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return rows[0]?.plan;
}

interface StatusBody {
  plan: string;
  status: string | null;
  subscribedPlan: string | null;
  graceDeadline: string | null;
}

async function statusOf(b: Billed): Promise<StatusBody> {
  const res = await h.inject({
    method: "GET",
    url: "/api/institution/billing/subscription",
    headers: { host: b.tenant.host, ...bearer(b.key) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<StatusBody>();
}

async function runCron(method: "GET" | "POST" = "POST", host = "localhost"): Promise<number> {
  const res = await h.inject({ method, url: CRON_URL, headers: { host, ...bearer(CRON_SECRET) } });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ expired: number }>();
  expect(body).toEqual({ expired: expect.any(Number) });
  return body.expired;
}

const courses = (b: Billed, headers: Record<string, string>) =>
  h.inject({ method: "GET", url: "/api/institution/courses", headers: { host: b.tenant.host, ...headers } });

describe("cron route /api/cron/billing-grace-expire: who may call it", () => {
  const expectUnauthorized = (res: Awaited<ReturnType<Harness["inject"]>>) => {
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json()).toMatchObject({ error: "unauthorized" });
    expect(res.headers["www-authenticate"]).toBe("Bearer");
  };

  it("refuses a request without Authorization with 401 unauthorized and WWW-Authenticate: Bearer", async () => {
    for (const method of ["GET", "POST"] as const) {
      expectUnauthorized(await h.inject({ method, url: CRON_URL, headers: { host: "localhost" } }));
    }
  });

  it("refuses a wrong secret, a secret with extra text and the Basic scheme", async () => {
    for (const authorization of [
      "Bearer wrong-secret",
      `Bearer ${CRON_SECRET}x`,
      `Bearer ${CRON_SECRET.slice(0, -1)}`,
      `Bearer ${CRON_SECRET} extra`,
      `Basic ${Buffer.from(`cron:${CRON_SECRET}`).toString("base64")}`,
      `Basic ${CRON_SECRET}`,
      CRON_SECRET,
      "Bearer ",
    ]) {
      expectUnauthorized(
        await h.inject({ method: "POST", url: CRON_URL, headers: { host: "localhost", authorization } }),
      );
    }
  });

  it("refuses a valid tenant API key and an admin session on the tenant's host", async () => {
    const tenant = await makeTenant(h);
    const key = await makeKey(h, tenant, []);
    // The key works where keys belong, so the 401 below is about the cron route only.
    const keyed = await h.inject({
      method: "GET",
      url: "/api/institution/billing/subscription",
      headers: { host: tenant.host, ...bearer(key) },
    });
    expect(keyed.statusCode).toBe(200);
    expectUnauthorized(
      await h.inject({ method: "POST", url: CRON_URL, headers: { host: tenant.host, ...bearer(key) } }),
    );
    expectUnauthorized(
      await h.inject({ method: "GET", url: CRON_URL, headers: { host: tenant.host, ...bearer(key) } }),
    );

    const cookie = await adminCookie(h, tenant);
    for (const method of ["GET", "POST"] as const) {
      expectUnauthorized(
        await h.inject({ method, url: CRON_URL, headers: { host: tenant.host, cookie, ...json } }),
      );
    }
  });

  it("answers 200 {expired: n} to the secret, by GET and by POST, on any host", async () => {
    const tenant = await makeTenant(h);
    for (const method of ["GET", "POST"] as const) {
      for (const host of ["localhost", tenant.host, "unknown-host.example"]) {
        const res = await h.inject({ method, url: CRON_URL, headers: { host, ...bearer(CRON_SECRET) } });
        expect(res.statusCode, `${method} ${host}: ${res.body}`).toBe(200);
        expect(res.json()).toEqual({ expired: expect.any(Number) });
        expect(res.json<{ expired: number }>().expired).toBeGreaterThanOrEqual(0);
        expect(res.headers["cache-control"]).toBe("no-store");
      }
    }
  });

  it("refuses everyone, even an empty bearer, when CRON_SECRET is not configured", async () => {
    const bare = await startHarness(billingEnv(fake.url, { CRON_SECRET: "" }));
    try {
      expect(bare.config.cronSecret).toBeUndefined();
      for (const authorization of [
        undefined,
        "Bearer ",
        "Bearer",
        `Bearer ${CRON_SECRET}`,
        "Bearer undefined",
      ]) {
        const headers: Record<string, string> = { host: "localhost" };
        if (authorization !== undefined) headers.authorization = authorization;
        for (const method of ["GET", "POST"] as const) {
          const res = await bare.inject({ method, url: CRON_URL, headers });
          expect(res.statusCode, `${method} ${String(authorization)}`).toBe(401);
          expect(res.json()).toMatchObject({ error: "unauthorized" });
        }
      }
    } finally {
      await bare.close();
    }
  });
});

describe("grace period expiry", () => {
  it("suspends a past_due subscription whose grace elapsed, not one whose grace runs, and only once", async () => {
    const elapsed = await billedTenant();
    const running = await billedTenant();
    const failedAt = nowSeconds() - 8 * DAY;
    const failedNow = nowSeconds();
    await paymentFailed(elapsed, failedAt);
    await paymentFailed(running, failedNow, "legacy");

    // Grace deadline = the event's `created` + 7 days, exactly.
    const elapsedBefore = await statusOf(elapsed);
    expect(elapsedBefore).toMatchObject({
      status: "past_due",
      plan: "growth",
      graceDeadline: isoOf(failedAt + 7 * DAY),
    });
    expect((await billingRow(elapsed.tenant.id)).graceDeadline).toBe(isoOf(failedAt + 7 * DAY));
    expect(await statusOf(running)).toMatchObject({
      status: "past_due",
      graceDeadline: isoOf(failedNow + 7 * DAY),
    });
    // past_due is still open (and this puts the tenant in the resolver's cache).
    expect((await courses(elapsed, bearer(elapsed.key))).statusCode).toBe(200);

    expect(await runCron("POST")).toBeGreaterThanOrEqual(1);

    const after = await statusOf(elapsed);
    expect(after).toMatchObject({ status: "suspended", plan: "growth", subscribedPlan: "growth" });
    // The deadline stays what it was: it says when access was suspended.
    expect(after.graceDeadline).toBe(isoOf(failedAt + 7 * DAY));
    const row = await billingRow(elapsed.tenant.id);
    expect(row.status).toBe("suspended");
    expect(await tenantPlan(elapsed.tenant.id)).toBe("growth");
    // The gate closes at once: the cron cleared the resolver cache.
    expect((await courses(elapsed, bearer(elapsed.key))).statusCode).toBe(402);

    expect(await statusOf(running)).toMatchObject({
      status: "past_due",
      graceDeadline: isoOf(failedNow + 7 * DAY),
    });
    expect((await billingRow(running.tenant.id)).status).toBe("past_due");

    // Again: the suspended one is not counted (nor touched) a second time.
    const again = await runCron("GET");
    if (ISOLATED_DB) expect(again).toBe(0);
    const rowAgain = await billingRow(elapsed.tenant.id);
    expect(rowAgain.status).toBe("suspended");
    expect(rowAgain.updatedAt).toBe(row.updatedAt);
    expect((await billingRow(running.tenant.id)).status).toBe("past_due");
  });

  it("draws the line at exactly 7 days: two minutes past is suspended, ten minutes short is not", async () => {
    const justPast = await billedTenant();
    const almost = await billedTenant();
    const justPastAt = nowSeconds() - 7 * DAY - 120;
    const almostAt = nowSeconds() - 7 * DAY + 600;
    await paymentFailed(justPast, justPastAt);
    await paymentFailed(almost, almostAt);
    expect(await runCron()).toBeGreaterThanOrEqual(1);
    expect(await statusOf(justPast)).toMatchObject({
      status: "suspended",
      graceDeadline: isoOf(justPastAt + 7 * DAY),
    });
    expect(await statusOf(almost)).toMatchObject({
      status: "past_due",
      graceDeadline: isoOf(almostAt + 7 * DAY),
    });
  });

  it("keeps the deadline of the first failure when a retry fails during the grace period", async () => {
    const b = await billedTenant();
    const first = nowSeconds() - 3 * DAY;
    await paymentFailed(b, first);
    expect((await statusOf(b)).graceDeadline).toBe(isoOf(first + 7 * DAY));
    await paymentFailed(b, nowSeconds() - DAY, "legacy");
    await paymentFailed(b, nowSeconds());
    expect(await statusOf(b)).toMatchObject({ status: "past_due", graceDeadline: isoOf(first + 7 * DAY) });
    expect((await billingRow(b.tenant.id)).graceDeadline).toBe(isoOf(first + 7 * DAY));
  });

  it("cancels on customer.subscription.deleted and puts the tenant back on the free plan", async () => {
    const b = await billedTenant();
    expect(await tenantPlan(b.tenant.id)).toBe("growth");
    expect((await statusOf(b)).plan).toBe("growth");
    const object = fakeSubscription({
      id: b.subscription,
      customer: b.customer,
      tenantId: b.tenant.id,
      priceId: PRICES.STRIPE_PRICE_GROWTH_BRL,
      status: "canceled",
    });
    expect(await deliver("customer.subscription.deleted", object, nowSeconds())).toBe("applied");
    expect(await statusOf(b)).toMatchObject({ status: "canceled", plan: "free", graceDeadline: null });
    expect(await tenantPlan(b.tenant.id)).toBe("free");
    expect((await billingRow(b.tenant.id)).status).toBe("canceled");
  });
});

describe("the access gate of a suspended tenant", () => {
  it("answers 402 on the institution API but keeps billing, api-keys GET and login open; a payment reopens it at once", async () => {
    const b = await billedTenant();
    const cookie = await adminCookie(h, b.tenant);
    const session = { cookie };
    const failedAt = nowSeconds() - 8 * DAY;
    await paymentFailed(b, failedAt);
    expect((await courses(b, session)).statusCode).toBe(200);
    expect(await runCron()).toBeGreaterThanOrEqual(1);
    expect((await statusOf(b)).status).toBe("suspended");

    // Closed: the institution API, with a session or a key, read or write.
    const closed = await courses(b, session);
    expect(closed.statusCode, closed.body).toBe(402);
    expect(closed.json()).toMatchObject({ error: "subscription_inactive" });
    expect((await courses(b, bearer(b.key))).json()).toMatchObject({ error: "subscription_inactive" });
    const write = await h.inject({
      method: "POST",
      url: "/api/institution/courses",
      headers: { host: b.tenant.host, ...json, ...bearer(b.key) },
      payload: { title: "Não deveria existir" },
    });
    expect(write.statusCode, write.body).toBe(402);

    // Open: billing routes, api-keys GET, auth.
    const status = await h.inject({
      method: "GET",
      url: "/api/institution/billing/subscription",
      headers: { host: b.tenant.host, cookie },
    });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json()).toMatchObject({ status: "suspended", graceDeadline: isoOf(failedAt + 7 * DAY) });
    const events = await h.inject({
      method: "GET",
      url: "/api/institution/billing/events",
      headers: { host: b.tenant.host, cookie },
    });
    expect(events.statusCode, events.body).toBe(200);
    for (const headers of [{ cookie }, bearer(b.key)]) {
      const keys = await h.inject({
        method: "GET",
        url: "/api/institution/api-keys",
        headers: { host: b.tenant.host, ...headers },
      });
      expect(keys.statusCode, keys.body).toBe(200);
    }
    const login = await h.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { host: b.tenant.host, ...json },
      payload: { email: b.tenant.adminEmail, password: b.tenant.password },
    });
    expect(login.statusCode, login.body).toBe(200);
    const refreshed = await h.inject({
      method: "POST",
      url: "/api/auth/refresh",
      headers: { host: b.tenant.host, cookie: login.cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);

    // The 402 is now in the resolver's cache; a later successful payment must not wait for it to expire.
    expect((await courses(b, session)).statusCode).toBe(402);
    expect(await deliver("invoice.payment_succeeded", invoice(b), nowSeconds())).toBe("applied");
    expect(await statusOf(b)).toMatchObject({ status: "active", graceDeadline: null, plan: "growth" });
    const row = await billingRow(b.tenant.id);
    expect(row.status).toBe("active");
    expect(row.graceDeadline).toBeNull();
    const reopened = await courses(b, session);
    expect(reopened.statusCode, reopened.body).toBe(200);
  });

  it("closes for suspended, unpaid and paused, and for no other status", async () => {
    const statuses = [
      "suspended",
      "unpaid",
      "paused",
      "active",
      "trialing",
      "past_due",
      "canceled",
      "incomplete",
    ];
    for (const status of statuses) {
      const tenant = await makeTenant(h);
      await h.database.db
        .insert(billingSubscriptions)
        .values({ tenantId: tenant.id, stripeCustomerId: `cus_test_${hex()}`, status, plan: "growth" });
      const key = await makeKey(h, tenant, []);
      const res = await h.inject({
        method: "GET",
        url: "/api/institution/courses",
        headers: { host: tenant.host, ...bearer(key) },
      });
      const inactive = ["suspended", "unpaid", "paused"].includes(status);
      expect(res.statusCode, `${status}: ${res.body}`).toBe(inactive ? 402 : 200);
      if (inactive) expect(res.json()).toMatchObject({ error: "subscription_inactive" });
      const billing = await h.inject({
        method: "GET",
        url: "/api/institution/billing/subscription",
        headers: { host: tenant.host, ...bearer(key) },
      });
      expect(billing.statusCode, `${status}: ${billing.body}`).toBe(200);
      expect(billing.json()).toMatchObject({ status });
    }
  });
});

describe("worker", () => {
  it("schedules billing-grace-expire hourly", () => {
    const job = JOBS.find((j) => j.name === "billing-grace-expire");
    expect(job).toBeDefined();
    expect(job?.everyMs).toBe(3_600_000);
  });

  it("runs the grace expiry once at start, and stop() resolves", async () => {
    const b = await billedTenant();
    await paymentFailed(b, nowSeconds() - 8 * DAY);
    expect((await billingRow(b.tenant.id)).status).toBe("past_due");

    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    // Only this job, and no delivery loop: the others would act on other test files' tenants meanwhile.
    const worker = startWorker(
      h.ctx,
      logger,
      JOBS.filter((j) => j.name === "billing-grace-expire"),
      { deliveries: false },
    );
    try {
      const deadline = Date.now() + 2000;
      let status = (await billingRow(b.tenant.id)).status;
      while (status !== "suspended" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        status = (await billingRow(b.tenant.id)).status;
      }
      expect(status).toBe("suspended");
    } finally {
      await expect(worker.stop()).resolves.toBeUndefined();
    }
    expect((await statusOf(b)).status).toBe("suspended");
    const logged = lines.map((line) => JSON.parse(line) as { msg?: string; job?: string; result?: unknown });
    expect(
      logged.find((l) => l.msg === "scheduled job ran" && l.job === "billing-grace-expire"),
    ).toMatchObject({
      result: { expired: expect.any(Number) },
    });
    expect(logged.some((l) => l.msg === "scheduled job failed")).toBe(false);
  });
});
