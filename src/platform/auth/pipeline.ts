import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context.js";
import { AppError } from "../errors/app-error.js";
import { consumeKeyBudget } from "../rate-limit/key-limits.js";
import { rateLimited, secondsUntil } from "../rate-limit/limiter.js";
import { holdsScope } from "../scopes/scopes.js";
import { tenantNotFound } from "../tenancy/resolver.js";
import { API_KEY_PATTERN } from "./secrets.js";
import { ACCESS_COOKIE, verifyAccessToken } from "./session-tokens.js";
import { loadSessionUser } from "./session-user.js";
import type { Principal, Role, RouteAccess, Tenant } from "./types.js";

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Subscription statuses that close the institution API until the tenant pays (billing stays open). */
export const INACTIVE_STATUSES: ReadonlySet<string> = new Set(["suspended", "unpaid", "paused"]);

/** Every unusable credential gets the same answer, so none of them tells an attacker anything. */
const unauthorized = () => new AppError("unauthorized");

/**
 * The request pipeline before validation: tenant from Host → credentials → rate limit (keys) → scope or role.
 * Runs as an onRequest hook, so nothing of an unauthorised request is parsed or validated.
 */
export function registerAuthPipeline(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest("tenant", null);
  app.decorateRequest("principal", null);
  warnIfProxiedUntrusted(app, ctx);

  app.addHook("onRequest", async (request, reply) => {
    const access = request.routeOptions.config.access;
    if (access === undefined || access.kind === "public") return;
    if (access.kind === "cron") {
      reply.header("cache-control", "no-store");
      if (!holdsCronSecret(ctx.config.cronSecret, request.headers.authorization))
        throw await refuse(ctx, request);
      return;
    }
    const tenant = await ctx.tenants.resolve(request.headers.host);
    if (tenant === null) throw tenantNotFound(request.headers.host, ctx.config.baseDomain);
    request.tenant = tenant;
    // Cookies ride along on cross-site requests; a JSON content type cannot be sent by a plain HTML form, so
    // refusing every other one closes form-based CSRF for requests with a body. A body-less one needs no content
    // type: cookie-authenticated writes are also refused when the browser says they come from another site.
    // A route may name other JSON types in its schema's `consumes` (a merge patch's); none a form can send.
    const contentType = request.headers["content-type"];
    if (
      UNSAFE_METHODS.has(request.method) &&
      contentType !== undefined &&
      !isJson(contentType) &&
      !routeConsumes(request, contentType)
    ) {
      throw new AppError("unsupported_media_type");
    }
    if (UNSAFE_METHODS.has(request.method) && cookieAuthenticated(request, access)) refuseCrossSite(request);
    if (access.kind === "tenant") {
      if (request.routeOptions.config.closedWhileInactive === true) assertSubscriptionLive(tenant);
      return;
    }
    reply.header("cache-control", "no-store");
    request.principal = await authenticate(ctx, request, reply, tenant, access);
    // After authentication, so only the tenant's own users and keys learn that its subscription lapsed.
    if (
      request.routeOptions.config.openWhileInactive !== true &&
      request.routeOptions.url?.startsWith("/api/institution/")
    ) {
      assertSubscriptionLive(tenant);
    }
  });
}

/** 402 `subscription_inactive` while the tenant's subscription is suspended, unpaid or paused. */
export function assertSubscriptionLive(tenant: Tenant): void {
  if (tenant.billingStatus !== null && INACTIVE_STATUSES.has(tenant.billingStatus)) {
    throw new AppError("subscription_inactive", { params: { status: tenant.billingStatus } });
  }
}

async function authenticate(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  tenant: Tenant,
  access: Extract<RouteAccess, { kind: "authenticated" }>,
): Promise<Principal> {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const principal = await authenticateKey(ctx, request, tenant, authorization);
    if (!access.auth.includes("key")) throw new AppError("session_required");
    const outcome = await consumeKeyBudget(ctx.limiters, principal.key);
    reply.header("x-ratelimit-limit", String(outcome.headers.limit));
    reply.header("x-ratelimit-remaining", String(outcome.headers.remaining));
    reply.header("x-ratelimit-reset", String(outcome.headers.reset));
    if (!outcome.allowed) throw rateLimited(outcome.retryAfter);
    if (access.scope !== undefined && !holdsScope(principal.key.scopes, access.scope)) {
      throw new AppError("insufficient_scope", {
        params: { scope: access.scope },
        details: [{ field: "scope", key: "field.missing_scope", params: { scope: access.scope } }],
      });
    }
    ctx.apiKeys.touch(principal.key, (err) => request.log.warn({ err }, "could not record key use"));
    return { kind: "key", tenantId: tenant.id, keyId: principal.key.id, scopes: principal.key.scopes };
  }

  const token = request.cookies[ACCESS_COOKIE];
  if (token === undefined || token === "") throw await refuse(ctx, request);
  const claims = await verifyAccessToken(token, ctx.config.auth.sessionSecret);
  // A session belongs to one tenant: a valid token of tenant A on B's host is just as unusable as a forged one.
  if (claims === null || claims.tenantId !== tenant.id) throw await refuse(ctx, request);
  if (!access.auth.includes("session")) throw unauthorized();
  const user = await loadSessionUser(ctx.database.db, tenant.id, claims.sub, claims.sessionId);
  if (user === undefined || user.status !== "active" || !user.live) throw unauthorized();
  const role = user.role as Role;
  if (access.roles !== undefined && !access.roles.includes(role)) {
    const adminOnly = access.roles.length === 1 && access.roles[0] === "institution_admin";
    throw new AppError("forbidden", adminOnly ? { messageKey: "forbidden.admin_required" } : {});
  }
  return { kind: "session", tenantId: tenant.id, userId: claims.sub, role, email: user.email };
}

