/** Messages between bench/run.ts (parent: seeding, autocannon, report) and bench/server.ts (child: the servers). */

/**
 * Servers (a)–(c) and (e) listen on ports of their own; (d) is a route of (c)'s app and (f) a second scenario on
 * (e)'s app, so their ports are those of (c) and (e).
 */
export type Variant = "a" | "b" | "c" | "d" | "e" | "f";

/** Variant (d): a route added to the real app (by bench/server.ts only), with (b)'s prepared handler. */
export const PREPARED_ROUTE = "/api/institution/bench-prepared-courses";

/** Variants (e) and (f): the real app's Stripe webhook endpoint. */
export const WEBHOOK_ROUTE = "/api/webhooks/stripe";

export type BenchDb = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

/** Passed to the child as JSON in the BENCH_SERVER_CONFIG environment variable. */
export interface ServerConfig {
  db: BenchDb;
  /** The tenant whose courses variant (b) lists; (c) finds it from the Host header like production does. */
  tenantId: string;
  variants: Variant[];
  /**
   * Environment added to the configuration of (e)'s app: the Stripe settings (webhook secret, prices, API base).
   * (c)'s app never gets it, so its figures stay comparable with runs made before (e) existed.
   */
  billingEnv?: Record<string, string>;
}

export type ChildMessage =
  | { type: "ready"; ports: Partial<Record<Variant, number>> }
  | { type: "error"; message: string }
  | { type: "paymentEvents"; requestId: number; total: number; matching: number };

/**
 * `paymentEvents`: the child counts payment_events rows (all of them, and those whose event_id is in `eventIds`)
 * through its own connection, since a PGlite data directory serves one process only. Sent between measurements.
 */
export type ParentMessage =
  | { type: "stop" }
  | { type: "paymentEvents"; requestId: number; eventIds: string[] };

export const SERVER_CONFIG_ENV = "BENCH_SERVER_CONFIG";
