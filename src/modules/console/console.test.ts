import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { type Harness, makeTenant, startHarness } from "../../test-support/harness.js";
import { CONSOLE_CSP } from "./routes.js";

/** A console build's shape (what Vite writes): index.html naming a content-hashed script under assets/. */
const dir = mkdtempSync(join(tmpdir(), "aula-console-"));
const INDEX =
  '<!doctype html><html><head><script type="module" src="/admin/assets/index-Ab12_c.js"></script></head></html>';
const SCRIPT = "console.log('the console');\n";
mkdirSync(join(dir, "assets"));
writeFileSync(join(dir, "index.html"), INDEX);
writeFileSync(join(dir, "assets", "index-Ab12_c.js"), SCRIPT);
writeFileSync(join(dir, "first-visit.json"), "{}");

const { h, tenants } = useApi({ tenants: 1, env: () => ({ CONSOLE_DIR: dir }) });
const [a] = tenants;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (url: string, host = a.host) => h.inject({ method: "GET", url, headers: { host } });

describe("the admin console at /admin", () => {
  it.each(["/admin", "/admin/", "/admin/api-keys", "/admin/webhooks/123/deliveries"])(
    "answers %s with index.html, locked down and never cached (the app routes it)",
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["content-security-policy"]).toBe(CONSOLE_CSP);
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    },
  );

  it("allows only its own scripts and styles, no framing", () => {
    expect(CONSOLE_CSP).toContain("default-src 'none'");
    expect(CONSOLE_CSP).toContain("script-src 'self';");
    expect(CONSOLE_CSP).toContain("style-src 'self';");
    expect(CONSOLE_CSP).toContain("connect-src 'self';");
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CSP).not.toContain("unsafe");
  });

  it("serves a hashed asset for good, and 404 for one it does not have", async () => {
    const res = await get("/admin/assets/index-Ab12_c.js");
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(SCRIPT);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    for (const missing of [
      "/admin/assets/index-Zz99.js",
      "/admin/assets/",
      "/admin/assets/..%2Findex.html",
    ]) {
      const res = await get(missing);
      expect(res.statusCode, missing).toBe(404);
      expect(res.json().error, missing).toBe("not_found");
      expect(res.headers["cache-control"], missing).not.toContain("immutable");
    }
    // Beside index.html but not an asset: not served.
    expect((await get("/admin/assets/../first-visit.json")).body).not.toBe("{}");
  });

  it("sends a text asset gzipped to a browser that takes gzip, and as it is otherwise", async () => {
    const url = "/admin/assets/index-Ab12_c.js";
    for (const accept of ["gzip, deflate, br, zstd", "br;q=1, gzip;q=0.5", "*"]) {
      const res = await h.inject({
        method: "GET",
        url,
        headers: { host: a.host, "accept-encoding": accept },
      });
      expect(res.headers["content-encoding"], accept).toBe("gzip");
      expect(res.headers.vary, accept).toContain("accept-encoding");
      expect(gunzipSync(res.rawPayload).toString(), accept).toBe(SCRIPT);
    }
    for (const accept of ["identity", "gzip;q=0", "br"]) {
      const res = await h.inject({
        method: "GET",
        url,
        headers: { host: a.host, "accept-encoding": accept },
      });
      expect(res.headers["content-encoding"], accept).toBeUndefined();
      expect(res.body, accept).toBe(SCRIPT);
    }
  });

  it("is served on an institution's host only", async () => {
    for (const url of ["/admin", "/admin/api-keys", "/admin/assets/index-Ab12_c.js"]) {
      const res = await get(url, "nobody.localhost");
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error, url).toBe("tenant_not_found");
    }
  });
});

describe("an installation without a console build", () => {
  let bare: Harness;
  let host: string;
  beforeAll(async () => {
    bare = await startHarness({ CONSOLE_DIR: join(dir, "none") });
    host = (await makeTenant(bare)).host;
  });
  afterAll(() => bare?.close());

  it("answers /admin with 404, not an error", async () => {
    const res = await bare.inject({ method: "GET", url: "/admin", headers: { host } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe("not_found");
  });
});
