import { rmSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchChromium, SCREENSHOTS } from "../../test-support/browser.js";
import { buildConsole, seriousViolations } from "../../test-support/console-build.js";
import {
  bearer,
  type Harness,
  makeKey,
  makeTenant,
  makeUser,
  startHarness,
  TEST_PASSWORD,
  type TestTenant,
} from "../../test-support/harness.js";

/**
 * The console's users page in Chromium: the list with its filters and pages, an invitation, and an import of a
 * CSV file read in the browser and sent to POST /users/bulk, each row's outcome shown. What it made is counted
 * through the API itself. Each state passes axe-core under the console's CSP and leaves a screenshot.
 */
const REFUSED = /You do not have permission to do this\.|Only an institution administrator can do this\./;

/** 50 records: 48 good teachers (one name quoted with a comma), an e-mail that is none, and a repeated e-mail. */
function csvOf(domain: string): string {
  const lines = ["name,email,role"];
  for (let i = 1; i <= 48; i++) {
    const name = i === 3 ? '"Souza, Ana ""Aninha"""' : `CSV Person ${i}`;
    lines.push(`${name},person${i}@${domain},teacher`);
    if (i === 10) lines.push(`Bad Mail,not-an-email,teacher`);
    if (i === 20) lines.push(`Twice,person5@${domain},teacher`);
  }
  return `${lines.join("\r\n")}\r\n`;
}

describe.runIf(browserAvailable())("the console's users page, in Chromium", () => {
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
    a = await makeTenant(h, "Escola Beta");
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

  async function signedIn(context: BrowserContext, email: string): Promise<Page> {
    const page = await context.newPage();
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) pageProblems.push(message.text());
    });
    page.on("pageerror", (error) => pageProblems.push(error.message));
    await page.goto(`${origin}/admin`);
    await heading(page, "Sign in");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await heading(page, "Dashboard");
    await page.getByRole("link", { name: "Users" }).click();
    await heading(page, "Users");
    expect(new URL(page.url()).pathname).toBe("/admin/users");
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
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: `${SCREENSHOTS}/console-${name}.png`, fullPage: true });
  const newContext = () => browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 } });

  it("imports 50 users from a CSV file with two bad rows: 48 created, each refusal in the API's words", async () => {
    const context = await newContext();
    const page = await signedIn(context, a.adminEmail);
    await page.getByRole("row", { name: new RegExp(a.adminEmail) }).waitFor();
    await accessible(page, "users");
    await shot(page, "users");

    const domain = `csv.${a.host}`;
    await page.getByLabel("CSV file", { exact: true }).setInputFiles({
      name: "users.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csvOf(domain)),
    });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const summary = page.getByRole("status").filter({ hasText: "created" });
    await summary.waitFor();
    expect(await summary.innerText()).toBe("48 created, 2 not created, of 50 rows.");
    const bad = await page.getByRole("row", { name: /not-an-email/ }).innerText();
    expect(bad).toContain("Not created");
    expect(bad).toContain("email: Must be a valid email.");
    const twice = page.getByRole("row", { name: /Not created/ }).filter({ hasText: `person5@${domain}` });
    expect(await twice.innerText()).toContain("This e-mail already belongs to a user, or to an earlier row");
    expect(await page.getByRole("row", { name: /^\s*3\s/ }).innerText()).toContain("Created");
    await accessible(page, "users import results");
    await shot(page, "users-import");

    // Counted by the API: exactly 48 users at the file's domain, the quoted name kept whole.
    const key = await makeKey(h, a, ["users:read"]);
    const listed = await h.inject({
      method: "GET",
      url: `/api/institution/users?search=${encodeURIComponent(domain)}&perPage=100`,
      headers: { host: a.host, ...bearer(key) },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const body = listed.json() as { data: { name: string; email: string }[]; pagination: { total: number } };
    expect(body.pagination.total).toBe(48);
    expect(body.data.find((u) => u.email === `person3@${domain}`)?.name).toBe('Souza, Ana "Aninha"');

    // The filters and the pages: 48 teachers, 20 a page.
    await page.getByLabel("Role").first().selectOption("teacher");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("Page 1 of 3 (48 users)").waitFor();
    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText("Page 2 of 3 (48 users)").waitFor();
    await page.getByLabel("Search by name or e-mail").fill("CSV Person 4");
    await page.getByRole("button", { name: "Filter" }).click();
    // "CSV Person 4" and "CSV Person 40" to "48".
    await page.getByText("Page 1 of 1 (10 users)").waitFor();
    await page.getByLabel("Status").selectOption("suspended");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("No user matches.").waitFor();
    await accessible(page, "users filtered");

    // An invitation, then the same e-mail again: the API's conflict in its words.
    await page.getByLabel("Search by name or e-mail").fill("");
    await page.getByLabel("Status").selectOption("invited");
    await page.getByLabel("Role").first().selectOption("");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("No user matches.").waitFor();
    await page.locator("#invite-name").fill("Invited Person");
    await page.locator("#invite-email").fill(`invited@${domain}`);
    await page.locator("#invite-role").selectOption("student");
    await page.getByRole("button", { name: "Send the invitation" }).click();
    await page.getByText(`invited@${domain} was invited.`).waitFor();
    await page.getByRole("row", { name: /Invited Person/ }).waitFor();
    expect(await page.getByRole("row", { name: /Invited Person/ }).innerText()).toContain("Invited");
    await page.locator("#invite-email").fill(`invited@${domain}`);
    await page.locator("#invite-name").fill("Invited Again");
    await page.getByRole("button", { name: "Send the invitation" }).click();
    await expect
      .poll(() => page.getByRole("alert").innerText())
      .toContain("A user with this e-mail already exists in this institution.");
    await accessible(page, "users invite refused");
    await shot(page, "users-invite");
    await context.close();
  }, 180_000);

  it("lets a teacher read the list without the forms, and shows a student the API's refusal", async () => {
    const teacher = await makeUser(h, a, "teacher", TEST_PASSWORD);
    let context = await newContext();
    let page = await signedIn(context, teacher.email);
    // The import above made the list three pages long.
    await page.getByText(/^Page 1 of 3 \(\d+ users\)$/).waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Send the invitation" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Import", exact: true }).count()).toBe(0);
    await accessible(page, "teacher users");
    await shot(page, "teacher-users");
    await context.close();

    const student = await makeUser(h, a, "student", TEST_PASSWORD);
    context = await newContext();
    page = await signedIn(context, student.email);
    await expect.poll(() => page.getByRole("alert").first().innerText()).toMatch(REFUSED);
    expect(await page.getByRole("button", { name: "Send the invitation" }).count()).toBe(0);
    await accessible(page, "student users");
    await shot(page, "student-users");
    await context.close();
  }, 120_000);
});
