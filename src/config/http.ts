import { ConfigError, type Env, int } from "./env.js";

/**
 * How long the HTTP server waits for slow or idle clients (slowloris and the like), in milliseconds. Each limit
 * closes the connection when it passes; 0 would switch it off, so it is refused.
 */
export interface HttpServerConfig {
  /** From the first byte of a request to the end of its headers (Node's `headersTimeout`). */
  headersTimeoutMs: number;
  /** From the first byte of a request to the end of its body (Node's `requestTimeout`). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection between requests (`keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
  /** A socket with no traffic either way, a response in progress included (Fastify's `connectionTimeout`). */
  connectionTimeoutMs: number;
  /** How often the server looks for requests past the first two limits: a quarter of the shorter one, ≤ 30 s. */
  checkIntervalMs: number;
}

export function loadHttpServerConfig(env: Env): HttpServerConfig {
  const headersTimeoutMs = int(env, "HTTP_HEADERS_TIMEOUT_MS", 10_000, 1);
  const requestTimeoutMs = int(env, "HTTP_REQUEST_TIMEOUT_MS", 30_000, 1);
  const keepAliveTimeoutMs = int(env, "HTTP_KEEP_ALIVE_TIMEOUT_MS", 72_000, 1);
  const connectionTimeoutMs = int(env, "HTTP_CONNECTION_TIMEOUT_MS", 120_000, 1);
  // Node refuses a headers timeout longer than the request timeout (the request's headers are part of it).
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError("HTTP_HEADERS_TIMEOUT_MS must not be greater than HTTP_REQUEST_TIMEOUT_MS");
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs,
    connectionTimeoutMs,
    checkIntervalMs: Math.max(10, Math.min(30_000, Math.floor(headersTimeoutMs / 4))),
  };
}
