import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { FastifyReply } from "fastify";
import type { AppContext } from "../../platform/context.js";
import { notFound } from "../../platform/errors/app-error.js";
import type { App } from "../../platform/http/types.js";

/**
 * What the console may do: run and style itself from this origin and call this origin's API. No inline script
 * or style (the theme is applied through the CSSOM, which a CSP does not govern), nothing from elsewhere, no
 * framing.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "font-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
};

/** What is worth compressing (the rest, images and fonts, is compressed already). */
const TEXT = new Set([".js", ".css", ".svg", ".json"]);
const gzipped = promisify(gzip);
/** Whether Accept-Encoding takes gzip (by name or `*`) with a weight above 0. */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? "").split(",").some((part) => {
    const [coding = "", ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** A built asset's file name: Vite's `name-hash.ext`, nothing that could climb out of the folder. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * The institution's admin console (issue 26): a single-page app built by `npm run build` into
 * `config.console.dir`, served on the institution's host. `/admin/assets/*` are content-hashed files, cached for
 * good; every other `/admin` path is the app's own route and gets `index.html`, never cached, so a new build is
 * picked up on the next visit. Not part of the API reference: the console is a client of it, like the pages.
 */
export function consoleRoutes(app: App, ctx: AppContext): void {
  const dir = ctx.config.console.dir;
  // Each asset's gzip, made on its first request and kept: a hashed name never changes content, and only names
  // of files in the build get here, so this holds at most one build's text files (~300 kB raw today).
  const compressed = new Map<string, Buffer>();

  /** `index.html`, for `/admin` and each of the app's own routes below it. */
  const index = async (reply: FastifyReply): Promise<Buffer> => {
    let html: Buffer;
    try {
      html = await readFile(join(dir, "index.html"));
    } catch {
      // No build in this installation (`npm run build` makes one): nothing to serve.
      throw notFound();
    }
    reply.headers({
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": CONSOLE_CSP,
      "cache-control": "no-cache",
      "referrer-policy": "same-origin",
      "x-content-type-options": "nosniff",
    });
    return html;
  };

  const page = { config: { access: { kind: "tenant" } }, schema: { hide: true } } as const;

  app.get("/admin", page, (_request, reply) => index(reply));

  app.get("/admin/*", page, async (request, reply) => {
    const rest = (request.params as { "*": string })["*"];
    if (!rest.startsWith("assets/")) return index(reply);
    const name = rest.slice("assets/".length);
    if (!ASSET_NAME.test(name)) throw notFound();
    let body: Buffer;
    try {
      body = await readFile(join(dir, "assets", name));
    } catch {
      throw notFound();
    }
    const type = extname(name);
    reply.headers({
      "content-type": TYPES[type] ?? "application/octet-stream",
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    });
    if (!TEXT.has(type)) return body;
    reply.header("vary", "accept-encoding");
    if (!acceptsGzip(request.headers["accept-encoding"])) return body;
    let packed = compressed.get(name);
    if (packed === undefined) {
      packed = await gzipped(body, { level: 9 });
      compressed.set(name, packed);
    }
    reply.header("content-encoding", "gzip");
    return packed;
  });
}
