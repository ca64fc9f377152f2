import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable } from "../../test-support/browser.js";
import { type ConsoleInBrowser, consoleInBrowser } from "../../test-support/console-browser.js";
import { type FakeStripe, startFakeStripe } from "../../test-support/fake-stripe.js";
import { bearer, json, makeKey, makeUser, TEST_PASSWORD } from "../../test-support/harness.js";
import { billingEnv, PRICES } from "../../test-support/stripe-events.js";

const CHECKOUT_URL = /^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_[A-Za-z0-9]+$/;
const PORTAL_URL = /^https:\/\/billing\.stripe\.test\/p\/session\/bps_[A-Za-z0-9]+$/;

/**
 * Stripe's hosted pages are on hosts the test machine cannot reach: the browser's navigation to them is answered
 * by a stand-in page, so the test sees where the console sent the browser.
 */
async function standInFor(page: Page, host: string, title: string): Promise<void> {
  await page.route(`https://${host}/**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html",
      body: `<!doctype html><html lang="en"><title>${title}</title><h1>${title}</h1></html>`,
    }),
  );
}

/**
 * The console's billing page in Chromium against the billing tests' fake Stripe: the plan and the seats used
 * (a teacher enrolled as a student takes one), the portal refused before any checkout (the API's words), a
 * checkout for a chosen plan that takes the browser to the Checkout Session's URL, then the portal's. The
 * dashboard shows the same seats. A teacher is offered no button.
 */
describe.runIf(browserAvailable())("the console's billing page, in Chromium", () => {
  let fake: FakeStripe;
  let c: ConsoleInBrowser;

  beforeAll(async () => {
    fake = await startFakeStripe();
    c = await consoleInBrowser(billingEnv(fake.url), "Escola Épsilon");
    // Two seats: a student, and a teacher enrolled in a course as a student.
    await makeUser(c.h, c.a, "student");
    const teacher = await makeUser(c.h, c.a, "teacher");
    const key = await makeKey(c.h, c.a, ["courses:write", "enrollments:write"]);
    const headers = { host: c.a.host, ...json, ...bearer(key) };
    const course = await c.h.inject({
      method: "POST",
      url: "/api/institution/courses",
      headers,
      payload: { title: "Cálculo" },
    });
    expect(course.statusCode, course.body).toBe(201);
    const enrolled = await c.h.inject({
      method: "POST",
      url: "/api/institution/enrollments",
      headers,
      payload: { userId: teacher.id, courseId: course.json().id, role: "student" },
    });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await c?.close();
    await fake?.close();
    expect(c?.problems ?? []).toEqual([]);
  });

  it("shows the plan and seats, refuses the portal before a checkout, and sends the browser to Stripe's checkout and portal", async () => {
    const context = await c.newContext();
    const page = await c.signedIn(context, c.a.adminEmail, "Billing");
    expect(new URL(page.url()).pathname).toBe("/admin/billing");
    const main = page.locator("main");
    await page.getByText("2 of 10", { exact: true }).waitFor();
    expect(await main.innerText()).toContain("free");
    expect(await main.innerText()).toContain("No subscription yet");
    await c.accessible(page, "billing");
    await c.shot(page, "billing");

    // No Stripe customer yet: the API's 409, in its words, and the browser stays.
    const refused = await c.h.inject({
      method: "POST",
      url: "/api/institution/billing/portal",
      headers: { host: c.a.host, "accept-language": "en-US", cookie: await adminCookieOf(page) },
    });
    expect(refused.statusCode).toBe(409);
    await page.getByRole("button", { name: "Open the billing portal" }).click();
    await expect.poll(() => page.getByRole("alert").innerText()).toContain(refused.json().message);
    expect(new URL(page.url()).pathname).toBe("/admin/billing");
    await c.accessible(page, "billing refused");
    await c.shot(page, "billing-portal-refused");

    // Checkout of the chosen plan: the fake Stripe is asked for a session at that plan's price, and the browser
    // goes to the URL it answered.
    await standInFor(page, "checkout.stripe.test", "Stripe Checkout (stand-in)");
    await page.getByLabel("Plan", { exact: true }).selectOption("mini");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL(CHECKOUT_URL);
    await c.heading(page, "Stripe Checkout (stand-in)");
    const sessions = fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions");
    expect(sessions).toHaveLength(1);
    expect(JSON.stringify(sessions[0]?.body)).toContain(PRICES.STRIPE_PRICE_MINI_BRL);
    expect(sessions[0]?.body.client_reference_id).toBe(c.a.id);
    await c.shot(page, "billing-checkout");

    // Back in the console, the portal (the customer exists now) takes the browser to Stripe's portal.
    await page.goBack();
    await c.heading(page, "Billing");
    await standInFor(page, "billing.stripe.test", "Stripe portal (stand-in)");
    await page.getByRole("button", { name: "Open the billing portal" }).click();
    await page.waitForURL(PORTAL_URL);
    await c.heading(page, "Stripe portal (stand-in)");
    expect(fake.count("POST", "/v1/billing_portal/sessions")).toBe(1);

    // The dashboard counts the same seats against the same limit.
    await page.goBack();
    await c.heading(page, "Billing");
    await page.getByRole("link", { name: "Dashboard" }).click();
    await c.heading(page, "Dashboard");
    const students = page.getByRole("region", { name: "Students" });
    await expect.poll(() => students.innerText()).toMatch(/Seats used\s+2\s/);
    expect(await students.innerText()).toMatch(/Student limit of the plan\s+10/);
    expect(await students.locator("meter").getAttribute("value")).toBe("2");
    await c.accessible(page, "dashboard seats");
    await c.shot(page, "dashboard-seats");
    await context.close();
  }, 120_000);

  it("shows a teacher the plan and seats without a checkout or portal button", async () => {
    const teacher = await makeUser(c.h, c.a, "teacher", TEST_PASSWORD);
    const context = await c.newContext();
    const page = await c.signedIn(context, teacher.email, "Billing");
    await page.getByText("Only an administrator can subscribe or manage the subscription.").waitFor();
    await page.getByText("2 of 10", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Continue to payment" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Open the billing portal" }).count()).toBe(0);
    await c.accessible(page, "teacher billing");
    await c.shot(page, "teacher-billing");
    await context.close();
  }, 120_000);
});

/** The session's Cookie header as the browser holds it, to ask the API what it answers the same session. */
async function adminCookieOf(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}
