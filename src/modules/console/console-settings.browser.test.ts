import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable } from "../../test-support/browser.js";
import { type ConsoleInBrowser, consoleInBrowser, REFUSED } from "../../test-support/console-browser.js";
import { bearer, json, makeKey, makeUser, TEST_PASSWORD } from "../../test-support/harness.js";

interface Styles {
  getComputedStyle(element: unknown): { getPropertyValue(name: string): string; backgroundColor: string };
  document: { documentElement: unknown };
}
/** The value the page's root holds for a custom property, as the console's style sheet reads it. */
const rootProperty = (page: Page, name: string) =>
  page.evaluate((n) => {
    const g = globalThis as unknown as Styles;
    return g.getComputedStyle(g.document.documentElement).getPropertyValue(n).trim();
  }, name);

/**
 * The console's settings page in Chromium: the form built from GET /settings/schema, a save refused by the API
 * with its message under the field it names (and nothing stored), a save that lands, and the themes: activating
 * another one re-dresses the console at once. A teacher reads without a way to change; a student is refused.
 */
describe.runIf(browserAvailable())("the console's settings and themes, in Chromium", () => {
  let c: ConsoleInBrowser;
  let key: string;
  const themeIds = new Map<string, string>();
  const api = (method: "GET" | "PATCH", url: string, payload?: unknown) =>
    c.h.inject({
      method,
      url: `/api/institution${url}`,
      headers: { host: c.a.host, "accept-language": "en-US", ...bearer(key), ...(payload ? json : {}) },
      ...(payload ? { payload: payload as object } : {}),
    });

  beforeAll(async () => {
    c = await consoleInBrowser({}, "Escola Delta");
    key = await makeKey(c.h, c.a, ["settings:read", "settings:write"]);
    for (const [name, primaryColor] of [
      ["Delta Azul", "#1F4E79"],
      ["Delta Verde", "#2E7D32"],
    ] as const) {
      const made = await c.h.inject({
        method: "POST",
        url: "/api/institution/themes",
        headers: { host: c.a.host, ...json, ...bearer(key) },
        payload: { name, variables: { primaryColor } },
      });
      expect(made.statusCode, made.body).toBe(201);
      themeIds.set(name, made.json().id);
    }
    const activated = await c.h.inject({
      method: "POST",
      url: `/api/institution/themes/${themeIds.get("Delta Azul")}/activate`,
      headers: { host: c.a.host, ...bearer(key) },
    });
    expect(activated.statusCode, activated.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await c?.close();
    expect(c?.problems ?? []).toEqual([]);
  });

  it("edits the settings from their schema, shows the API's refusal per field, and activates a theme the console wears", async () => {
    const context = await c.newContext();
    const page = await c.signedIn(context, c.a.adminEmail, "Settings");
    expect(new URL(page.url()).pathname).toBe("/admin/settings");
    // The console wears the active theme's properties, named by the API.
    await expect.poll(() => rootProperty(page, "--aula-primary-color")).toBe("#1F4E79");
    const inactiveDays = page.getByLabel("Days without activity before a user is inactive");
    const timeout = page.getByLabel("Minutes without activity before a session ends", { exact: false });
    await expect.poll(() => inactiveDays.inputValue()).toBe("30");
    expect(await timeout.inputValue()).toBe("");
    expect(await page.getByLabel("What counts as a user's activity").inputValue()).toBe("access");
    await page.getByRole("row", { name: /Delta Azul/ }).waitFor();
    await c.accessible(page, "settings");
    await c.shot(page, "settings");

    // Below the minimum: the API's own words under the field, and the patch (atomic) stores nothing.
    await inactiveDays.fill("45");
    await timeout.fill("5");
    await page.getByRole("button", { name: "Save the settings" }).click();
    const refused = await api("PATCH", "/settings", {
      inactivity: { userInactiveDays: 45 },
      security: { sessionTimeoutMinutes: 5 },
    });
    expect(refused.statusCode).toBe(400);
    const detail = (refused.json().details as { field: string; message: string }[]).find(
      (d) => d.field === "security.sessionTimeoutMinutes",
    );
    expect(detail?.message).toBeTruthy();
    const errors = page.locator("#setting-security-sessionTimeoutMinutes-errors");
    await expect.poll(() => errors.innerText()).toBe(detail?.message);
    expect(await timeout.getAttribute("aria-invalid")).toBe("true");
    expect(await timeout.getAttribute("aria-describedby")).toBe(
      "setting-security-sessionTimeoutMinutes-errors",
    );
    await expect.poll(() => page.getByRole("alert").innerText()).toContain(refused.json().message);
    const stored = (await api("GET", "/settings")).json();
    expect(stored.inactivity.userInactiveDays).toBe(30);
    expect(stored.security.sessionTimeoutMinutes).toBeNull();
    await c.accessible(page, "settings refused");
    await c.shot(page, "settings-refused");

    await timeout.fill("90");
    await page.getByRole("button", { name: "Save the settings" }).click();
    await page.getByText("The settings were saved.").waitFor();
    const saved = (await api("GET", "/settings")).json();
    expect(saved.inactivity.userInactiveDays).toBe(45);
    expect(saved.security.sessionTimeoutMinutes).toBe(90);
    expect(await errors.count()).toBe(0);

    // Another theme, activated: the API says so and the console changes its colours without a reload.
    await page.getByRole("button", { name: "Activate Delta Verde" }).click();
    await page.getByText("Delta Verde is now the active theme.").waitFor();
    await expect.poll(() => rootProperty(page, "--aula-primary-color")).toBe("#2E7D32");
    const button = page.getByRole("button", { name: "Save the settings" });
    expect(
      await button.evaluate((b) => (globalThis as unknown as Styles).getComputedStyle(b).backgroundColor),
    ).toBe("rgb(46, 125, 50)");
    expect((await api("GET", `/themes/${themeIds.get("Delta Verde")}`)).json().status).toBe("active");
    await page.getByRole("button", { name: "Activate Delta Azul" }).waitFor();
    await c.accessible(page, "themes");
    await c.shot(page, "settings-theme-activated");

    // In French: the console's words, and the API's message in French under the field.
    const french = await c.h.inject({
      method: "PATCH",
      url: "/api/institution/settings",
      headers: { host: c.a.host, "accept-language": "fr-FR", ...json, ...bearer(key) },
      payload: { security: { sessionTimeoutMinutes: 5 } },
    });
    const frenchDetail = (french.json().details as { field: string; message: string }[]).find(
      (d) => d.field === "security.sessionTimeoutMinutes",
    );
    expect(frenchDetail?.message).not.toBe(detail?.message);
    await page.locator("header").getByLabel("Language").selectOption("fr-FR");
    await c.heading(page, "Paramètres");
    await page.getByLabel("Minutes sans activité avant la fin d’une session", { exact: false }).fill("5");
    await page.getByRole("button", { name: "Enregistrer les paramètres" }).click();
    await expect.poll(() => errors.innerText()).toBe(frenchDetail?.message);
    await c.shot(page, "settings-refused-fr");
    await context.close();
  }, 120_000);

  it("lets a teacher read the settings without a way to change them, and shows a student the API's refusal", async () => {
    const teacher = await makeUser(c.h, c.a, "teacher", TEST_PASSWORD);
    let context = await c.newContext();
    let page = await c.signedIn(context, teacher.email, "Settings");
    await page.getByText("Only an administrator can change the settings.").waitFor();
    await page.getByRole("row", { name: /Delta Azul/ }).waitFor();
    expect(await page.getByLabel("Days without activity before a user is inactive").isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Save the settings" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Activate/ }).count()).toBe(0);
    await c.accessible(page, "teacher settings");
    await c.shot(page, "teacher-settings");
    await context.close();

    const student = await makeUser(c.h, c.a, "student", TEST_PASSWORD);
    context = await c.newContext();
    page = await c.signedIn(context, student.email, "Settings");
    await expect.poll(() => page.getByRole("alert").first().innerText()).toMatch(REFUSED);
    expect(await page.getByRole("button", { name: "Save the settings" }).count()).toBe(0);
    await c.accessible(page, "student settings");
    await c.shot(page, "student-settings");
    await context.close();
  }, 120_000);
});
