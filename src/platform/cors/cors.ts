import cors, { type FastifyCorsOptions } from "@fastify/cors";
import type { FastifyInstance } from "fastify";

export const CORS_PREFIX = "/api/institution/";

/**
 * The contract's CORS, through @fastify/cors: `*` for any origin and never credentials (which is what keeps `*`
 * safe: a browser sends no cookie with such a request), the contract's methods and request headers (with
 * `If-None-Match`, so a browser can revalidate with an ETag), and the response headers a browser client needs to
 * read (rate limits, `Retry-After`, the request id, idempotent replays, the language, the ETag).
 */
export const CORS_OPTIONS = {
  origin: "*",
  credentials: false,
  methods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
  allowedHeaders: ["Content-Type", "Authorization", "Accept-Language", "Idempotency-Key", "If-None-Match"],
  exposedHeaders: [
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "Retry-After",
    "X-Request-Id",
    "Idempotent-Replayed",
    "Content-Language",
    "ETag",
  ],
  maxAge: 86_400,
  // The contract answers every OPTIONS under the prefix with 204, whether or not it looks like a browser's.
  strictPreflight: false,
  optionsSuccessStatus: 204,
} satisfies FastifyCorsOptions;

export function isCorsPath(url: string): boolean {
  return url.startsWith(CORS_PREFIX) || url === "/api/institution" || url.startsWith("/api/institution?");
}

/**
 * Registered before authentication: the plugin answers a preflight in its onRequest hook, before any credential
 * or tenant is looked at (a preflight carries neither). Paths outside the institution API get no CORS headers,
 * and an OPTIONS there is the ordinary 404.
 */
export async function registerCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    delegator: (request, callback) =>
      callback(null, isCorsPath(request.url) ? CORS_OPTIONS : { origin: false }),
  });
}
