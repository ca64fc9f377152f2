import { rmSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { launchChromium, SCREENSHOTS } from "./browser.js";
import { buildConsole, seriousViolations } from "./console-build.js";
import { type Harness, makeTenant, startHarness, TEST_PASSWORD, type TestTenant } from "./harness.js";

/** The API's 403 messages in English: a role refused, or refused because only administrators may. */
export const REFUSED =
  /You do not have permission to do this\.|Only an institution administrator can do this\./;

export interface ConsoleInBrowser {
  h: Harness;
  a: TestTenant;
  browser: Browser;
  origin: string;
  /** Page errors and refused scripts or styles seen so far (a test file expects none). */
  problems: string[];
  newContext(): Promise<BrowserContext>;
  /** Signs `email` in and opens the page the navigation's link `link` leads to, its h1 being `link`. */
  signedIn(context: BrowserContext, email: string, link: string): Promise<Page>;
  heading(page: Page, name: string): Promise<void>;
  accessible(page: Page, what: string): Promise<void>;
  shot(page: Page, name: string): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * A page's browser tests share this: the console built as `npm run build` builds it (first visit within its
 * 200 kB), a harness serving it on a tenant's host, and Chromium, with the steps every page's test takes.
 */
export async function consoleInBrowser(
  env: Record<string, string> = {},
  tenantName = "Escola Beta",
): Promise<ConsoleInBrowser> {
  const built = await buildConsole();
  expect(built.firstVisit.jsGzipBytes).toBeLessThanOrEqual(200_000);
  const h = await startHarness({ CONSOLE_DIR: built.dir, ...env });
  const a = await makeTenant(h, tenantName);
  const address = await h.app.listen({ port: 0, host: "127.0.0.1" });
  const origin = `http://${a.host}:${new URL(address).port}`;
  const browser = await launchChromium();
  const problems: string[] = [];

  const heading = async (page: Page, name: string) => {
    try {
      await page.getByRole("heading", { level: 1, name }).waitFor({ timeout: 10_000 });
    } catch (err) {
      throw new Error(`no heading "${name}": ${problems.join("; ")}`, { cause: err });
    }
  };
  const signedIn = async (context: BrowserContext, email: string, link: string) => {
    const page = await context.newPage();
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`${origin}/admin`);
    await heading(page, "Sign in");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await heading(page, "Dashboard");
    await page.getByRole("link", { name: link, exact: true }).click();
    await heading(page, link);
    return page;
  };
  return {
    h,
    a,
    browser,
    origin,
    problems,
    newContext: () => browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 } }),
    signedIn,
    heading,
    accessible: async (page, what) => expect(await seriousViolations(page), what).toEqual([]),
    shot: (page, name) => page.screenshot({ path: `${SCREENSHOTS}/console-${name}.png`, fullPage: true }),
    close: async () => {
      await browser.close();
      await h.close();
      rmSync(built.dir, { recursive: true, force: true });
    },
  };
}
