import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { AppError } from "../../platform/errors/app-error.js";
import type { App } from "../../platform/http/types.js";
import { negotiateLocale } from "../../platform/i18n/negotiate.js";
import { CodeParams, Verification } from "./schemas.js";
import * as service from "./service.js";
import { renderVerifyPage } from "./verify-page.js";

/** As the invitation and password-reset pages (src/modules/pages): nothing inline, nothing from elsewhere. */
const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'none'; base-uri 'none'; " +
    "frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/**
 * The public verification of a certificate's code, on the institution's host: the page its QR code opens, and
 * the same facts as JSON. Either reveals only what the certificate shows; an unknown code (or one of another
 * institution) is 404, after the same single lookup a known one costs.
 */
export function verifyRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/verify/:code",
    {
      config: { access: { kind: "tenant" }, errors: [404] },
      schema: {
        tags: ["certificates"],
        summary: "Verify a certificate's code",
        description:
          "Public on the institution's host, no credentials: the status, the student's name, the course title " +
          "and the dates the certificate shows. Codes are read forgiving case, dashes and spaces. Unknown: 404.",
        params: CodeParams,
        response: { 200: Verification },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return service.verify(db, tenantOf(request).id, request.params.code);
    },
  );

  app.get(
    "/verify/:code",
    { config: { access: { kind: "tenant" } }, schema: { hide: true, params: CodeParams } },
    async (request, reply) => {
      const locale = negotiateLocale(request.headers["accept-language"]);
      const tenant = tenantOf(request);
      let found: Awaited<ReturnType<typeof service.verify>> | null;
      try {
        found = await service.verify(db, tenant.id, request.params.code);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== "not_found") throw error;
        found = null;
      }
      reply
        .code(found === null ? 404 : 200)
        .headers({ ...PAGE_HEADERS, "content-type": "text/html; charset=utf-8", vary: "Accept-Language" });
      return renderVerifyPage(locale, tenant.name, found);
    },
  );
}
