import { exportJWK, generateKeyPair } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { adminCookie, makeKey } from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let adminA: string;
let adminB: string;
let keyA: string;
let jwk: Record<string, unknown>;

const BASE = "/api/institution/lti-tools";
const call = callerFor(h, () => ({ tenant: a, credential: adminA }), WHOLE_PATHS);

const toolBody = (publicJwk: Record<string, unknown>) => ({
  name: "Laboratório",
  targetLinkUri: "https://tool.example.com/launch",
  oidcInitiationUrl: "https://tool.example.com/login",
  redirectUris: ["https://tool.example.com/launch"],
  publicJwk,
  privacyLevel: "name_only",
  customParameters: { who: "$User.id" },
});

beforeAll(async () => {
  adminA = await adminCookie(h, a);
  adminB = await adminCookie(h, b);
  keyA = await makeKey(h, a, ["lti:read", "lti:write"]);
  const { publicKey } = await generateKeyPair("RS256");
  jwk = { ...(await exportJWK(publicKey)), alg: "RS256" };
});

describe("LTI tool registration", () => {
  it("registers a tool by hand, issuing its client and deployment ids, and lists, reads, updates and deletes it", async () => {
    const created = await call("POST", BASE, toolBody(jwk));
    expect(created.statusCode).toBe(201);
    const tool = created.json();
    expect(tool).toMatchObject({
      name: "Laboratório",
      ltiVersion: "1.3",
      registrationMethod: "manual",
      privacyLevel: "name_only",
      status: "active",
      scopes: [],
      platform: {
        issuer: `http://${a.host}`,
        authorizationUrl: `http://${a.host}/api/institution/lti/authorize`,
        tokenUrl: `http://${a.host}/api/institution/lti/token`,
        jwksUrl: `http://${a.host}/api/institution/lti/jwks`,
      },
    });
    expect(tool.clientId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(tool.deploymentIds).toHaveLength(1);

    const list = await call("GET", `${BASE}?status=active`, undefined, keyA);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((t: { id: string }) => t.id)).toContain(tool.id);
    expect(list.json().pagination).toMatchObject({ total: list.json().data.length, totalRelation: "eq" });
    expect((await call("GET", `${BASE}/${tool.id}`, undefined, keyA)).json().clientId).toBe(tool.clientId);

    const renamed = await call("PATCH", `${BASE}/${tool.id}`, { name: "Lab 2", status: "disabled" }, keyA);
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: "Lab 2", status: "disabled" });
    expect((await call("GET", `${BASE}?status=disabled`)).json().pagination.total).toBe(1);

    // Where launches go and the tool's keys are credentials: a key may not move them.
    const moved = await call(
      "PATCH",
      `${BASE}/${tool.id}`,
      { redirectUris: ["https://evil.example/x"] },
      keyA,
    );
    expect(moved.statusCode).toBe(403);
    expect(moved.json().error).toBe("session_required");
    const byAdmin = await call("PATCH", `${BASE}/${tool.id}`, {
      redirectUris: ["https://tool.example.com/b"],
    });
    expect(byAdmin.json().redirectUris).toEqual(["https://tool.example.com/b"]);

    expect((await call("DELETE", `${BASE}/${tool.id}`)).statusCode).toBe(204);
    expect((await call("GET", `${BASE}/${tool.id}`)).statusCode).toBe(404);
  });

  it("refuses plain-http, private, keyless and malformed registrations", async () => {
    const bad = await call("POST", BASE, {
      ...toolBody(jwk),
      targetLinkUri: "http://tool.example.com/launch",
      redirectUris: ["javascript:alert(1)"],
      iconUrl: "https://user:pw@tool.example.com/i.png",
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(["iconUrl", "redirectUris.0", "targetLinkUri"]);
    const { publicJwk: _drop, ...keyless } = toolBody(jwk);
    const none = await call("POST", BASE, keyless);
    expect(none.json().details).toEqual([expect.objectContaining({ field: "jwksUrl" })]);
    const priv = await call("POST", BASE, { ...keyless, jwksUrl: "https://169.254.169.254/keys" });
    expect(priv.json().details).toEqual([expect.objectContaining({ field: "jwksUrl" })]);
    const broken = await call("POST", BASE, { ...keyless, publicJwk: { kty: "RSA", n: "AAAA", e: "AQAB" } });
    expect(broken.json().details).toEqual([expect.objectContaining({ field: "publicJwk" })]);
    const secret = await call("POST", BASE, { ...keyless, publicJwk: { ...jwk, d: "private" } });
    expect(secret.statusCode).toBe(400);
    // A loopback http URL is a secure context to browsers: a tool developed locally.
    const local = await call("POST", BASE, {
      ...toolBody(jwk),
      targetLinkUri: "http://localhost:4000/launch",
      oidcInitiationUrl: "http://127.0.0.1:4000/login",
    });
    expect(local.statusCode).toBe(201);
  });

  it("keeps tools inside their institution", async () => {
    const tool = (await call("POST", BASE, toolBody(jwk))).json();
    for (const [method, payload] of [["GET"], ["PATCH", { name: "X" }], ["DELETE"]] as const) {
      const res = await call(method, `${BASE}/${tool.id}`, payload, adminB, b);
      expect(res.statusCode).toBe(404);
    }
    const listB = (await call("GET", BASE, undefined, adminB, b)).json();
    expect(listB.data.map((t: { id: string }) => t.id)).not.toContain(tool.id);
    expect((await call("GET", `${BASE}/${tool.id}`)).json().name).toBe("Laboratório");
  });

  it("answers the platform configuration on the request's host", async () => {
    const res = await call("GET", `${BASE}/platform-config`, undefined, keyA);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      issuer: `http://${a.host}`,
      authorizationUrl: `http://${a.host}/api/institution/lti/authorize`,
      tokenUrl: `http://${a.host}/api/institution/lti/token`,
      jwksUrl: `http://${a.host}/api/institution/lti/jwks`,
    });
  });
});
