import { rmSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchChromium, SCREENSHOTS } from "../../test-support/browser.js";
import { buildConsole, seriousViolations } from "../../test-support/console-build.js";
import {
  bearer,
  type Harness,
  json,
  makeKey,
  makeTenant,
  makeUser,
  startHarness,
  TEST_PASSWORD,
  type TestTenant,
} from "../../test-support/harness.js";

/**
 * The admin console in Chromium, as `npm run build` makes it and the API serves it: built with Vite into a
 * directory of this file's own, served at /admin on the institution's host, and driven through its labels and
 * roles. What it does is checked through the API itself (the key it made authenticates; once revoked, it does
 * not). Each page passes axe-core under the console's own Content-Security-Policy, and leaves a screenshot.
 */
/** The page's `getComputedStyle`, typed for the functions evaluated in it (this file is typed for Node). */
type Styles = { getComputedStyle(e: unknown): { backgroundColor: string; borderRadius: string } };

/** The API's 403 messages in English: a role refused, or refused because only administrators may. */
const REFUSED = /You do not have permission to do this\.|Only an institution administrator can do this\./;

describe.runIf(browserAvailable())("the admin console, in Chromium", () => {
  let h: Harness;
  let a: TestTenant;
  let browser: Browser;
  let origin: string;
  let dir: string;
  const pageProblems: string[] = [];

  beforeAll(async () => {
    const built = await buildConsole();
    dir = built.dir;
    expect(built.firstVisit.jsGzipBytes).toBeLessThanOrEqual(200_000);
    h = await startHarness({ CONSOLE_DIR: dir });
    a = await makeTenant(h, "Escola Alfa");
    // The institution's theme, which the console wears from its first page on.
    const themes = { host: a.host, ...json, ...bearer(await makeKey(h, a, ["settings:write"])) };
    const theme = await h.inject({
      method: "POST",
      url: "/api/institution/themes",
      headers: themes,
      payload: { name: "Alfa", variables: { primaryColor: "#7A1FA2", borderRadiusPx: 2 } },
    });
    expect(theme.statusCode, theme.body).toBe(201);
    const activated = await h.inject({
      method: "POST",
      url: `/api/institution/themes/${theme.json().id}/activate`,
      headers: themes,
    });
    expect(activated.statusCode, activated.body).toBe(200);
    const address = await h.app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://${a.host}:${new URL(address).port}`;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    expect(pageProblems).toEqual([]);
  });

  async function open(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    // A refused script or style, or an error the console did not handle, fails the file.
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) pageProblems.push(message.text());
    });
    page.on("pageerror", (error) => pageProblems.push(error.message));
    await page.goto(`${origin}/admin`);
    return page;
  }
  const heading = async (page: Page, name: string) => {
    try {
      await page.getByRole("heading", { level: 1, name }).waitFor({ timeout: 10_000 });
    } catch (err) {
      throw new Error(`no heading "${name}": ${pageProblems.join("; ")}`, { cause: err });
    }
  };
  const accessible = async (page: Page, what: string) =>
    expect(await seriousViolations(page), what).toEqual([]);
  const signIn = async (page: Page, email: string, password: string, submit = "Sign in") => {
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: submit }).click();
  };
  const withKey = (secret: string, url: string) =>
    h.inject({ method: "GET", url, headers: { host: a.host, ...bearer(secret) } });

  it("signs an administrator in, makes an API key shown once, revokes it, speaks French and signs out", async () => {
    const context = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    const page = await open(context);

    // Sign in: first with a wrong password (the API's own words), then for real.
    await heading(page, "Sign in");
    const submit = page.getByRole("button", { name: "Sign in" });
    await expect
      .poll(() =>
        submit.evaluate((b) => (globalThis as unknown as Styles).getComputedStyle(b).backgroundColor),
      )
      .toBe("rgb(122, 31, 162)");
    expect(
      await submit.evaluate((b) => (globalThis as unknown as Styles).getComputedStyle(b).borderRadius),
    ).toBe("2px");
    await accessible(page, "sign-in");
    await page.screenshot({ path: `${SCREENSHOTS}/console-sign-in.png` });
    await signIn(page, a.adminEmail, "not the password");
    await expect
      .poll(() => page.getByRole("alert").innerText())
      .toContain("The e-mail or password is incorrect.");
    await signIn(page, a.adminEmail, TEST_PASSWORD);

    // The dashboard: the plan, and the seats used against the student limit, from the subscription.
    await heading(page, "Dashboard");
    await page.getByText("Seats used", { exact: true }).waitFor();
    await page.getByText("No failed attempts in the last hour.").waitFor();
    expect(await page.locator("main").innerText()).toContain("free");
    await accessible(page, "dashboard");
    await page.screenshot({ path: `${SCREENSHOTS}/console-dashboard.png`, fullPage: true });

    // A key with one scope; its secret, shown once, copied, and accepted by the API for that scope only.
    await page.getByRole("link", { name: "API keys" }).click();
    await heading(page, "API keys");
    expect(new URL(page.url()).pathname).toBe("/admin/api-keys");
    // The key the theme was made with is listed, without its secret.
    await page.getByRole("row", { name: /test key/ }).waitFor();
    await accessible(page, "api keys");
    await page.screenshot({ path: `${SCREENSHOTS}/console-api-keys.png`, fullPage: true });
    await page.getByLabel("Name").fill("ERP sync");
    await page.getByRole("checkbox", { name: "courses:read" }).check();
    await page.getByLabel("Rate tier").selectOption("high");
    await page.getByRole("button", { name: "Create the key" }).click();
    const secretBox = page.getByLabel("Secret of ERP sync");
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    await expect.poll(() => secretBox.evaluate((e) => e === e.ownerDocument.activeElement)).toBe(true);
    expect(secret).toMatch(/^mia_[0-9a-f]{40}$/);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Copied.").waitFor();
    const copied = await page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText(),
    );
    expect(copied).toBe(secret);
    await accessible(page, "api key secret");
    await page.screenshot({ path: `${SCREENSHOTS}/console-api-key-secret.png`, fullPage: true });
    expect((await withKey(secret, "/api/institution/courses")).statusCode).toBe(200);
    const outOfScope = await withKey(secret, "/api/institution/users");
    expect(outOfScope.json().error).toBe("insufficient_scope");

    // Once dismissed, the secret is nowhere: not on the page, not after a reload.
    await page.getByRole("button", { name: "I have copied it" }).click();
    await expect.poll(() => page.getByLabel("Secret of ERP sync").count()).toBe(0);
    await page.reload();
    await page.getByRole("row", { name: /ERP sync/ }).waitFor();
    expect(await page.content()).not.toContain(secret.slice(12));
    const row = await page.getByRole("row", { name: /ERP sync/ }).innerText();
    expect(row).toContain("courses:read");
    expect(row).toContain(secret.slice(0, 12));

    // Revoking asks first; once confirmed, the API refuses the key.
    await page.getByRole("button", { name: "Revoke ERP sync" }).click();
    await page.getByText("Revoke ERP sync? Systems using it will be refused at once.").waitFor();
    await accessible(page, "revoke confirmation");
    await page.screenshot({ path: `${SCREENSHOTS}/console-api-key-revoke.png`, fullPage: true });
    await page.getByRole("button", { name: "Yes, revoke" }).click();
    await page.getByText("The key ERP sync was revoked.").waitFor();
    await expect.poll(() => page.getByRole("row", { name: /ERP sync/ }).count()).toBe(0);
    expect((await withKey(secret, "/api/institution/courses")).statusCode).toBe(401);

    // French: the console's words, the API's messages, and the choice kept across a visit.
    await page.getByLabel("Language").selectOption("fr-FR");
    await heading(page, "Clés d’API");
    await page.getByRole("link", { name: "Tableau de bord" }).waitFor();
    await page.reload();
    await heading(page, "Clés d’API");
    expect(await page.locator("html").getAttribute("lang")).toBe("fr-FR");
    await page.getByRole("button", { name: "Créer la clé" }).click();
    await expect
      .poll(() => page.getByRole("alert").innerText())
      .toContain("La requête n’est pas valide. Consultez le détail de chaque champ.");
    await accessible(page, "api keys in French, with an error");
    await page.screenshot({ path: `${SCREENSHOTS}/console-api-keys-fr-error.png`, fullPage: true });

    // Sign out: the session is gone, for the console and for the API.
    await page.getByRole("button", { name: "Se déconnecter" }).click();
    await heading(page, "Se connecter");
    await page.reload();
    await heading(page, "Se connecter");
    const cookies = await context.cookies(origin);
    expect(cookies.filter((c) => c.name.startsWith("sb-"))).toEqual([]);
    await context.close();
  }, 120_000);

  it("shows a teacher and a student the API's refusal, not a broken page or a form they may not use", async () => {
    for (const role of ["teacher", "student"] as const) {
      const user = await makeUser(h, a, role, TEST_PASSWORD);
      const context = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 } });
      const page = await open(context);
      await heading(page, "Sign in");
      await signIn(page, user.email, TEST_PASSWORD);
      await heading(page, "Dashboard");
      // The plan is anyone's to read; the delivery log is administrators' (and the user list staff's).
      await expect.poll(() => page.getByRole("alert").first().innerText()).toMatch(REFUSED);
      // The plan card answers on its own time: the refusal above may come first.
      await expect.poll(() => page.locator("main").innerText()).toContain("free");
      await accessible(page, `${role} dashboard`);
      await page.screenshot({ path: `${SCREENSHOTS}/console-${role}-dashboard.png`, fullPage: true });

      await page.getByRole("link", { name: "API keys" }).click();
      await heading(page, "API keys");
      await page.getByRole("alert").waitFor();
      expect(await page.getByRole("alert").innerText()).toContain(
        "Only an institution administrator can do this.",
      );
      expect(await page.getByRole("button", { name: "Create the key" }).count()).toBe(0);
      await accessible(page, `${role} api keys`);
      await page.screenshot({ path: `${SCREENSHOTS}/console-${role}-api-keys.png`, fullPage: true });
      await context.close();
    }
  }, 120_000);
  it("keeps an administrator signed in past the access cookie's lifetime, refreshing the session once", async () => {
    // A server whose access cookie lasts three seconds: every read after that needs the refresh route first. (With
    // one second, a loaded machine let the refreshed cookie expire before the retried read reached the server.)
    const short = await startHarness({ CONSOLE_DIR: dir, ACCESS_TOKEN_TTL_SECONDS: "3" });
    try {
      const tenant = await makeTenant(short, "Escola Breve");
      const address = await short.app.listen({ port: 0, host: "127.0.0.1" });
      const context = await browser.newContext({ locale: "en-US" });
      const page = await context.newPage();
      page.on("pageerror", (error) => pageProblems.push(error.message));
      await page.goto(`http://${tenant.host}:${new URL(address).port}/admin`);
      await heading(page, "Sign in");
      await signIn(page, tenant.adminEmail, TEST_PASSWORD);
      await heading(page, "Dashboard");
      await page.getByText("No failed attempts in the last hour.").waitFor();
      for (let round = 0; round < 2; round++) {
        await page.waitForTimeout(3_100);
        // Three reads at once (the dashboard's two and the page's own), all refused, then one refresh.
        await page.getByRole("link", { name: "API keys" }).click();
        await page.getByText("Keys let your systems call the API.", { exact: false }).waitFor();
        await page.getByRole("button", { name: "Create the key" }).waitFor();
        await page.waitForTimeout(3_100);
        await page.getByRole("link", { name: "Dashboard" }).click();
        await page.getByText("No failed attempts in the last hour.").waitFor();
        expect(await page.getByRole("alert").count()).toBe(0);
      }
      await context.close();
    } finally {
      await short.close();
    }
  }, 120_000);
});
