import { mkdir } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { browserAvailable, launchChromium, SCREENSHOTS } from "../../test-support/browser.js";
import { REFERENCE_TITLE } from "./docs.js";

/** What the vendor's page shows when its cloud features are on (Scalar 1.72's own labels). */
const VENDOR_LABELS = ["Ask AI", "Generate MCP", "Deploy", "Powered by Scalar Agent"];

describe.runIf(browserAvailable())("the API reference at /docs, in Chromium", () => {
  const { h } = useApi();
  let browser: Browser;
  let page: Page;
  let origin: string;
  const requested: string[] = [];

  beforeAll(async () => {
    origin = await h.app.listen({ port: 0, host: "127.0.0.1" });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("request", (request) => requested.push(request.url()));
    await page.goto(`${origin}/docs/`);
    await page.getByRole("heading", { name: "Aula API" }).first().waitFor({ timeout: 30_000 });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("is titled as configured and fetches nothing but this server (no vendor fonts, no telemetry)", async () => {
    expect(await page.title()).toBe(REFERENCE_TITLE);
    // Fonts and telemetry would be asked for once the page has rendered; give them time to show.
    await page.waitForTimeout(2_000);
    expect(requested.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    expect(requested).toContain(`${origin}/openapi.json`);
  });

  it("shows none of the vendor's cloud buttons", async () => {
    const text = await page.locator("body").innerText();
    for (const label of VENDOR_LABELS) expect(text, label).not.toContain(label);
    await page.keyboard.press("Control+k");
    const search = await page.locator("body").innerText();
    for (const label of VENDOR_LABELS) expect(search, `${label} (search)`).not.toContain(label);
    await page.keyboard.press("Escape");
  });

  it("says a query parameter's default in words, not only on hover", async () => {
    await page.getByText("courses", { exact: true }).first().click();
    await page.getByText("List courses", { exact: true }).first().click();
    const perPage = page.getByText("Items per page; values above 100 are served as 100. Default: 20.");
    await perPage.waitFor({ timeout: 15_000 });
    await perPage.scrollIntoViewIfNeeded();
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOTS}/docs-list-courses.png` });
    await expect(page.getByText("Newest first unless sort says otherwise").first().isVisible()).resolves.toBe(
      true,
    );
  });

  it("lists each event a webhook receives, with its payload", async () => {
    // The document's top-level `webhooks`: Scalar shows them under their tag, each with its body's fields.
    await page.getByText("webhooks", { exact: true }).first().click();
    await page.getByText("A user was enrolled in a course.", { exact: true }).first().click();
    // Its request panel is titled by the event's name, and its body documents the event's id.
    const panel = page.getByText("enrollment_created", { exact: true }).first();
    await panel.waitFor({ timeout: 15_000 });
    await panel.scrollIntoViewIfNeeded();
    await expect(
      page.getByText("The event's id: the same in every delivery").first().isVisible(),
    ).resolves.toBe(true);
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: `${SCREENSHOTS}/docs-webhook-enrollment-created.png` });
  });
});
