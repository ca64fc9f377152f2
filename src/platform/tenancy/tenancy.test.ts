import { beforeAll, describe, expect, it } from "vitest";
import { tenantDomains } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { bearer, json, makeKey } from "../../test-support/harness.js";
import { errorBody } from "../errors/handler.js";
import { normaliseHost, slugFromHost, tenantNotFound } from "./resolver.js";

describe("host parsing", () => {
  it.each([
    ["acme.localhost:3000", "acme"],
    ["ACME.LocalHost", "acme"],
    ["acme.localhost.", "acme"],
    ["a.b.localhost", null],
    ["localhost", null],
    ["acme.localhost.evil.com", null],
    ["-x.localhost", null],
  ])("%s → %s", (host, slug) => {
    expect(slugFromHost(normaliseHost(host), "localhost")).toBe(slug);
  });
});

describe("tenant resolution", () => {
  const { h, tenants } = useApi({ tenants: 2 });
  const [a, b] = tenants;
  let keyA: string;
  beforeAll(async () => {
    keyA = await makeKey(h, a, []);
  });

  it("answers 404 tenant_not_found for a host that serves no tenant", async () => {
    for (const host of ["nobody.localhost", "localhost", "example.com", `${a.slug}.other.test`]) {
      const res = await h.inject({
        method: "GET",
        url: "/api/institution/courses",
        headers: { host, ...bearer(keyA) },
      });
      expect(res.statusCode, host).toBe(404);
      expect(res.json().error).toBe("tenant_not_found");
    }
  });

  it("says which host it read and how institutions are addressed, on known and unknown paths", async () => {
    for (const url of ["/api/institution/courses", "/api/institution/no-such-route"]) {
      const res = await h.inject({
        method: "GET",
        url,
        headers: { host: "localhost:3000", "accept-language": "en-US", ...bearer(keyA) },
      });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({
        error: "tenant_not_found",
        message:
          'No institution is served at host "localhost:3000". Each institution has its own host: ' +
          "<slug>.localhost:3000, or a custom domain it has verified.",
      });
    }
  });

  it.each([
    [
      "pt-BR",
      'Nenhuma instituição é atendida no host "nobody.localhost:3000". Cada instituição tem seu próprio host: ' +
        "<slug>.localhost:3000, ou um domínio próprio que tenha verificado.",
    ],
    [
      "en-US",
      'No institution is served at host "nobody.localhost:3000". Each institution has its own host: ' +
        "<slug>.localhost:3000, or a custom domain it has verified.",
    ],
    [
      "es-ES",
      'No hay ninguna institución en el host "nobody.localhost:3000". Cada institución tiene su propio host: ' +
        "<slug>.localhost:3000, o un dominio propio que haya verificado.",
    ],
    [
      "fr-FR",
      "Aucun établissement n’est servi à l’hôte « nobody.localhost:3000 ». Chaque établissement a son propre " +
        "hôte : <slug>.localhost:3000, ou un domaine qu’il a vérifié.",
    ],
  ])("names the host and the way institutions are addressed in %s", async (locale, message) => {
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: "nobody.localhost:3000", "accept-language": locale, ...bearer(keyA) },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-language"]).toBe(locale);
    expect(res.json()).toEqual({ error: "tenant_not_found", message });
  });

  it("says so when the request has no Host header at all (HTTP/1.0)", () => {
    expect(errorBody(tenantNotFound(undefined, "localhost"), "en-US")).toEqual({
      error: "tenant_not_found",
      message:
        "The request has no Host header, so it names no institution. Each institution has its own host: " +
        "<slug>.localhost, or a custom domain it has verified.",
    });
  });

  it("keeps the port the client used, or none, in the address it suggests", async () => {
    const at = async (host: string) =>
      (
        await h.inject({
          method: "GET",
          url: "/api/institution/courses",
          headers: { host, "accept-language": "en-US", ...bearer(keyA) },
        })
      ).json().message as string;
    expect(await at("example.com")).toContain(
      'host "example.com". Each institution has its own host: <slug>.localhost,',
    );
    expect(await at("[::1]:8080")).toContain(
      'host "[::1]:8080". Each institution has its own host: <slug>.localhost:8080,',
    );
  });

  it("serves a tenant on a verified custom domain only", async () => {
    await h.database.db.insert(tenantDomains).values([
      {
        tenantId: a.id,
        host: `learn.${a.slug}.example`,
        verificationToken: "t1",
        verifiedAt: new Date().toISOString(),
      },
      { tenantId: a.id, host: `pending.${a.slug}.example`, verificationToken: "t2" },
    ]);
    const verified = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: `learn.${a.slug}.example:443`, ...bearer(keyA) },
    });
    expect(verified.statusCode).toBe(200);
    const pending = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: `pending.${a.slug}.example`, ...bearer(keyA) },
    });
    expect(pending.statusCode).toBe(404);
    expect(pending.json().error).toBe("tenant_not_found");
  });

  it("ignores tenant hints in headers and the query, and refuses one in the body", async () => {
    const created = await h.inject({
      method: "POST",
      url: `/api/institution/courses?tenantId=${b.id}`,
      headers: { host: a.host, ...json, ...bearer(keyA), "x-tenant-id": b.id },
      payload: { title: "Where am I?" },
    });
    expect(created.statusCode).toBe(201);
    const inA = await h.inject({
      method: "GET",
      url: `/api/institution/courses/${created.json().id}`,
      headers: { host: a.host, ...bearer(keyA) },
    });
    expect(inA.statusCode).toBe(200);
    const keyB = await makeKey(h, b, []);
    const inB = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: b.host, ...bearer(keyB) },
    });
    expect(inB.json().pagination.total).toBe(0);
    const inBody = await h.inject({
      method: "POST",
      url: "/api/institution/courses",
      headers: { host: a.host, ...json, ...bearer(keyA) },
      payload: { title: "x", tenantId: b.id },
    });
    expect(inBody.statusCode).toBe(400);
    expect(inBody.json().details).toEqual([{ field: "tenantId", message: "Este campo não é permitido." }]);
  });
});
