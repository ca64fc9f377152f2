/**
 * 1EdTech LTI Dynamic Registration 1.0. An administrator's session starts it (`startRegistration`): we answer
 * the tool's registration URL with our `openid_configuration` URL and a `registration_token`, which the
 * administrator's browser opens. The tool reads our configuration (`openidConfiguration`) and posts its client
 * registration (OpenID Connect Dynamic Client Registration, with the LTI tool configuration claim) to our
 * registration endpoint with that token (`register`); the tool is created, and the answer gives its client id
 * and deployment id.
 *
 * The token is a JWT signed with the institution's LTI key: one hour, for this endpoint, naming the
 * administrator. Its `jti` is the id the tool will have, and a row of `lti_registration_tokens` records it: the
 * registration that makes the tool marks it used, so the token cannot register again even after the tool is
 * deleted (two registrations at once collide on the tool's primary key).
 */
import { randomUUID } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { createLocalJWKSet, jwtVerify, SignJWT } from "jose";
import { isUniqueViolation } from "../../db/errors.js";
import { ltiRegistrationTokens } from "../../db/schema/index.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, validationError } from "../../platform/errors/app-error.js";
import type { RegistrationInput } from "./dynamic-schemas.js";
import { currentKey, publishedKeys } from "./keys.js";
import { LTI_SCOPES } from "./schemas.js";
import { unverified } from "./tool-keys.js";
import { createTool, isBrowserUrl, LTI_PATH, type LtiDeps, platformOf } from "./tools.js";

export const REGISTRATION_TOKEN_LIFETIME_S = 3600;
const TOKEN_TYPE = "lti-registration+jwt";
const TOOL_CONFIG = "https://purl.imsglobal.org/spec/lti-tool-configuration";

const urls = (origin: string) => ({
  openidConfiguration: `${origin}${LTI_PATH}/openid-configuration`,
  registration: `${origin}${LTI_PATH}/registrations`,
});

export async function startRegistration(
  deps: LtiDeps,
  tenantId: string,
  principal: Principal,
  registrationUrl: string,
) {
  if (principal.kind !== "session") throw new AppError("session_required");
  if (!isBrowserUrl(registrationUrl)) throw validationError("registrationUrl", "field.https_url");
  const key = await currentKey(deps.ctx.database.db, deps.ctx.config, tenantId);
  const expiresAt = new Date(Date.now() + REGISTRATION_TOKEN_LIFETIME_S * 1000);
  const jti = randomUUID();
  const db = deps.ctx.database.db;
  // The institution's expired tokens go as a new one is made: the table holds at most an hour's worth.
  await db
    .delete(ltiRegistrationTokens)
    .where(
      and(eq(ltiRegistrationTokens.tenantId, tenantId), lt(ltiRegistrationTokens.expiresAt, sql`now()`)),
    );
  await db.insert(ltiRegistrationTokens).values({ tenantId, id: jti, expiresAt: expiresAt.toISOString() });
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: TOKEN_TYPE })
    .setIssuer(platformOf(deps.origin).issuer)
    .setAudience(urls(deps.origin).registration)
    .setSubject(principal.userId)
    .setJti(jti)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key.key);
  const redirect = new URL(registrationUrl);
  redirect.searchParams.set("openid_configuration", urls(deps.origin).openidConfiguration);
  redirect.searchParams.set("registration_token", token);
  return { redirectUrl: redirect.toString(), expiresAt: expiresAt.toISOString() };
}

