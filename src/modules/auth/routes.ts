import type { FastifyReply } from "fastify";
import { Type } from "typebox";
import { tenantOf } from "../../platform/auth/request.js";
import { ACCESS_COOKIE, REFRESH_COOKIE } from "../../platform/auth/session-tokens.js";
import type { AppContext } from "../../platform/context.js";
import type { App } from "../../platform/http/types.js";
import { User } from "../users/schemas.js";
import { getUser } from "../users/service.js";
import { type IssuedSession, login, logout, refresh } from "./service.js";

const tags = ["auth"];
const access = { kind: "tenant" } as const;

const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  {
    additionalProperties: false,
    examples: [{ email: "ana.souza@colegioaurora.com.br", password: "correct-horse-battery-staple" }],
  },
);
const SessionUser = Type.Object(
  { user: User },
  {
    additionalProperties: false,
    examples: [
      {
        user: {
          id: "9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d",
          name: "Ana Souza",
          email: "ana.souza@colegioaurora.com.br",
          role: "institution_admin",
          classGroupIds: [],
          status: "active",
          createdAt: "2026-11-23T12:00:00.000Z",
          profileFields: {},
        },
      },
    ],
  },
);

export function authRoutes(app: App, ctx: AppContext): void {
  const { config, limiters } = ctx;
  const db = ctx.database.db;

  // No Domain attribute: a cookie set on acme.localhost is never sent to another tenant's host.
  const cookieOptions = (maxAge: number) =>
    ({ httpOnly: true, sameSite: "lax", path: "/", secure: config.auth.secureCookies, maxAge }) as const;

  function setSessionCookies(reply: FastifyReply, session: IssuedSession): void {
    reply.setCookie(ACCESS_COOKIE, session.accessToken, cookieOptions(session.accessTtlSeconds));
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, cookieOptions(session.refreshTtlSeconds));
    reply.header("cache-control", "no-store");
  }

  app.post(
    "/api/auth/login",
    {
      config: { access, errors: [401, 429] },
      schema: {
        tags,
        summary: "Sign in",
        description:
          "Sets `sb-access-token` (HS256 JWT) and `sb-refresh-token` (opaque, rotating) cookies. Failed attempts " +
          "are limited per e-mail and per IP (429).",
        body: LoginBody,
        response: { 200: SessionUser },
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const session = await login(
        db,
        config,
        limiters,
        tenant,
        request.ip,
        request.body.email,
        request.body.password,
      );
      setSessionCookies(reply, session);
      return { user: await getUser(db, tenant.id, session.userId) };
    },
  );

  app.post(
    "/api/auth/refresh",
    {
      config: { access, errors: [401] },
      schema: {
        tags,
        summary: "Rotate the session cookies",
        description:
          "Reusing a refresh token that was already rotated revokes its whole session family (401).",
        response: { 200: SessionUser },
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const session = await refresh(db, config, tenant.id, request.cookies[REFRESH_COOKIE]);
      setSessionCookies(reply, session);
      return { user: await getUser(db, tenant.id, session.userId) };
    },
  );

  app.post(
    "/api/auth/logout",
    {
      config: { access },
      schema: { tags, summary: "Sign out", response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await logout(db, tenantOf(request).id, request.cookies[REFRESH_COOKIE]);
      const expired = {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: config.auth.secureCookies,
      } as const;
      reply.clearCookie(ACCESS_COOKIE, expired).clearCookie(REFRESH_COOKIE, expired).code(204).send(null);
    },
  );
}
