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
  /**
   * Wrap `pg.Client.prototype.query` in the child so that the parent can record every statement the driver
   * executes ("queryLog"); for (i) only, so that no other server pays even the wrapper's flag check.
   */
  queryLog?: boolean;
}

/** A statement the driver executed: which connection, its text (whitespace folded, cut), how long it took. */
export interface LoggedQuery {
  /** A number per pg.Client (connection) of the child, in order of first use while recording. */
  client: number;
  text: string;
  /** From the driver call to its result (includes waiting behind the connection's previous statement). */
  ms: number;
}

export type ChildMessage =
  | { type: "ready"; ports: Partial<Record<Variant, number>> }
  | { type: "error"; message: string }
  | { type: "paymentEvents"; requestId: number; total: number; matching: number }
  | { type: "queryLog"; requestId: number; queries: LoggedQuery[] };

/**
 * `paymentEvents`: the child counts payment_events rows (all of them, and those whose event_id is in `eventIds`)
 * through its own connection, since a PGlite data directory serves one process only. Sent between measurements.
 * `queryLog` (with ServerConfig.queryLog): `start` empties the log and records from then on, `take` stops
 * recording and answers with what was recorded.
 */
export type ParentMessage =
  | { type: "stop" }
  | { type: "paymentEvents"; requestId: number; eventIds: string[] }
  | { type: "queryLog"; requestId: number; action: "start" | "take" };

export const SERVER_CONFIG_ENV = "BENCH_SERVER_CONFIG";

// ---------------------------------------------------------------------------------------------- delivery worker

/**
 * Scenarios (g0), (g), (h), (p) and (pl): bench/delivery-worker.ts, a child process like bench/server.ts, runs the
 * webhook delivery loop, graphile-worker (the peer, bench/peer-worker.ts) and, for the baseline, raw undici POSTs,
 * so that the sender has a core of its own; the receiver and the event emitter are in the parent
 * (bench/deliveries.ts, bench/peer.ts).
 */
export const DELIVERY_WORKER_CONFIG_ENV = "BENCH_DELIVERY_WORKER_CONFIG";

/** Passed to the child as JSON in the BENCH_DELIVERY_WORKER_CONFIG environment variable. */
export interface DeliveryWorkerConfig {
  /**
   * The worker's configuration environment, as `npm run worker` would read it (loadConfig); the loop runs with
   * the options it derives from it, as production's does.
   */
  env: Record<string, string>;
}

/** (g0): POSTs of one body to one URL through an undici Pool, `concurrency` in flight, for `seconds`. */
export interface RawPostsRequest {
  url: string;
  seconds: number;
  concurrency: number;
  headers: Record<string, string>;
  body: string;
}

export interface LatencySummary {
  p50: number;
  p99: number;
  average: number;
  max: number;
}

export interface RawPostsResult {
  /** Requests answered (any status). */
  requests: number;
  non2xx: number;
  errors: number;
  seconds: number;
  /** Per request, from `request()` to the end of the response body, in ms. */
  latencyMs: LatencySummary;
}

/** The child's `process.cpuUsage()`, µs since it started. */
export interface CpuTime {
  userUs: number;
  systemUs: number;
}

/**
 * A graphile-worker job of the peer's `deliver` task: what a claimed webhook_deliveries row carries (the
 * automation's signing secret still sealed, opened by the task with the worker's keyring as our loop opens it).
 */
export interface PeerJob {
  tenantId: string;
  /** The `webhook-id`, as a delivery's id is. */
  id: string;
  automationId: string;
  eventId: string;
  eventType: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  signingSecret: string;
}

/** graphile-worker's `run()` settings (bench/peer.ts says why these). */
export interface PeerRunOptions {
  concurrency: number;
  maxPoolSize: number;
  localQueueSize: number;
  completeJobBatchDelay: number;
}

/** What a peer runner did between its start and its stop. */
export interface PeerSummary {
  /** Jobs whose task resolved. */
  completed: number;
  /** Task failures (the first few messages; graphile-worker would retry them). */
  errors: number;
  errorMessages: string[];
  /** Per job id: when its task started, ms since the epoch (performance.timeOrigin + now). */
  startedAt: Record<string, number>;
  /** Per completed job: the OutboundClient's durationMs of its POST, as the delivery log records ours. */
  durationsMs: number[];
}

export type WorkerParentMessage =
  | { type: "rawPosts"; requestId: number; request: RawPostsRequest }
  /** Starts the delivery loop (answered once it runs); stopLoop waits for its sends in flight. */
  | { type: "startLoop"; requestId: number }
  | { type: "stopLoop"; requestId: number }
  /** Starts graphile-worker's runner (answered once `run()` resolved); stopPeer stops it gracefully. */
  | { type: "startPeer"; requestId: number; options: PeerRunOptions }
  | { type: "stopPeer"; requestId: number }
  | { type: "cpuUsage"; requestId: number }
  | { type: "exit" };

export type WorkerChildMessage =
  | { type: "ready" }
  | {
      type: "done";
      requestId: number;
      result?: RawPostsResult;
      cpu?: CpuTime;
      peer?: PeerSummary;
    }
  | { type: "error"; requestId?: number; message: string };

/** Percentiles (nearest rank), mean and maximum of `samples`, in their unit, to two decimals. */
export function summarise(samples: readonly number[]): LatencySummary {
  if (samples.length === 0) return { p50: 0, p99: 0, average: 0, max: 0 };
  const sorted = [...samples].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  const r = (v: number) => Math.round(v * 100) / 100;
  const sum = sorted.reduce((s, v) => s + v, 0);
  return { p50: r(at(0.5)), p99: r(at(0.99)), average: r(sum / sorted.length), max: r(at(1)) };
}