/** The platform's OpenID configuration with the LTI platform claim (Dynamic Registration 3.4). */
export function openidConfiguration(origin: string) {
  const platform = platformOf(origin);
  return {
    issuer: platform.issuer,
    authorization_endpoint: platform.authorizationUrl,
    token_endpoint: platform.tokenUrl,
    jwks_uri: platform.jwksUrl,
    registration_endpoint: urls(origin).registration,
    token_endpoint_auth_methods_supported: ["private_key_jwt"],
    token_endpoint_auth_signing_alg_values_supported: ["RS256", "ES256"],
    scopes_supported: ["openid", ...LTI_SCOPES],
    response_types_supported: ["id_token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    claims_supported: ["sub", "iss", "name", "given_name", "family_name", "email"],
    [`https://purl.imsglobal.org/spec/lti-platform-configuration`]: {
      product_family_code: "aula",
      version: "1.0",
      messages_supported: [{ type: "LtiResourceLinkRequest" }, { type: "LtiDeepLinkingRequest" }],
      variables: ["$User.id", "$Context.id", "$Context.title", "$ResourceLink.id", "$Person.name.full"],
    },
  };
}

/** The tool id the token reserves, if the token is ours, for this endpoint, and unexpired. */
async function tokenToolId(deps: LtiDeps, tenantId: string, authorization: string | undefined) {
  const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(authorization ?? "");
  if (match === null) throw unverified();
  try {
    const keys = createLocalJWKSet({ keys: await publishedKeys(deps.ctx.database.db, tenantId) });
    const { payload } = await jwtVerify(match[1] ?? "", keys, {
      issuer: platformOf(deps.origin).issuer,
      audience: urls(deps.origin).registration,
      algorithms: ["RS256"],
      typ: TOKEN_TYPE,
      requiredClaims: ["jti", "exp", "sub"],
    });
    return String(payload.jti);
  } catch {
    throw unverified();
  }
}

const has = (list: string[] | undefined, value: string) => list === undefined || list.includes(value);

export async function register(
  deps: LtiDeps,
  tenantId: string,
  authorization: string | undefined,
  body: RegistrationInput,
) {
  const toolId = await tokenToolId(deps, tenantId, authorization);
  const db = deps.ctx.database.db;
  const unused = and(
    eq(ltiRegistrationTokens.tenantId, tenantId),
    eq(ltiRegistrationTokens.id, toolId),
    isNull(ltiRegistrationTokens.usedAt),
    gt(ltiRegistrationTokens.expiresAt, sql`now()`),
  );
  const [pending] = await db
    .select({ id: ltiRegistrationTokens.id })
    .from(ltiRegistrationTokens)
    .where(unused);
  if (pending === undefined) throw unverified();
  const config = body[TOOL_CONFIG];
  // The flows LTI uses: the implicit id_token launch and client-credentials tokens signed with the tool's key.
  if (!has(body.response_types, "id_token")) throw validationError("response_types", "field.invalid");
  if (!has(body.grant_types, "client_credentials")) throw validationError("grant_types", "field.invalid");
  if ((body.token_endpoint_auth_method ?? "private_key_jwt") !== "private_key_jwt") {
    throw validationError("token_endpoint_auth_method", "field.invalid");
  }
  const requested = (body.scope ?? "").split(" ");
  const scopes = LTI_SCOPES.filter((s) => requested.includes(s));
  const messages = config.messages ?? [];
  const custom = Object.entries(config.custom_parameters ?? {}).slice(0, 50);
  try {
    const tool = await createTool(
      deps,
      tenantId,
      {
        name: (body.client_name ?? "").trim().slice(0, 100) || config.domain.slice(0, 100),
        ...(config.description === undefined ? {} : { description: config.description.slice(0, 1000) }),
        ...(body.logo_uri === undefined ? {} : { iconUrl: body.logo_uri }),
        targetLinkUri: config.target_link_uri,
        oidcInitiationUrl: body.initiate_login_uri,
        redirectUris: body.redirect_uris,
        jwksUrl: body.jwks_uri,
        scopes,
        placements: messages.some((m) => m.type === "LtiDeepLinkingRequest") ? ["deep_linking"] : [],
        customParameters: Object.fromEntries(custom),
        // Personal claims wait for an administrator to raise the level (PATCH), whatever the tool asked for.
        privacyLevel: "anonymous",
      },
      "dynamic",
      toolId,
    );
    // Marked used once its tool exists (a registration refused before that may be corrected and sent again).
    await db.update(ltiRegistrationTokens).set({ usedAt: sql`now()` }).where(unused);
    return {
      client_id: tool.clientId,
      application_type: "web" as const,
      response_types: ["id_token"],
      grant_types: ["implicit", "client_credentials"],
      initiate_login_uri: tool.oidcInitiationUrl,
      redirect_uris: tool.redirectUris,
      client_name: tool.name,
      jwks_uri: body.jwks_uri,
      token_endpoint_auth_method: "private_key_jwt" as const,
      scope: scopes.join(" "),
      [TOOL_CONFIG]: {
        domain: config.domain,
        target_link_uri: tool.targetLinkUri,
        custom_parameters: tool.customParameters,
        messages: messages.map((m) => ({ type: m.type })),
        deployment_id: tool.deploymentIds[0] ?? "",
      },
    };
  } catch (error) {
    // The token's tool exists already: the token was used.
    if (isUniqueViolation(error)) throw unverified();
    throw error;
  }
}
