import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundClient } from "../../platform/outbound/client.js";
import { browserAvailable } from "../../test-support/browser.js";
import { type ConsoleInBrowser, consoleInBrowser, REFUSED } from "../../test-support/console-browser.js";
import { makeUser, TEST_PASSWORD } from "../../test-support/harness.js";
import { type Receiver, startReceiver } from "../../test-support/receiver.js";
import { drainOnce } from "../outbox/drain.js";

/**
 * The console's automations page in Chromium: an automation made to a receiver on this machine (its address
 * allowed by OUTBOUND_ALLOW_CIDRS), its test send, a real event's delivery in its log with the attempt's request
 * and response, a redelivery that reaches the receiver again, and the success rate; a teacher sees the API's
 * refusal; the page speaks the other languages.
 */
describe.runIf(browserAvailable())("the console's automations page, in Chromium", () => {
  let c: ConsoleInBrowser;
  let receiver: Receiver;

  beforeAll(async () => {
    c = await consoleInBrowser({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" }, "Escola Épsilon");
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
    try {
      for (let round = 0; round < 20; round++) {
        if ((await drainOnce(c.h.ctx, client, { tenantIds: [c.a.id], batchSize: 100 })).claimed === 0) return;
      }
      throw new Error("deliveries kept coming");
    } finally {
      await client.close();
    }
  }

  it("creates an automation, test-sends it, shows a delivery with its attempt and success rate, and redelivers", async () => {
    const context = await c.newContext();
    const page = await c.signedIn(context, c.a.adminEmail, "Automations");
    expect(new URL(page.url()).pathname).toBe("/admin/automations");
    await page.getByText("No automation yet.").waitFor();

    // A loopback URL outside the allowed range: the API's refusal, naming the setting.
    await page.getByLabel("Name").fill("New students to the CRM");
    await page.getByLabel("Event").selectOption("user_created");
    await page.getByLabel("Sends to").fill("http://127.0.0.1:9/hook");
    await page.getByRole("button", { name: "Create the automation" }).click();
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("OUTBOUND_ALLOW_CIDRS");

    const url = receiver.url("/crm");
    await page.getByLabel("Sends to").fill(url);
    await page.getByRole("button", { name: "Create the automation" }).click();
    expect(await page.getByRole("textbox", { name: "Signing secret" }).inputValue()).toMatch(/^whsec_/);
    const row = page.getByRole("row", { name: /^New students to the CRM/ });
    await row.waitFor();
    expect(await row.innerText()).toContain("user_created");
    expect(await row.innerText()).toContain("Enabled");
    await c.accessible(page, "automations");
    await c.shot(page, "automations");

    // The test send reaches the receiver once, signed, and is kept out of the log, as the page says.
    await page.getByRole("button", { name: "Deliveries New students to the CRM" }).click();
    await page.getByText("No delivery yet.").waitFor();
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.getByText("The receiver answered HTTP 200 in").waitFor();
    await page.getByText("An automation's test send is not kept in its delivery log").waitFor();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.headers["webhook-id"]).toMatch(/^msg_test_/);
    expect(receiver.received[0]?.headers["webhook-signature"]).toMatch(/^v1,/);
    expect(await page.getByText("No delivery yet.").count()).toBe(1);
    await c.accessible(page, "automation test send");
    await c.shot(page, "automation-test-send");

    // A real event, delivered by the worker's own code, is in the log with its attempt.
    const user = await makeUser(c.h, c.a, "student");
    await deliverAll();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.body).toContain(user.id);
    await page.getByRole("button", { name: "Refresh" }).click();
    const delivery = page.getByRole("row", { name: /^user_created/ });
    await delivery.waitFor();
    expect(await delivery.innerText()).toContain("Succeeded");
    // The stats are read apart from the log, and may come after it.
    await expect.poll(() => page.locator(".stats").innerText()).toContain("100%");
    await delivery.getByRole("button", { name: /^Attempts/ }).click();
    const attempts = page.getByRole("region", { name: /Attempts of delivery/ });
    await attempts.getByText('{"thanks":true}').waitFor();
    expect(await attempts.innerText()).toContain("200");
    expect(await attempts.getByText(url).count()).toBe(1);
    const shown = await attempts.locator("pre.request-body").innerText();
    expect(JSON.parse(shown)).toEqual(JSON.parse(receiver.received[1]?.body ?? ""));
    await c.accessible(page, "automation deliveries");
    await c.shot(page, "automation-deliveries");

    // Redelivered: the same body reaches the receiver again, and the log shows two deliveries.
    await delivery.getByRole("button", { name: /^Redeliver/ }).click();
    await page.getByText("A new delivery of user_created was queued.").waitFor();
    await deliverAll();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2]?.body).toBe(receiver.received[1]?.body);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => page.getByRole("row", { name: /^user_created.*Succeeded/ }).count()).toBe(2);

    // An automation triggered by other systems: its inbound URL is shown once, beside its secret.
    await page.getByLabel("Name").fill("From the ERP");
    await page.getByLabel("Event").selectOption("webhook");
    await page.getByLabel("Sends to").fill(url);
    await page.getByRole("button", { name: "Create the automation" }).click();
    const inbound = page.getByRole("textbox", { name: /^Inbound URL/ });
    await inbound.waitFor();
    expect(await inbound.inputValue()).toMatch(/\/api\/automations\/webhook\/[0-9a-f]{64}$/);
    await page.getByRole("row", { name: /^From the ERP/ }).waitFor();
    await c.accessible(page, "inbound automation");

    // The same page in Portuguese, with the API's messages in it too.
    await page.getByLabel("Language").selectOption("pt-BR");
    await page.getByRole("heading", { level: 1, name: "Automações" }).waitFor();
    await page.getByRole("button", { name: "Criar a automação" }).click();
    await expect.poll(() => page.getByRole("alert").first().innerText()).toContain("A requisição é inválida");
    await c.accessible(page, "automations in Portuguese");
    await c.shot(page, "automations-pt-BR");
    await context.close();
  }, 120_000);

  it("shows a teacher the API's refusal and no form", async () => {
    const teacher = await makeUser(c.h, c.a, "teacher", TEST_PASSWORD);
    const context = await c.newContext();
    const page = await c.signedIn(context, teacher.email, "Automations");
    await expect.poll(() => page.getByRole("alert").first().innerText()).toMatch(REFUSED);
    expect(await page.getByRole("button", { name: "Create the automation" }).count()).toBe(0);
    await c.accessible(page, "teacher automations");
    await c.shot(page, "teacher-automations");
    await context.close();
  }, 120_000);
});
