import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { bearer, json, makeKey, makeTenant, startHarness } from "../../test-support/harness.js";

const { h, tenants } = useApi({ env: { BODY_LIMIT_BYTES: "2048" }, tenants: 1 });
const [t] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, t, []);
});

const courses = (payload: string, contentType = "application/json") =>
  h.inject({
    method: "POST",
    url: "/api/institution/courses",
    headers: { host: t.host, "content-type": contentType, ...bearer(key) },
    payload,
  });

describe("Fastify's own failures use the contract's envelope", () => {
  it("answers an unknown route with 404 not_found", async () => {
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/nope",
      headers: { host: t.host, ...bearer(key) },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "not_found", message: "O recurso solicitado não foi encontrado." });
    expect(res.headers["content-language"]).toBe("pt-BR");
  });

  it("answers malformed JSON with 400 invalid_json", async () => {
    const res = await courses('{"title": ');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("invalid_json");
    // An empty body is no body, not malformed JSON (src/platform/http/empty-body.test.ts).
    const empty = await courses("");
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe("validation_failed");
  });

  it("answers an oversized body with 413 payload_too_large", async () => {
    const res = await courses(JSON.stringify({ title: "x".repeat(4096) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe("payload_too_large");
  });

  it("answers a body that is not JSON with 415 unsupported_media_type", async () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/xml",
    ]) {
      const res = await courses("title=x", type);
      expect(res.statusCode, type).toBe(415);
      expect(res.json().error).toBe("unsupported_media_type");
    }
    const list = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: t.host, ...bearer(key) },
    });
    expect(list.json().pagination.total).toBe(0);
  });

  it("accepts JSON with a charset parameter", async () => {
    const res = await courses(JSON.stringify({ title: "ok" }), "application/json; charset=utf-8");
    expect(res.statusCode).toBe(201);
  });

  it("lists every invalid field in details, with localised messages", async () => {
    const res = await h.inject({
      method: "POST",
      url: "/api/institution/courses",
      headers: { host: t.host, ...json, ...bearer(key), "accept-language": "fr-FR" },
      payload: { title: 5, extra: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-language"]).toBe("fr-FR");
    expect(res.json()).toEqual({
      error: "validation_failed",
      message: "La requête n’est pas valide. Consultez le détail de chaque champ.",
      details: [
        { field: "extra", message: "Ce champ n’est pas autorisé." },
        { field: "title", message: "Doit être de type string." },
      ],
    });
  });

  it("does not coerce body types", async () => {
    const res = await courses(JSON.stringify({ title: "ok", description: 12 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe("description");
  });
});

describe("a 500", () => {
  it("is logged with the request id and answered without detail", async () => {
    const lines: string[] = [];
    const own = await startHarness(
      {},
      {
        onLog: (line) => void lines.push(line),
        logLevel: "error",
        routes: (app) =>
          app.get("/api/boom", { config: { access: { kind: "public" } } }, async () => {
            throw new Error("SELECT secret FROM pg_shadow at /srv/aula/src/x.ts:12");
          }),
      },
    );
    try {
      const res = await own.inject({
        method: "GET",
        url: "/api/boom",
        headers: { "accept-language": "en-US" },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        error: "internal_error",
        message: "An unexpected error occurred. Please try again later.",
      });
      expect(res.body).not.toMatch(/SELECT|pg_shadow|\/srv|stack/);
      const requestId = res.headers["x-request-id"];
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === "request failed");
      expect(logged.reqId).toBe(requestId);
      expect(logged.err.message).toContain("pg_shadow");
    } finally {
      await own.close();
    }
  });
});

describe("logs", () => {
  it("never contain API keys, session cookies or passwords", async () => {
    const lines: string[] = [];
    const own = await startHarness({}, { onLog: (line) => void lines.push(line) });
    try {
      const tenant = await makeTenant(own);
      const secret = await makeKey(own, tenant, []);
      await own.inject({
        method: "GET",
        url: "/api/institution/courses",
        headers: { host: tenant.host, ...bearer(secret) },
      });
      const login = await own.inject({
        method: "POST",
        url: "/api/auth/login",
        headers: { host: tenant.host, ...json },
        payload: { email: tenant.adminEmail, password: tenant.password },
      });
      expect(login.statusCode).toBe(200);
      const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
      await own.inject({
        method: "GET",
        url: "/api/institution/courses",
        headers: { host: tenant.host, cookie },
      });
      const all = lines.join("\n");
      expect(lines.filter((l) => JSON.parse(l).msg === "request")).toHaveLength(3);
      expect(all).not.toContain(secret);
      expect(all).not.toContain(tenant.password);
      for (const c of login.cookies) expect(all).not.toContain(c.value);
    } finally {
      await own.close();
    }
  });
});

describe("security headers", () => {
  it("sends nosniff, no X-Powered-By, and no-store on authenticated answers", async () => {
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: t.host, ...bearer(key) },
    });
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-powered-by"]).toBeUndefined();
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("keeps health answers free of versions and connection strings", async () => {
    for (const url of ["/healthz", "/readyz"]) {
      const res = await h.inject({ method: "GET", url });
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json())).toEqual(["status"]);
      expect(res.body).not.toMatch(/postgres|redis|version|\d+\.\d+\.\d+/i);
    }
  });
});
