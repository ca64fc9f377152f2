/** Messages between bench/run.ts (parent: seeding, autocannon, report) and bench/server.ts (child: the servers). */

export type Variant = "a" | "b" | "c" | "d";

/** Variant (d): a route added to the real app (by bench/server.ts only), with (b)'s prepared handler. */
export const PREPARED_ROUTE = "/api/institution/bench-prepared-courses";

export type BenchDb = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

/** Passed to the child as JSON in the BENCH_SERVER_CONFIG environment variable. */
export interface ServerConfig {
  db: BenchDb;
  /** The tenant whose courses variant (b) lists; (c) finds it from the Host header like production does. */
  tenantId: string;
  variants: Variant[];
}

export type ChildMessage =
  | { type: "ready"; ports: Partial<Record<Variant, number>> }
  | { type: "error"; message: string };

export type ParentMessage = { type: "stop" };

export const SERVER_CONFIG_ENV = "BENCH_SERVER_CONFIG";
