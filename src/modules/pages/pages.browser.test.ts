import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchChromium, SCREENSHOTS } from "../../test-support/browser.js";
import { bearer, json } from "../../test-support/harness.js";
import { type MailKit, startMailKit } from "../../test-support/mail-kit.js";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/**
 * The pages the invitation and password-reset e-mails link to, in Chromium: a link taken from the mail the SMTP
 * server received, opened on the institution's host (Chromium sends *.localhost to this machine), the form
 * filled in by its labels, and the outcome checked through the API.
 */
describe.runIf(browserAvailable())("the invitation and password-reset pages, in Chromium", () => {
  let k: MailKit;
  let browser: Browser;
  let port: string;

  /** The mail's link, on the port this test's server listens on. */
  const onServer = (link: URL) => `http://${k.a.host}:${port}${link.pathname}${link.search}`;
  const login = (email: string, password: string) =>
    k.h.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { host: k.a.host, ...json },
      payload: { email, password },
    });

  async function open(context: BrowserContext, url: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(url);
    await page.locator("h1").waitFor();
    return page;
  }

  /** axe-core's WCAG 2.1 AA rules on the page as it is now (the page's CSP is bypassed to load axe). */
  async function accessibilityViolations(url: string, locale: string): Promise<string[]> {
    const context = await browser.newContext({ bypassCSP: true, locale });
    try {
      const page = await open(context, url);
      await page.addScriptTag({ path: AXE });
      const found = await page.evaluate(async () => {
        const axe = (
          globalThis as unknown as {
            axe: { run: (o: unknown) => Promise<{ violations: { id: string; help: string }[] }> };
          }
        ).axe;
        const result = await axe.run({
          runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
        });
        return result.violations.map((v) => `${v.id}: ${v.help}`);
      });
      return found;
    } finally {
      await context.close();
    }
  }

  beforeAll(async () => {
    k = await startMailKit();
    const address = await k.h.app.listen({ port: 0, host: "127.0.0.1" });
    port = new URL(address).port;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await k?.close();
  });

  it("accepts an invitation from the mailed link, in the browser's language, and the new user signs in", async () => {
    const email = k.email(k.a);
    const invite = await k.h.inject({
      method: "POST",
      url: "/api/institution/invites",
      headers: { host: k.a.host, ...json, ...bearer(k.keyA) },
      payload: { email, name: "Carla Mendes", role: "student" },
    });
    expect(invite.statusCode, invite.body).toBe(201);
    await k.drain();
    const link = onServer(k.linkIn(k.mailTo(email).text as string, "/invites/accept"));

    const context = await browser.newContext({ locale: "en-US" });
    const page = await open(context, link);
    expect(await page.locator("h1").innerText()).toBe("Accept the invitation");
    expect(await page.locator("main").innerText()).toContain("Escola Alfa");
    await page.screenshot({ path: `${SCREENSHOTS}/invite-form.png` });

    await page.getByLabel("Password", { exact: true }).fill("a long and good password");
    await page.getByLabel("Repeat the password").fill("a different one");
    await page.getByRole("button", { name: "Accept the invitation" }).click();
    await expect(page.getByRole("alert").innerText()).resolves.toBe("The two passwords differ.");
    expect((await login(email, "a long and good password")).statusCode).toBe(401);

    await page.getByLabel("Repeat the password").fill("a long and good password");
    await page.getByRole("button", { name: "Accept the invitation" }).click();
    await page.getByText("Your account is ready.").waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/invite-accepted.png` });
    expect((await login(email, "a long and good password")).statusCode).toBe(200);

    // The same link again: the API's own refusal, in the page's language.
    const again = await open(context, link);
    await again.getByLabel("Password", { exact: true }).fill("another long password");
    await again.getByLabel("Repeat the password").fill("another long password");
    await again.getByRole("button", { name: "Accept the invitation" }).click();
    await expect
      .poll(() => again.getByRole("alert").innerText())
      .toBe("This invitation has already been accepted.");
    await context.close();
  }, 60_000);

  it("sets a new password from the mailed reset link, showing the API's refusal of a short one", async () => {
    const email = k.email(k.a);
    await k.h.inject({
      method: "POST",
      url: "/api/institution/invites",
      headers: { host: k.a.host, ...json, ...bearer(k.keyA) },
      payload: { email, name: "Davi Rocha", role: "teacher" },
    });
    await k.drain();
    const invite = k.linkIn(k.mailTo(email).text as string, "/invites/accept");
    const accepted = await k.h.inject({
      method: "POST",
      url: "/api/invites/accept",
      headers: { host: k.a.host, ...json },
      payload: { token: invite.searchParams.get("token"), password: "the first password" },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    k.smtp.mails.length = 0;
    const asked = await k.h.inject({
      method: "POST",
      url: "/api/auth/password-reset",
      headers: { host: k.a.host, ...json },
      payload: { email },
    });
    expect(asked.statusCode).toBe(202);
    await k.drain();
    const link = onServer(k.linkIn(k.mailTo(email).text as string, "/reset-password"));

    const context = await browser.newContext({ locale: "pt-BR" });
    const page = await open(context, link);
    expect(await page.locator("h1").innerText()).toBe("Escolher uma nova senha");
    await page.getByLabel("Senha", { exact: true }).fill("curta");
    await page.getByLabel("Repita a senha").fill("curta");
    await page.getByRole("button", { name: "Salvar a nova senha" }).click();
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("A requisição é inválida.");
    await page.getByLabel("Senha", { exact: true }).fill("a segunda senha, bem longa");
    await page.getByLabel("Repita a senha").fill("a segunda senha, bem longa");
    await page.getByRole("button", { name: "Salvar a nova senha" }).click();
    await page.getByText("Sua senha foi alterada").waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/password-reset.png` });
    expect((await login(email, "the first password")).statusCode).toBe(401);
    expect((await login(email, "a segunda senha, bem longa")).statusCode).toBe(200);
    await context.close();
  }, 60_000);

  it("says a link without its token is incomplete, and shows no form", async () => {
    const context = await browser.newContext({ locale: "es-ES" });
    const page = await open(context, `http://${k.a.host}:${port}/reset-password`);
    await expect(page.getByRole("alert").innerText()).resolves.toBe(
      "Este enlace está incompleto. Vuelve a abrir el enlace del correo.",
    );
    expect(await page.locator("form").isVisible()).toBe(false);
    await context.close();
  });

  it("has no accessibility violations (axe-core, WCAG 2.1 AA), in each language", async () => {
    for (const locale of ["pt-BR", "en-US", "es-ES", "fr-FR"]) {
      for (const path of ["/invites/accept?token=x", "/reset-password?token=x"]) {
        expect(
          await accessibilityViolations(`http://${k.a.host}:${port}${path}`, locale),
          `${locale} ${path}`,
        ).toEqual([]);
      }
    }
  }, 60_000);
});
