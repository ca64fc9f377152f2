import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundClient } from "../../platform/outbound/client.js";
import { browserAvailable } from "../../test-support/browser.js";
import { type ConsoleInBrowser, consoleInBrowser, REFUSED } from "../../test-support/console-browser.js";
import { makeUser, TEST_PASSWORD } from "../../test-support/harness.js";
import { type Receiver, startReceiver } from "../../test-support/receiver.js";
import { drainOnce } from "../outbox/drain.js";
import { listEndpoints, updateEndpoint } from "../webhooks/service.js";

/**
 * The console's webhooks page in Chromium: an endpoint made to a receiver on this machine (its address allowed
 * by OUTBOUND_ALLOW_CIDRS, as in the webhook tests), a test event sent to it, its delivery log with each attempt's
 * response and the request sent, a redelivery that reaches the receiver again, and the success rate.
 */
describe.runIf(browserAvailable())("the console's webhooks page, in Chromium", () => {
  let c: ConsoleInBrowser;
  let receiver: Receiver;

  beforeAll(async () => {
    c = await consoleInBrowser({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" }, "Escola Delta");
    receiver = await startReceiver({ respond: () => ({ status: 200, body: '{"thanks":true}' }) });
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await c?.close();
    expect(c?.problems ?? []).toEqual([]);
  });

  /** Sends every due delivery of the tenant, as the worker does. */
  async function deliverAll(): Promise<void> {
    const client = createOutboundClient(c.h.config.outbound);
    for (let round = 0; round < 20; round++) {
      if ((await drainOnce(c.h.ctx, client, { tenantIds: [c.a.id], batchSize: 100 })).claimed === 0) return;
    }
    throw new Error("deliveries kept coming");
  }

  it("adds an endpoint, sends it a test event, shows the delivery, its attempt and success rate, and redelivers", async () => {
    const context = await c.newContext();
    const page = await c.signedIn(context, c.a.adminEmail, "Webhooks");
    expect(new URL(page.url()).pathname).toBe("/admin/webhooks");
    await page.getByText("No endpoint yet.").waitFor();

    // A loopback URL outside the allowed range: the API's refusal, naming the setting.
    await page.getByLabel("URL").fill("http://127.0.0.1:9/hook");
    await page.getByRole("checkbox", { name: "user_created" }).check();
    await page.getByRole("button", { name: "Add the endpoint" }).click();
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("OUTBOUND_ALLOW_CIDRS");

    const url = receiver.url("/hook");
    await page.getByLabel("URL").fill(url);
    await page.getByRole("button", { name: "Add the endpoint" }).click();
    expect(await page.getByRole("textbox", { name: "Signing secret" }).inputValue()).toMatch(/^whsec_/);
    await page.getByRole("row", { name: new RegExp(url) }).waitFor();
    await c.accessible(page, "webhooks");
    await c.shot(page, "webhooks");

    // A test event, sent at once through the delivery engine: the receiver has it, and so has the log.
    await page.getByRole("button", { name: `Deliveries ${url}` }).click();
    await page.getByText("No delivery yet.").waitFor();
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.getByText("The receiver answered HTTP 200 in").waitFor();
    await page.getByText("The test event is in the delivery log below.").waitFor();
    expect(receiver.received).toHaveLength(1);
    const sent = JSON.parse(receiver.received[0]?.body ?? "") as { type: string; id: string };
    expect(sent.type).toBe("user_created");
    const delivery = page.getByRole("row", { name: /^user_created/ });
    await delivery.waitFor();
    expect(await delivery.innerText()).toContain("Succeeded");
    // The stats are read apart from the log, and may come after it.
    await expect.poll(() => page.locator(".stats").innerText()).toContain("100%");

    // Its attempt: the receiver's answer, and the request it was sent.
    await delivery.getByRole("button", { name: /^Attempts/ }).click();
    const attempts = page.getByRole("region", { name: /Attempts of delivery/ });
    await attempts.getByText('{"thanks":true}').waitFor();
    expect(await attempts.innerText()).toContain("200");
    expect(await attempts.getByText(url).count()).toBe(1);
    const shown = await attempts.locator("pre.request-body").innerText();
    expect(JSON.parse(shown)).toEqual(JSON.parse(receiver.received[0]?.body ?? ""));
    await c.accessible(page, "webhook deliveries");
    await c.shot(page, "webhook-deliveries");

    // Redelivered: the same body reaches the receiver again, and the log shows two deliveries.
    await delivery.getByRole("button", { name: /^Redeliver/ }).click();
    await page.getByText("A new delivery of user_created was queued.").waitFor();
    await deliverAll();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.body).toBe(receiver.received[0]?.body);
    expect(receiver.received[1]?.headers["webhook-id"]).not.toBe(receiver.received[0]?.headers["webhook-id"]);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => page.getByRole("row", { name: /^user_created.*Succeeded/ }).count()).toBe(2);

    // A real event, delivered by the worker's own code, joins them.
    const user = await makeUser(c.h, c.a, "student");
    await deliverAll();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]?.body).toContain(user.id);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => page.getByRole("row", { name: /^user_created.*Succeeded/ }).count()).toBe(3);

    // Disabled (by another administrator, through the API): the test send shows the API's refusal, in French too.
    const deps = { db: c.h.database.db, config: c.h.config, resolve: c.h.ctx.resolve };
    const [endpoint] = (await listEndpoints(deps, c.a.id, {})).data;
    await updateEndpoint(deps, c.a.id, endpoint?.id ?? "", { enabled: false });
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect
      .poll(() => page.getByRole("alert").first().innerText())
      .toContain("This webhook endpoint is disabled");
    await page.getByLabel("Language").selectOption("fr-FR");
    await page.getByRole("button", { name: "Envoyer un événement de test" }).click();
    await expect
      .poll(() => page.getByRole("alert").first().innerText())
      .toContain("Cet endpoint de webhook est désactivé");
    expect(receiver.received).toHaveLength(3);
    await c.accessible(page, "webhook test refused");
    await c.shot(page, "webhook-test-refused");
    await context.close();
  }, 120_000);

  it("shows a teacher the API's refusal and no form", async () => {
    const teacher = await makeUser(c.h, c.a, "teacher", TEST_PASSWORD);
    const context = await c.newContext();
    const page = await c.signedIn(context, teacher.email, "Webhooks");
    await expect.poll(() => page.getByRole("alert").first().innerText()).toMatch(REFUSED);
    expect(await page.getByRole("button", { name: "Add the endpoint" }).count()).toBe(0);
    await c.accessible(page, "teacher webhooks");
    await c.shot(page, "teacher-webhooks");
    await context.close();
  }, 120_000);
});
