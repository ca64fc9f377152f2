import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { platformEvents, themes } from "../../db/schema/index.js";
import { fieldsOf, type Method, useApi } from "../../test-support/api.js";
import { adminCookie, makeKey, makeTenant, roleCookie, type TestTenant } from "../../test-support/harness.js";
import { uploadLocal } from "../../test-support/media-client.js";
import { pdf, png } from "../../test-support/media-files.js";
import { sanitiseCss } from "./css.js";
import { DEFAULT_VARIABLES } from "./schemas.js";

const { h, tenants, call } = useApi({ tenants: 2, call: { language: null } });
const [a, b] = tenants;
let cookieA: string;
let cookieB: string;

beforeAll(async () => {
  cookieA = await adminCookie(h, a);
  cookieB = await adminCookie(h, b);
});

const A = (method: Method, url: string, payload?: unknown) => call(a, cookieA, method, url, payload);

const compiled = (t: TestTenant, headers: Record<string, string> = {}) =>
  h.inject({
    method: "GET",
    url: "/api/institution/themes/active/variables",
    headers: { host: t.host, ...headers },
  });

describe("themes", () => {
  it("validates brand variables: #RRGGBB colours, allow-listed fonts, radius 0–24, no unknown keys", async () => {
    const res = await A("POST", "/themes", {
      name: "Bad",
      variables: { primaryColor: "red", fontBody: "Comic Sans MS", borderRadiusPx: 40, shadow: "none" },
    });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res)).toEqual([
      "variables.borderRadiusPx",
      "variables.fontBody",
      "variables.primaryColor",
      "variables.shadow",
    ]);
  });

  it("creates drafts, versions every change, sanitises CSS, and refuses CSS that does not parse", async () => {
    const created = await A("POST", "/themes", {
      name: "Institucional",
      variables: { primaryColor: "#0B5FFF", fontHeading: "Montserrat" },
      customCss:
        '@import url("https://evil.example/x.css"); .hero{color:#111;background:url(http://x.example/a.png)} ' +
        ".logo{width:expression(alert(1));background:url('https://cdn.example/l.png')}",
    });
    expect(created.statusCode, created.body).toBe(201);
    const theme = created.json();
    expect(theme).toMatchObject({ status: "draft", version: 1, logoMediaId: null });
    expect(theme.customCss).not.toMatch(/@import|expression|http:\/\//);
    expect(theme.customCss).toContain("https://cdn.example/l.png");
    expect(theme.customCss).toContain("color:#111");

    const changed = await A("PATCH", `/themes/${theme.id}`, { name: "Institucional 2026" });
    expect(changed.json()).toMatchObject({ name: "Institucional 2026", version: 2 });
    const broken = await A("PATCH", `/themes/${theme.id}`, { customCss: ".a{color:red" });
    expect(broken.statusCode).toBe(400);
    expect(fieldsOf(broken)).toEqual(["customCss"]);
    expect((await A("GET", `/themes/${theme.id}`)).json().version).toBe(2);
  });

  it("keeps one active theme, records theme_activated, and refuses to delete or archive the active one", async () => {
    const t = await makeTenant(h);
    const c = await adminCookie(h, t);
    const first = (await call(t, c, "POST", "/themes", { name: "One" })).json();
    const second = (await call(t, c, "POST", "/themes", { name: "Two" })).json();
    expect((await call(t, c, "POST", `/themes/${first.id}/activate`)).json().status).toBe("active");
    const now = await call(t, c, "POST", `/themes/${second.id}/activate`);
    expect(now.json()).toMatchObject({ status: "active" });
    expect((await call(t, c, "GET", `/themes/${first.id}`)).json().status).toBe("draft");
    const active = await h.database.db
      .select()
      .from(themes)
      .where(and(eq(themes.tenantId, t.id), eq(themes.status, "active")));
    expect(active.map((r) => r.id)).toEqual([second.id]);
    const events = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "theme_activated")));
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ themeId: first.id, previousThemeId: null }),
      expect.objectContaining({ themeId: second.id, previousThemeId: first.id }),
    ]);
    expect((await call(t, c, "DELETE", `/themes/${second.id}`)).statusCode).toBe(409);
    expect((await call(t, c, "PATCH", `/themes/${second.id}`, { status: "archived" })).statusCode).toBe(409);
    expect((await call(t, c, "DELETE", `/themes/${first.id}`)).statusCode).toBe(204);
    // Concurrent activations: the index keeps one winner.
    const x = (await call(t, c, "POST", "/themes", { name: "X" })).json();
    const y = (await call(t, c, "POST", "/themes", { name: "Y" })).json();
    const results = await Promise.all([
      call(t, c, "POST", `/themes/${x.id}/activate`),
      call(t, c, "POST", `/themes/${y.id}/activate`),
    ]);
    expect(results.every((r) => [200, 409].includes(r.statusCode))).toBe(true);
    const after = await h.database.db
      .select()
      .from(themes)
      .where(and(eq(themes.tenantId, t.id), eq(themes.status, "active")));
    expect(after).toHaveLength(1);
  });

  it("serves the compiled variables publicly on the institution's host, cacheable by version", async () => {
    const t = await makeTenant(h);
    const c = await adminCookie(h, t);
    const none = await compiled(t);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toMatchObject({ themeId: null, version: 0, variables: DEFAULT_VARIABLES });

    const theme = (
      await call(t, c, "POST", "/themes", {
        name: "Brand",
        variables: { primaryColor: "#AA0000", borderRadiusPx: 4 },
        customCss: ".x{color:red}",
      })
    ).json();
    await call(t, c, "POST", `/themes/${theme.id}/activate`);
    const res = await compiled(t);
    const body = res.json();
    expect(body).toMatchObject({
      themeId: theme.id,
      variables: { ...DEFAULT_VARIABLES, primaryColor: "#AA0000", borderRadiusPx: 4 },
    });
    expect(body.css).toContain("--aula-primary-color:#AA0000;");
    expect(body.css).toContain("--aula-border-radius:4px;");
    // The same properties by name, each exactly as the CSS text sets it.
    expect(body.properties).toMatchObject({
      "--aula-primary-color": "#AA0000",
      "--aula-border-radius": "4px",
      "--aula-font-body": "system-ui, sans-serif",
    });
    expect(Object.keys(body.properties)).toHaveLength(Object.keys(DEFAULT_VARIABLES).length);
    for (const [name, value] of Object.entries(body.properties))
      expect(body.css).toContain(`${name}:${value};`);
    expect(body.css).toContain(".x{color:red}");
    const etag = res.headers.etag as string;
    expect(etag).toBe(`"${theme.id}-${body.version}"`);
    const cached = await compiled(t, { "if-none-match": etag });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe("");
    await call(t, c, "PATCH", `/themes/${theme.id}`, { variables: { primaryColor: "#00AA00" } });
    const fresh = await compiled(t, { "if-none-match": etag });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().variables.primaryColor).toBe("#00AA00");
    // Another institution's host shows its own brand.
    expect((await compiled(b)).json().themeId).toBeNull();
  });

  it("is another institution's business: its theme ids are 404 and stay unchanged", async () => {
    const theirs = (await call(b, cookieB, "POST", "/themes", { name: "Beta" })).json();
    for (const [method, url, body] of [
      ["GET", `/themes/${theirs.id}`, undefined],
      ["PATCH", `/themes/${theirs.id}`, { name: "Hacked" }],
      ["DELETE", `/themes/${theirs.id}`, undefined],
      ["POST", `/themes/${theirs.id}/activate`, undefined],
    ] as const) {
      expect((await A(method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(b, cookieB, "GET", `/themes/${theirs.id}`)).json()).toEqual(theirs);
  });

  it("is staff's to read and administrators' to change", async () => {
    const student = await roleCookie(h, a, "student");
    expect((await call(a, student, "GET", "/themes")).statusCode).toBe(403);
    const teacher = await roleCookie(h, a, "teacher");
    expect((await call(a, teacher, "GET", "/themes")).statusCode).toBe(200);
    expect((await call(a, teacher, "POST", "/themes", { name: "T" })).statusCode).toBe(403);
  });
});

