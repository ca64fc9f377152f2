import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { ConfigError, type Env, int, str } from "./env.js";

/** A parsed CIDR, in the shape ipaddr.js `match()` takes. */
export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface OutboundConfig {
  /**
   * DANGEROUS: addresses in these ranges are exempt from the SSRF rule, so tenants' webhooks can reach
   * them. Meant for local development and tests only (e.g. `127.0.0.2/32` for a local receiver); in
   * production it stays empty, since any range listed here becomes reachable from tenant-chosen URLs.
   */
  allowCidrs: Cidr[];
  /** Whole-attempt budget for one delivery: connect, response headers and body together. */
  timeoutMs: number;
  /** Seconds to wait before each retry, in order; the delivery fails for good once they run out. */
  retryScheduleSeconds: number[];
  /** The delivery worker (modules/outbox/worker.ts), per process. */
  delivery: DeliveryEngineConfig;
}

export interface DeliveryEngineConfig {
  /** Sends in flight at once in one worker process (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /**
   * Sends in flight at once to one endpoint (automation) from one worker process (WEBHOOK_ENDPOINT_CONCURRENCY):
   * an endpoint that hangs until the timeout holds this many slots at most, never the whole worker.
   */
  endpointConcurrency: number;
  /** How long a claim outlives the sends it covers: record delays, a slow database, a GC pause. */
  leaseMarginSeconds: number;
  /** Fallback poll when no wake-up arrives (retries falling due, a missed notification), ms. */
  pollMs: number;
  /** Completed deliveries and their attempts are purged this many days after they completed. */
  retentionDays: number;
}

export const DEFAULT_RETRY_SCHEDULE = "5,300,1800,7200,18000,36000,36000";

/**
 * Strict on purpose: ipaddr.js alone would take `127.1/8` or `0x7f.1/32` (inet_aton forms), which a
 * reader of the configuration would not recognise as the range actually exempted.
 */
function parseCidr(raw: string): Cidr {
  const slash = raw.indexOf("/");
  const address = slash === -1 ? raw : raw.slice(0, slash);
  const prefixText = slash === -1 ? undefined : raw.slice(slash + 1);
  const family = isIP(address);
  if (family === 0 || address.includes("%")) {
    throw new ConfigError(`OUTBOUND_ALLOW_CIDRS has an invalid address in "${raw}"`);
  }
  const maxPrefix = family === 4 ? 32 : 128;
  // A bare address means that single host, which is the narrowest (and so least dangerous) reading.
  const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) {
    throw new ConfigError(`OUTBOUND_ALLOW_CIDRS has an invalid prefix length in "${raw}"`);
  }
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix) {
    throw new ConfigError(`OUTBOUND_ALLOW_CIDRS prefix must be 0..${maxPrefix} in "${raw}"`);
  }
  return [ipaddr.parse(address), prefix];
}

function retrySchedule(env: Env): number[] {
  const raw = str(env, "WEBHOOK_RETRY_SCHEDULE", DEFAULT_RETRY_SCHEDULE);
  const parts = raw.split(",").map((p) => p.trim());
  return parts.map((p) => {
    if (!/^\d+$/.test(p) || Number(p) < 1 || !Number.isSafeInteger(Number(p))) {
      throw new ConfigError(
        `WEBHOOK_RETRY_SCHEDULE must be comma-separated positive integers (seconds), got "${raw}"`,
      );
    }
    return Number(p);
  });
}

export function loadOutboundConfig(env: Env): OutboundConfig {
  const allowCidrs = str(env, "OUTBOUND_ALLOW_CIDRS", "")
    .split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "")
    .map(parseCidr);
  return {
    allowCidrs,
    timeoutMs: int(env, "WEBHOOK_TIMEOUT_MS", 15_000, 1),
    retryScheduleSeconds: retrySchedule(env),
    delivery: {
      concurrency: int(env, "WEBHOOK_CONCURRENCY", 100, 1),
      endpointConcurrency: int(env, "WEBHOOK_ENDPOINT_CONCURRENCY", 10, 1),
      leaseMarginSeconds: int(env, "WEBHOOK_LEASE_MARGIN_SECONDS", 30, 1),
      pollMs: int(env, "WEBHOOK_POLL_MS", 1000, 10),
      retentionDays: int(env, "WEBHOOK_RETENTION_DAYS", 30, 1),
    },
  };
}
