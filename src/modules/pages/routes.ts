import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import type { App } from "../../platform/http/types.js";
import { negotiateLocale } from "../../platform/i18n/negotiate.js";
import { FORM_SCRIPT, FORM_STYLE } from "./assets.js";
import { type PageKind, renderPage } from "./render.js";

/**
 * What the pages may do: run this server's script, use its style sheet, and post to its API; nothing inline,
 * nothing from elsewhere, no framing. The token in the address never leaves in a Referer.
 */
const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/** The two addresses the service's e-mails link to (`acceptUrl`, `resetUrl`), on the institution's host. */
const PAGES: readonly { url: string; kind: PageKind }[] = [
  { url: "/invites/accept", kind: "invite" },
  { url: "/reset-password", kind: "reset" },
];

/**
 * The invitation and password-reset pages (issue 21, point 8): minimal, localised by Accept-Language, and
 * clients of the public API with no route of their own behind them. Not part of the API reference.
 */
export function pageRoutes(app: App, _ctx: AppContext): void {
  for (const page of PAGES) {
    app.get(
      page.url,
      { config: { access: { kind: "tenant" } }, schema: { hide: true } },
      async (request, reply) => {
        const locale = negotiateLocale(request.headers["accept-language"]);
        reply.headers({
          ...PAGE_HEADERS,
          "content-type": "text/html; charset=utf-8",
          vary: "Accept-Language",
        });
        return renderPage(page.kind, locale, tenantOf(request).name);
      },
    );
  }
  const asset = (url: string, type: string, body: string) =>
    app.get(
      url,
      { config: { access: { kind: "public" } }, schema: { hide: true } },
      async (_request, reply) => {
        reply.headers({
          "content-type": type,
          "cache-control": "public, max-age=300",
          "x-content-type-options": "nosniff",
        });
        return body;
      },
    );
  asset("/pages/form.js", "text/javascript; charset=utf-8", FORM_SCRIPT);
  asset("/pages/form.css", "text/css; charset=utf-8", FORM_STYLE);
}
