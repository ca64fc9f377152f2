import { and, eq } from "drizzle-orm";
import { transform } from "lightningcss";
import { beforeAll, describe, expect, it } from "vitest";
import { themes } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { adminCookie, json } from "../../test-support/harness.js";

/**
 * Issue 19, point 6: the theme CSS rule (only https URLs load; no @import/@charset/@namespace, expression(),
 * javascript:, behavior/-moz-binding) must hold against CSS as a browser reads it: escapes unescaped, strings in
 * image functions taken as URLs. What the API serves is read back with lightningcss, a browser-grade parser
 * independent of ours, and every resource it would load must be https.
 */

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let cookie: string;

beforeAll(async () => {
  cookie = await adminCookie(h, t);
});

const api = (method: "GET" | "POST" | "PATCH", url: string, payload?: unknown) =>
  h.inject({
    method,
    url: `/api/institution${url}`,
    headers: { host: t.host, cookie, ...(payload === undefined ? {} : json) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });

/** Creates a theme with this CSS, activates it, and answers the theme and the CSS the public endpoint serves. */
async function served(customCss: string) {
  const created = await api("POST", "/themes", { name: "Escapes", customCss });
  expect(created.statusCode, created.body).toBe(201);
  const theme = created.json();
  expect((await api("POST", `/themes/${theme.id}/activate`)).statusCode).toBe(200);
  const compiled = await h.inject({
    method: "GET",
    url: "/api/institution/themes/active/variables",
    headers: { host: t.host },
  });
  expect(compiled.statusCode).toBe(200);
  return { theme, css: compiled.json().css as string };
}

/** What a browser-grade parser says the CSS loads: every URL and @import, after unescaping. */
function loads(css: string): { type: string; url: string }[] {
  const result = transform({
    filename: "theme.css",
    code: Buffer.from(css),
    errorRecovery: true,
    analyzeDependencies: true,
  });
  return (result.dependencies ?? []).flatMap((d) => ("url" in d ? [{ type: d.type, url: d.url }] : []));
}

async function storedCss(id: string): Promise<string | null> {
  const [row] = await h.database.db
    .select({ customCss: themes.customCss })
    .from(themes)
    .where(and(eq(themes.tenantId, t.id), eq(themes.id, id)));
  return row?.customCss ?? null;
}

describe("theme CSS as a browser reads it", () => {
  it("removes non-https URLs spelt with escapes, in image functions, in src() and in @font-face", async () => {
    const css = [
      '.a{background:u\\rl("//evil.example/a.png");color:#010101}',
      '.b{background-image:image-set("http://evil.example/b.png" 1x);color:#020202}',
      ".c{background-image:-webkit-image-set('//evil.example/c.png' 1x, url(https://cdn.example/c.png) 2x);color:#030303}",
      '.d{mask-image:image("http://evil.example/d.svg", red);color:#040404}',
      '.e{background:src("http://evil.example/e.png");color:#050505}',
      '.f{background-image:cross-fade(url(https://cdn.example/f.png) 50%, \\55RL("http://evil.example/f.png"));color:#060606}',
      "@font-face{font-family:Evil;src:url(http://evil.example/e.woff2) format('woff2')}",
      "@font-face{font-family:Good;src:url(https://cdn.example/g.woff2) format('woff2'), local('Good')}",
      '.g{background-image:image-set("https://cdn.example/g.png" 1x, "https://cdn.example/g2.png" 2x)}',
    ].join("\n");
    const { theme, css: out } = await served(css);
    expect(theme.customCss).toBe(
      [
        ".a{color:#010101}",
        ".b{color:#020202}",
        ".c{color:#030303}",
        ".d{color:#040404}",
        ".e{color:#050505}",
        ".f{color:#060606}",
        "@font-face{font-family:Evil;}",
        "@font-face{font-family:Good;src:url(https://cdn.example/g.woff2) format('woff2'), local('Good')}",
        '.g{background-image:image-set("https://cdn.example/g.png" 1x, "https://cdn.example/g2.png" 2x)}',
      ].join("\n"),
    );
    expect(await storedCss(theme.id)).toBe(theme.customCss);
    const urls = loads(out);
    expect(urls.map((d) => d.url).sort()).toEqual([
      "https://cdn.example/g.png",
      "https://cdn.example/g.woff2",
      "https://cdn.example/g2.png",
    ]);
    expect(out).not.toMatch(/evil\.example/);
  });

  it("removes escaped @import, @charset and @namespace, behavior, -moz-binding, expression() and javascript:", async () => {
    const { theme, css: out } = await served(
      [
        "@\\69mport 'http://evil.example/x.css';",
        "@\\63harset 'utf-8';",
        "@NAMESP\\41 CE svg url(http://evil.example/ns);",
        ".a{\\62 ehavior:url(https://evil.example/x.htc);color:#0a0a0a}",
        ".b{-\\6doz-binding:url(https://evil.example/x.xml#b);color:#0b0b0b}",
        ".c{width:e\\78pression(alert(1));color:#0c0c0c}",
        ".d{background:url(java\\73 cript:alert(1));color:#0d0d0d}",
        ".e{cursor:JAVA\\53 CRIPT:alert(1);color:#0e0e0e}",
      ].join("\n"),
    );
    expect(theme.customCss).toBe(
      [
        ".a{color:#0a0a0a}",
        ".b{color:#0b0b0b}",
        ".c{color:#0c0c0c}",
        ".d{color:#0d0d0d}",
        ".e{color:#0e0e0e}",
      ].join("\n"),
    );
    expect(loads(out)).toEqual([]);
  });

  it("does not let a custom property or another substitution feed a URL function", async () => {
    const { theme, css: out } = await served(
      '.a{--u:"http://evil.example/u.png" 1x;--w:url(http://evil.example/w.png);' +
        "background-image:image-set(var(--u));mask-image:src(env(x));color:#0f0f0f}",
    );
    expect(theme.customCss).toBe('.a{--u:"http://evil.example/u.png" 1x;color:#0f0f0f}');
    expect(out).not.toMatch(/image-set|src\(|url\(/);
  });

  it("refuses what a browser and a tokenizer could read differently, and what nests without bound", async () => {
    const before = (await api("GET", "/themes?perPage=100")).json().pagination.total;
    const cases = [
      // A browser reads `\75rl(` as `url(`: one url token up to `)`; refused rather than guessed at.
      ".a{background:\\75rl(http://evil.example/x.png)}",
      ".a{background:\\75 rl( //evil.example/x.png )}",
      // Deeper than 32 blocks: the splitter's recursion is bounded.
      `${".a{".repeat(40)}color:red${"}".repeat(40)}`,
      `.a{width:${"calc(".repeat(40)}1px${")".repeat(40)}}`,
      // A string or comment left open would swallow whatever is appended after the theme's CSS.
      ".a{color:red}/* open",
      "x".repeat(50_001),
    ];
    for (const customCss of cases) {
      const res = await api("POST", "/themes", { name: "Refused", customCss });
      expect(res.statusCode, customCss.slice(0, 60)).toBe(400);
      expect(res.json().error).toBe("validation_failed");
      expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(["customCss"]);
    }
    // The refusal says why, not only "not valid" (issue 21, point 5).
    const open = await api("POST", "/themes", { name: "Refused", customCss: ".a{color:red}/* open" });
    expect(open.json().details[0].message).not.toMatch(/válido|valid/i);
    expect(open.json().details[0].message).toMatch(/CSS/);
    expect((await api("GET", "/themes?perPage=100")).json().pagination.total).toBe(before);
  });

  it("keeps what the rule allows as written: nesting, @media, @keyframes, https URLs, comments", async () => {
    const css =
      "/* brand */\n@media (min-width: 600px) {\n  .hero { background: url( 'https://cdn.example/h.png' ) }\n}\n" +
      ".card { color: #111; &:hover { color: #222 } .title { font-weight: 700 } }\n" +
      "@keyframes pulse { from { opacity: 0 } 50% { opacity: .5 } to { opacity: 1 } }\n" +
      '.icon::before { content: "\\2192"; cursor: url(https://cdn.example/c.cur), auto }';
    const { theme, css: out } = await served(css);
    expect(theme.customCss).toBe(css);
    expect(loads(out).map((d) => d.url)).toEqual(["https://cdn.example/h.png", "https://cdn.example/c.cur"]);
  });
});
