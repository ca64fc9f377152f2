import { Type } from "typebox";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import type { App } from "../../platform/http/types.js";
import { negotiateLocale } from "../../platform/i18n/negotiate.js";
import { mailDepsOf } from "../email/service.js";
import { confirmPasswordReset, requestPasswordReset } from "./password-reset.js";

const tags = ["auth"];
const access = { kind: "tenant" } as const;

const RequestBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }) },
  { additionalProperties: false, examples: [{ email: "ana.souza@colegioaurora.com.br" }] },
);
const Accepted = Type.Object(
  { accepted: Type.Literal(true) },
  { additionalProperties: false, examples: [{ accepted: true }] },
);
const ConfirmBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 8, maxLength: 1024 }),
  },
  {
    additionalProperties: false,
    examples: [{ token: "pV1c2hY0m3rZ9Jb7nq8w4E6tK5sX2aLd0fGh1jK3lM4", password: "uma senha longa e boa" }],
  },
);

export function passwordResetRoutes(app: App, ctx: AppContext): void {
  const deps = { db: ctx.database.db, config: ctx.config, limiters: ctx.limiters };

  app.post(
    "/api/auth/password-reset",
    {
      config: { access, errors: [429] },
      schema: {
        tags,
        summary: "Ask for a password-reset link",
        description:
          "Always 202 with the same body, whether or not the address belongs to an active user of the " +
          "institution; if it does, a single-use link valid for PASSWORD_RESET_TTL_SECONDS (1 hour) is e-mailed, " +
          "in the language of `Accept-Language` when it names one, else the institution's. Requests are limited " +
          "per address and per IP like sign-in (429).",
        body: RequestBody,
        response: { 202: Accepted },
      },
    },
    async (request, reply) => {
      const header = request.headers["accept-language"];
      await requestPasswordReset(
        deps,
        mailDepsOf(ctx.config, publicOrigin(request)),
        tenantOf(request),
        request.ip,
        request.body.email,
        header === undefined ? undefined : negotiateLocale(header),
      );
      reply.code(202).header("cache-control", "no-store");
      return { accepted: true } as const;
    },
  );

  app.post(
    "/api/auth/password-reset/confirm",
    {
      config: { access, errors: [429] },
      schema: {
        tags,
        summary: "Set a new password from a reset link",
        description:
          "Sets the password, uses up the token (and any other the user holds) and signs the user out " +
          "everywhere: every session ends at its next request. An unknown, expired or used token is 400 " +
          "`validation_failed` on `token`; failed attempts are limited per IP (429).",
        body: ConfirmBody,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await confirmPasswordReset(
        deps,
        tenantOf(request),
        request.ip,
        request.body.token,
        request.body.password,
      );
      reply.code(204).header("cache-control", "no-store").send(null);
    },
  );
}
