/**
 * A hand-written LTI 1.3 tool for the module's tests, on `jose`: it completes the OIDC login initiation the way
 * a tool does (its own state and nonce), reads the form-posted id_token out of the platform's page, and verifies
 * it against the platform's published JWKS. The round trip against a real tool library is ltijs-tool.ts.
 */
import { randomBytes } from "node:crypto";
import {
  type CryptoKey,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JWK,
  jwtVerify,
  SignJWT,
} from "jose";
import type { Harness, TestTenant } from "./harness.js";

export interface TestTool {
  publicJwk: JWK;
  privateKey: CryptoKey;
  kid: string;
}

export async function makeTestTool(): Promise<TestTool> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const kid = randomBytes(6).toString("hex");
  return { publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256" }, privateKey, kid };
}

export const TOOL_ORIGIN = "https://tool.example.com";

export function toolRegistration(tool: TestTool, extra: Record<string, unknown> = {}) {
  return {
    name: "Tool",
    targetLinkUri: `${TOOL_ORIGIN}/launch`,
    oidcInitiationUrl: `${TOOL_ORIGIN}/login`,
    redirectUris: [`${TOOL_ORIGIN}/launch`],
    publicJwk: tool.publicJwk,
    ...extra,
  };
}

/** The initiation parameters the platform sent the browser to the tool with. */
export function initiation(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams.entries());
}

/** What the tool sends the browser to: the platform's authorization URL with the tool's own state and nonce. */
export function authorizeUrl(init: Record<string, string>, overrides: Record<string, string> = {}): string {
  const q = new URLSearchParams({
    scope: "openid",
    response_type: "id_token",
    client_id: init.client_id ?? "",
    redirect_uri: init.target_link_uri ?? "",
    login_hint: init.login_hint ?? "",
    state: randomBytes(8).toString("hex"),
    response_mode: "form_post",
    nonce: randomBytes(8).toString("hex"),
    prompt: "none",
    lti_message_hint: init.lti_message_hint ?? "",
    ...overrides,
  });
  return `/api/institution/lti/authorize?${q}`;
}

const decode = (s: string) => s.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));

/** The hidden fields of the platform's auto-submitting page, and where it posts them. */
export function formFields(html: string): { action: string; fields: Record<string, string> } {
  const action = decode(/<form method="post" action="([^"]*)"/.exec(html)?.[1] ?? "");
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[decode(m[1] ?? "")] = decode(m[2] ?? "");
  }
  return { action, fields };
}

export async function platformJwks(h: Harness, tenant: TestTenant) {
  const res = await h.inject({
    method: "GET",
    url: "/api/institution/lti/jwks",
    headers: { host: tenant.host },
  });
  return createLocalJWKSet(res.json());
}

/** Verifies an id_token as a tool does: the platform's keys, its issuer, our client id. */
export async function verifyIdToken(h: Harness, tenant: TestTenant, idToken: string, clientId: string) {
  const { payload } = await jwtVerify(idToken, await platformJwks(h, tenant), {
    issuer: `http://${tenant.host}`,
    audience: clientId,
    algorithms: ["RS256"],
  });
  return payload;
}

/** A JWT the tool signs with its own key (client assertions, deep-linking responses). */
export function signAsTool(tool: TestTool, claims: Record<string, unknown>, lifetime = "5m") {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid: tool.kid, typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime(lifetime)
    .sign(tool.privateKey);
}
