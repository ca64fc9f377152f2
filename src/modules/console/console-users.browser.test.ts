import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable } from "../../test-support/browser.js";
import { type ConsoleInBrowser, consoleInBrowser, REFUSED } from "../../test-support/console-browser.js";
import { bearer, makeKey, makeUser, TEST_PASSWORD } from "../../test-support/harness.js";

/**
 * The console's users page in Chromium: the list with its filters and pages, an invitation, and an import of a
 * CSV file read in the browser and sent to POST /users/bulk, each row's outcome shown. What it made is counted
 * through the API itself. Each state passes axe-core under the console's CSP and leaves a screenshot.
 */
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
  let c: ConsoleInBrowser;

  beforeAll(async () => {
    c = await consoleInBrowser();
  }, 120_000);
  afterAll(async () => {
    await c?.close();
    expect(c?.problems ?? []).toEqual([]);
  });

  it("imports 50 users from a CSV file with two bad rows: 48 created, each refusal in the API's words", async () => {
    const context = await c.newContext();
    const page = await c.signedIn(context, c.a.adminEmail, "Users");
    expect(new URL(page.url()).pathname).toBe("/admin/users");
    await page.getByRole("row", { name: new RegExp(c.a.adminEmail) }).waitFor();
    await c.accessible(page, "users");
    await c.shot(page, "users");

    const domain = `csv.${c.a.host}`;
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
    await c.accessible(page, "users import results");
    await c.shot(page, "users-import");

    // Counted by the API: exactly 48 users at the file's domain, the quoted name kept whole.
    const key = await makeKey(c.h, c.a, ["users:read"]);
    const listed = await c.h.inject({
      method: "GET",
      url: `/api/institution/users?search=${encodeURIComponent(domain)}&perPage=100`,
      headers: { host: c.a.host, ...bearer(key) },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const body = listed.json() as { data: { name: string; email: string }[]; pagination: { total: number } };
    expect(body.pagination.total).toBe(48);
    expect(body.data.find((u) => u.email === `person3@${domain}`)?.name).toBe('Souza, Ana "Aninha"');

    // The filters and the pages: 48 teachers, 20 a page.
    await page.getByLabel("Role").first().selectOption("teacher");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("Page 1 of 3 (48 found)").waitFor();
    await page.getByRole("button", { name: "Next page" }).click();
    await page.getByText("Page 2 of 3 (48 found)").waitFor();
    await page.getByLabel("Search by name or e-mail").fill("CSV Person 4");
    await page.getByRole("button", { name: "Filter" }).click();
    // "CSV Person 4" and "CSV Person 40" to "48".
    await page.getByText("Page 1 of 1 (10 found)").waitFor();
    await page.getByLabel("Status").selectOption("suspended");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("No user matches.").waitFor();
    await c.accessible(page, "users filtered");

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
    await c.accessible(page, "users invite refused");
    await c.shot(page, "users-invite");
    await context.close();
  }, 180_000);

  it("lets a teacher read the list without the forms, and shows a student the API's refusal", async () => {
    const teacher = await makeUser(c.h, c.a, "teacher", TEST_PASSWORD);
    let context = await c.newContext();
    let page = await c.signedIn(context, teacher.email, "Users");
    // The import above made the list three pages long.
    await page.getByText(/^Page 1 of 3 \(\d+ found\)$/).waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Send the invitation" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Import", exact: true }).count()).toBe(0);
    await c.accessible(page, "teacher users");
    await c.shot(page, "teacher-users");
    await context.close();

    const student = await makeUser(c.h, c.a, "student", TEST_PASSWORD);
    context = await c.newContext();
    page = await c.signedIn(context, student.email, "Users");
    await expect.poll(() => page.getByRole("alert").first().innerText()).toMatch(REFUSED);
    expect(await page.getByRole("button", { name: "Send the invitation" }).count()).toBe(0);
    await c.accessible(page, "student users");
    await c.shot(page, "student-users");
    await context.close();
  }, 120_000);
});
