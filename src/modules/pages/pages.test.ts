import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { tenants } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { makeTenant, type TestTenant } from "../../test-support/harness.js";

const { h } = useApi();
let a: TestTenant;

beforeAll(async () => {
  a = await makeTenant(h, 'Escola <Alfa> & "Cia"');
});

const page = (host: string, url: string, language?: string) =>
  h.inject({
    method: "GET",
    url,
    headers: { host, ...(language === undefined ? {} : { "accept-language": language }) },
  });

describe("the invitation and password-reset pages", () => {
  it.each([
    ["/invites/accept?token=abc", "en-US", "Accept the invitation"],
    ["/invites/accept?token=abc", "fr-FR, en;q=0.5", "Accepter l’invitation"],
    ["/reset-password?token=abc", "es", "Elegir una nueva contraseña"],
    ["/reset-password?token=abc", undefined, "Escolher uma nova senha"],
  ])("serve %s in the language asked for (%s), locked down", async (url, language, title) => {
    const res = await page(a.host, url, language);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.body).toContain(`<h1>${title}</h1>`);
    expect(res.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers.vary).toContain("Accept-Language");
    // The token stays in the address: the page never writes it out.
    expect(res.body).not.toContain("abc");
  });

  it("escape the institution's name", async () => {
    const res = await page(a.host, "/invites/accept?token=x", "en-US");
    expect(res.body).toContain("Escola &#60;Alfa&#62; &#38; &#34;Cia&#34;");
    expect(res.body).not.toContain("<Alfa>");
  });

  it("show each institution its own name, and no page on a host that serves none", async () => {
    const b = await makeTenant(h, "Beta University");
    expect((await page(b.host, "/reset-password?token=x", "en-US")).body).toContain("Beta University");
    const [row] = await h.database.db
      .select({ name: tenants.name })
      .from(tenants)
      .where(eq(tenants.id, a.id));
    expect(row?.name).toBe('Escola <Alfa> & "Cia"');
    const unknown = await page("nobody.localhost", "/invites/accept?token=x", "en-US");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe("tenant_not_found");
  });

  it("serve their script and style sheet from this server", async () => {
    const script = await page(a.host, "/pages/form.js");
    expect(script.statusCode).toBe(200);
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(script.body).toContain("form.dataset.endpoint");
    const style = await page(a.host, "/pages/form.css");
    expect(style.headers["content-type"]).toBe("text/css; charset=utf-8");
  });
});