describe("theme images", () => {
  /** A ready file of `t` through the three upload steps. */
  async function ready(t: TestTenant, bytes: Buffer, contentType: string): Promise<string> {
    const key = await makeKey(h, t, ["media:read", "media:write"]);
    const { completed } = await uploadLocal(h, t, key, { contentType, bytes });
    expect(completed?.json().status).toBe("ready");
    return completed?.json().id as string;
  }

  it("takes only ready images of the institution as logo, favicon and login background", async () => {
    const logo = await ready(a, png(), "image/png");
    const document = await ready(a, pdf(), "application/pdf");
    const theirs = await ready(b, png(), "image/png");
    const made = await A("POST", "/themes", { name: "Com logo", logoMediaId: logo, faviconMediaId: logo });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ logoMediaId: logo, faviconMediaId: logo });
    const wrong = await A("POST", "/themes", { name: "PDF", logoMediaId: document });
    expect(wrong.statusCode).toBe(400);
    expect(fieldsOf(wrong)).toEqual(["logoMediaId"]);
    const foreign = await A("PATCH", `/themes/${made.json().id}`, { loginBackgroundMediaId: theirs });
    expect(foreign.statusCode).toBe(400);
    expect(fieldsOf(foreign)).toEqual(["loginBackgroundMediaId"]);
    expect((await A("GET", `/themes/${made.json().id}`)).json().loginBackgroundMediaId).toBeNull();
  });

  it("loses a deleted file and moves to a new version, so the compiled variables never name it", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const logo = await ready(t, png(), "image/png");
    const made = await call(t, cookie, "POST", "/themes", { name: "Ativo", logoMediaId: logo });
    const id = made.json().id as string;
    expect((await call(t, cookie, "POST", `/themes/${id}/activate`)).statusCode).toBe(200);
    const before = await compiled(t);
    expect(before.json().logoMediaId).toBe(logo);
    const deleted = await call(t, cookie, "DELETE", `/media/${logo}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    const theme = (await call(t, cookie, "GET", `/themes/${id}`)).json();
    expect(theme).toMatchObject({ logoMediaId: null, version: made.json().version + 2 });
    const after = await compiled(t, { "if-none-match": String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.json().logoMediaId).toBeNull();
  });
});

describe("sanitiseCss", () => {
  it("removes what fetches or runs, keeps the rest, and refuses what does not parse", () => {
    expect(
      sanitiseCss(
        "@charset 'x'; @namespace svg url(http://x); .a{behavior:url(x.htc);-moz-binding:url(x);color:red}",
      ),
    ).toBe(".a{color:red}");
    expect(sanitiseCss("@media (min-width: 600px) { .b { margin: 0 } }")).toBe(
      "@media (min-width: 600px) { .b { margin: 0 } }",
    );
    expect(sanitiseCss(".c{background:url(javascript:alert(1))}")).toBe(".c{}");
    expect(sanitiseCss(".c{background:url(data:image/png;base64,AAAA)}")).toBe(".c{}");
    expect(sanitiseCss('.d{content:"</style><script>"}')).not.toContain("</style");
    expect(sanitiseCss("}{")).toBeUndefined();
  });
});
