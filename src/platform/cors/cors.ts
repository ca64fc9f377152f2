import type { FastifyInstance } from "fastify";

export const CORS_PREFIX = "/api/institution/";

/** Exactly the contract's preflight answer. Credentials are never allowed, which is what keeps `*` safe. */
export const PREFLIGHT_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers": "Content-Type, Authorization, Accept-Language, Idempotency-Key",
  "access-control-max-age": "86400",
} as const;

export function isCorsPath(url: string): boolean {
  return url.startsWith(CORS_PREFIX) || url === "/api/institution" || url.startsWith("/api/institution?");
}

export function registerCors(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    if (isCorsPath(request.url)) reply.header("access-control-allow-origin", "*");
  });
  app.options(
    "/api/institution/*",
    { config: { access: { kind: "public" } }, schema: { hide: true } },
    async (_request, reply) => {
      reply.headers(PREFLIGHT_HEADERS).code(204).send();
    },
  );
}