/**
 * Whether the browser's cookies are what this request would be authenticated by: sign-in, refresh and logout
 * (and the other routes of a tenant host without credentials), or a route taking sessions when no
 * `Authorization` header says otherwise. API keys are never sent by a browser on its own, so they are not.
 */
function cookieAuthenticated(request: FastifyRequest, access: RouteAccess): boolean {
  if (access.kind === "tenant") return true;
  return (
    access.kind === "authenticated" &&
    request.headers.authorization === undefined &&
    request.cookies[ACCESS_COOKIE] !== undefined
  );
}

/**
 * CSRF: a cookie rides along on a cross-site request, and a body-less POST needs no content type, so a page of
 * any other site could publish a course or rotate a secret with an administrator's session. Browsers say where
 * a request comes from (Fetch Metadata, then Origin); a request from elsewhere is refused, as Go's
 * CrossOriginProtection does. `same-site` is refused too: tenants are sibling subdomains, so a same-site
 * request is another institution's page. Clients that send neither header (curl, servers) are not browsers,
 * and a cookie they send is their own.
 */
function refuseCrossSite(request: FastifyRequest): void {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    throw new AppError("forbidden", { messageKey: "forbidden.cross_site" });
  }
  const origin = request.headers.origin;
  if (origin !== undefined && originHost(origin) !== request.headers.host?.toLowerCase()) {
    throw new AppError("forbidden", { messageKey: "forbidden.cross_site" });
  }
}

/** `host[:port]` of an Origin header; undefined for `null` and anything unparseable. */
function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** The credential of `Authorization: Bearer <token>`; RFC 9110 §11.1 makes the scheme name case-insensitive. */
function bearerToken(authorization: string): string | undefined {
  return /^Bearer +(\S+)$/i.exec(authorization)?.[1];
}

/** Compares digests, so neither the secret's length nor its prefix leaks through timing. */
function holdsCronSecret(secret: string | undefined, authorization: string | undefined): boolean {
  if (secret === undefined || authorization === undefined) return false;
  const presented = bearerToken(authorization);
  if (presented === undefined) return false;
  return timingSafeEqual(sha256(presented), sha256(secret));
}

const sha256 = (text: string) => createHash("sha256").update(text).digest();

const mediaType = (contentType: string) => contentType.split(";")[0]?.trim().toLowerCase();

export function isJson(contentType: string): boolean {
  return mediaType(contentType) === "application/json";
}

/** Whether the route's schema lists this media type in `consumes` (only JSON types are ever listed there). */
function routeConsumes(request: FastifyRequest, contentType: string): boolean {
  const consumes = (request.routeOptions.schema as { consumes?: readonly string[] } | undefined)?.consumes;
  const mime = mediaType(contentType);
  return consumes?.some((type) => type === mime) === true;
}

async function authenticateKey(
  ctx: AppContext,
  request: FastifyRequest,
  tenant: Tenant,
  authorization: string,
) {
  const secret = bearerToken(authorization);
  if (secret === undefined || !API_KEY_PATTERN.test(secret)) throw await refuse(ctx, request);
  const key = await ctx.apiKeys.find(tenant.id, secret, () => guardFloods(ctx, request));
  if (key === null) throw await refuse(ctx, request);
  return { key };
}

const BAD_CREDENTIALS = "badcred:tenant-ip";

/**
 * Unusable credentials are counted per institution and client IP: past the budget, that institution's uncached
 * keys from that address get 429 instead of more lookups. Per institution, so one noisy client cannot lock other
 * institutions' valid keys out of a shared address (a NAT, or every client behind a proxy without TRUST_PROXY);
 * lookups are by (institution, hash), so a flood against one institution is still stopped where it lands.
 */
const floodKey = (request: FastifyRequest) => `${request.tenant?.id ?? "-"}:${request.ip}`;

async function guardFloods(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const limit = ctx.config.auth.badCredentialsPerIpPerMinute;
  const state = await ctx.limiters.peek(BAD_CREDENTIALS, floodKey(request), limit, 60);
  if (!state.allowed) throw rateLimited(secondsUntil(state.msBeforeNext));
}

async function refuse(ctx: AppContext, request: FastifyRequest): Promise<AppError> {
  const limit = ctx.config.auth.badCredentialsPerIpPerMinute;
  const state = await ctx.limiters.consume(BAD_CREDENTIALS, floodKey(request), limit, 60);
  return state.allowed ? unauthorized() : rateLimited(secondsUntil(state.msBeforeNext));
}

const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"] as const;

/**
 * Without TRUST_PROXY every per-IP limit (sign-in, unusable credentials, invitation acceptance) sees the
 * proxy's address, so all clients behind it share one budget. A request carrying forwarding headers suggests a
 * proxy: say so once per process, in the log, rather than guess and trust headers anyone can send.
 */
function warnIfProxiedUntrusted(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.trustProxy !== false) return;
  let warned = false;
  app.addHook("onRequest", async (request) => {
    if (warned) return;
    const header = FORWARDING_HEADERS.find((name) => request.headers[name] !== undefined);
    if (header === undefined) return;
    warned = true;
    request.log.warn(
      { header },
      "requests carry forwarding headers but TRUST_PROXY is unset: per-IP limits see the proxy's address, so " +
        "every client behind it shares one budget. Set TRUST_PROXY to the proxy's addresses or hop count",
    );
  });
}
