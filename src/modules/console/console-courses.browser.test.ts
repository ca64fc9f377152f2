import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable } from "../../test-support/browser.js";
import { type ConsoleInBrowser, consoleInBrowser } from "../../test-support/console-browser.js";
import { bearer, json, makeKey, makeUser, TEST_PASSWORD } from "../../test-support/harness.js";

/**
 * The console's courses page in Chromium: the list with its search and status filter, a draft published
 * (checked through the API), and the API's refusal shown when the course is gone before the click.
 */
describe.runIf(browserAvailable())("the console's courses page, in Chromium", () => {
  let c: ConsoleInBrowser;
  const ids = new Map<string, string>();
  let key: string;

  beforeAll(async () => {
    c = await consoleInBrowser({}, "Escola Gama");
    key = await makeKey(c.h, c.a, ["courses:read", "courses:write"]);
    const courses = [
      ["Álgebra Linear", "draft"],
      ["Biologia", "draft"],
      ["Química", "draft"],
      ["História", "published"],
    ];
    for (const [title, status] of courses) {
      const made = await c.h.inject({
        method: "POST",
        url: "/api/institution/courses",
        headers: { host: c.a.host, ...json, ...bearer(key) },
        payload: { title, status },
      });
      expect(made.statusCode, made.body).toBe(201);
      ids.set(title as string, made.json().id);
    }
  }, 120_000);
  afterAll(async () => {
    await c?.close();
    expect(c?.problems ?? []).toEqual([]);
  });
  const api = (method: "GET" | "DELETE", title: string) =>
    c.h.inject({
      method,
      url: `/api/institution/courses/${ids.get(title)}`,
      headers: { host: c.a.host, ...bearer(key) },
    });

  it("lists, filters and searches the courses, publishes a draft, and shows the API's refusal", async () => {
    const context = await c.newContext();
    const page = await c.signedIn(context, c.a.adminEmail, "Courses");
    expect(new URL(page.url()).pathname).toBe("/admin/courses");
    await page.getByRole("row", { name: /História/ }).waitFor();
    expect(await page.getByRole("button", { name: "Publish História" }).count()).toBe(0);
    await c.accessible(page, "courses");
    await c.shot(page, "courses");

    await page.getByLabel("Status").selectOption("draft");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("Page 1 of 1 (3 found)").waitFor();
    await page.getByLabel("Search by title or description").fill("algebra");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("Page 1 of 1 (1 found)").waitFor();
    await page.getByRole("button", { name: "Publish Álgebra Linear" }).click();
    await page.getByText("Álgebra Linear was published.").waitFor();
    await page.getByText("No course matches.").waitFor();
    expect((await api("GET", "Álgebra Linear")).json().status).toBe("published");

    // Gone between the list and the click: the API's 404, in its words.
    await page.getByLabel("Search by title or description").fill("");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByText("Page 1 of 1 (2 found)").waitFor();
    expect((await api("DELETE", "Biologia")).statusCode).toBe(204);
    await page.getByRole("button", { name: "Publish Biologia" }).click();
    await expect
      .poll(() => page.getByRole("alert").innerText())
      .toContain("The requested resource was not found.");
    await c.accessible(page, "courses refused");
    await c.shot(page, "courses-refused");
    await context.close();
  }, 120_000);

  it("lets a teacher publish, and offers a student no button (the API would refuse it)", async () => {
    const teacher = await makeUser(c.h, c.a, "teacher", TEST_PASSWORD);
    let context = await c.newContext();
    let page = await c.signedIn(context, teacher.email, "Courses");
    await page.getByRole("button", { name: "Publish Química" }).click();
    await page.getByText("Química was published.").waitFor();
    expect((await api("GET", "Química")).json().status).toBe("published");
    await c.accessible(page, "teacher courses");
    await c.shot(page, "teacher-courses");
    await context.close();

    const student = await makeUser(c.h, c.a, "student", TEST_PASSWORD);
    context = await c.newContext();
    page = await c.signedIn(context, student.email, "Courses");
    // A student's list holds the published courses they are enrolled in: none here.
    await page.getByText("No course matches.").waitFor();
    expect(await page.getByRole("button", { name: /^Publish/ }).count()).toBe(0);
    await c.accessible(page, "student courses");
    await c.shot(page, "student-courses");
    await context.close();
  }, 120_000);
});
