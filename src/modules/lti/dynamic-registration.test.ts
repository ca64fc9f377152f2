import { decodeJwt } from "jose";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { adminCookie, makeKey, roleCookie } from "../../test-support/harness.js";
import { LTI_SCOPES } from "./schemas.js";

const { h, tenants } = useApi({ tenants: 2, env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.1/32" } });
const [a, b] = tenants;
let adminA: string;
const call = callerFor(h, () => ({ tenant: a, credential: adminA }), WHOLE_PATHS);
const TOOL = "https://tool.example.com";
const CONFIG = "https://purl.imsglobal.org/spec/lti-tool-configuration";

function registration(extra: Record<string, unknown> = {}) {
  return {
    application_type: "web",
    response_types: ["id_token"],
    grant_types: ["implicit", "client_credentials"],
    initiate_login_uri: `${TOOL}/login`,
    redirect_uris: [`${TOOL}/launch`],
    client_name: "Simulador",
    jwks_uri: "http://127.0.0.1:9/keys",
    token_endpoint_auth_method: "private_key_jwt",
    scope: `${LTI_SCOPES[3]} https://example.com/not-ours`,
    contacts: ["ops@tool.example.com"],
    [CONFIG]: {
      domain: "tool.example.com",
      target_link_uri: `${TOOL}/launch`,
      custom_parameters: { uid: "$User.id" },
      messages: [{ type: "LtiResourceLinkRequest" }, { type: "LtiDeepLinkingRequest", label: "Add" }],
      secondary_domains: [],
    },
    ...extra,
  };
}

async function start(credential = adminA, tenant = a) {
  return call(
    "POST",
    "/api/institution/lti-tools/dynamic-registrations",
    { registrationUrl: `${TOOL}/register?x=1` },
    credential,
    tenant,
  );
}

async function tokenOf(res: { json(): { redirectUrl: string } }) {
  const url = new URL(res.json().redirectUrl);
  return url.searchParams.get("registration_token") ?? "";
}

function post(token: string, body: unknown, tenant = a) {
  return call(
    "POST",
    "/api/institution/lti/registrations",
    body,
    { authorization: `Bearer ${token}` },
    tenant,
  );
}

beforeAll(async () => {
  adminA = await adminCookie(h, a);
});
afterEach(() => {
  vi.useRealTimers();
});

describe("LTI Dynamic Registration", () => {
  it("publishes the platform's OpenID configuration on the institution's host", async () => {
    const res = await call("GET", "/api/institution/lti/openid-configuration", undefined, {});
    expect(res.statusCode).toBe(200);
    const base = `http://${a.host}/api/institution/lti`;
    expect(res.json()).toMatchObject({
      issuer: `http://${a.host}`,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      jwks_uri: `${base}/jwks`,
      registration_endpoint: `${base}/registrations`,
      id_token_signing_alg_values_supported: ["RS256"],
    });
  });

  it("starts from an administrator's session only, towards a browser URL", async () => {
    const res = await start();
    expect(res.statusCode).toBe(201);
    const url = new URL(res.json().redirectUrl);
    expect(url.origin + url.pathname).toBe(`${TOOL}/register`);
    expect(url.searchParams.get("x")).toBe("1");
    expect(url.searchParams.get("openid_configuration")).toBe(
      `http://${a.host}/api/institution/lti/openid-configuration`,
    );
    const claims = decodeJwt(url.searchParams.get("registration_token") ?? "");
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    expect((await start(await roleCookie(h, a, "teacher"))).statusCode).toBe(403);
    const key = await makeKey(h, a, ["lti:write"]);
    expect((await start(key)).statusCode).toBe(403);
    const bad = await call("POST", "/api/institution/lti-tools/dynamic-registrations", {
      registrationUrl: "http://tool.example.com/register",
    });
    expect(bad.statusCode).toBe(400);
  });

  it("creates the tool once from its registration, answering its client and deployment ids", async () => {
    const token = await tokenOf(await start());
    // A bad registration is refused before anything is made, and the token stays usable.
    const refused = await post(token, registration({ redirect_uris: ["http://tool.example.com/launch"] }));
    expect(refused.statusCode).toBe(400);
    expect((await post(token, registration({ jwks_uri: "http://10.0.0.1/keys" }))).statusCode).toBe(400);
    expect((await post(token, { client_name: "x" })).statusCode).toBe(400);
    const res = await post(token, registration());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      client_name: "Simulador",
      scope: LTI_SCOPES[3],
      [CONFIG]: { target_link_uri: `${TOOL}/launch`, custom_parameters: { uid: "$User.id" } },
    });
    const tool = await call("GET", `/api/institution/lti-tools/${decodeJwt(token).jti}`);
    expect(tool.json()).toMatchObject({
      registrationMethod: "dynamic",
      clientId: body.client_id,
      deploymentIds: [body[CONFIG].deployment_id],
      placements: ["deep_linking"],
      privacyLevel: "anonymous",
    });
    // Used once: a second registration with it is refused, and so is one after the tool is deleted.
    expect((await post(token, registration())).statusCode).toBe(401);
    expect((await call("DELETE", `/api/institution/lti-tools/${decodeJwt(token).jti}`)).statusCode).toBe(204);
    expect((await post(token, registration())).statusCode).toBe(401);
  });

  it("refuses a missing, tampered, expired or other institution's token", async () => {
    expect((await call("POST", "/api/institution/lti/registrations", registration(), {})).statusCode).toBe(
      401,
    );
    const token = await tokenOf(await start());
    expect((await post(`${token.slice(0, -4)}AAAA`, registration())).statusCode).toBe(401);
    // Another institution's endpoint does not take it.
    expect((await post(token, registration(), b)).statusCode).toBe(401);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() - 3601_000);
    const old = await tokenOf(await start());
    vi.useRealTimers();
    expect((await post(old, registration())).statusCode).toBe(401);
    // Nor may an administrator's session of B start anything on A.
    expect((await start(await adminCookie(h, b), a)).statusCode).toBe(401);
  });
});
