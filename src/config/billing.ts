import { ConfigError, type Env, int, optional, str } from "./env.js";

/** Where the Stripe SDK sends its requests; only set to reach a local fake or mock in tests and development. */
export interface StripeApiBase {
  host: string;
  port: number;
  protocol: "http" | "https";
}

export interface BillingConfig {
  stripeSecretKey?: string;
  webhookSecret?: string;
  apiBase?: StripeApiBase;
  /** Payment methods offered with BRL prices; checkout falls back to card alone when Stripe refuses them. */
  brlMethods: string[];
  /** The SDK's own retries of connection errors, 409 and 5xx (with its idempotency keys). */
  maxNetworkRetries: number;
}

/** `STRIPE_API_BASE=http://127.0.0.1:12111` → the SDK's `host`/`port`/`protocol` options. */
function apiBase(env: Env): StripeApiBase | undefined {
  const raw = optional(env, "STRIPE_API_BASE");
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`STRIPE_API_BASE must be a URL such as http://127.0.0.1:12111, got "${raw}"`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.pathname.replace(/\/$/, "") !== "") {
    throw new ConfigError("STRIPE_API_BASE must be an http(s) origin without a path");
  }
  const protocol = url.protocol === "http:" ? "http" : "https";
  const port = url.port === "" ? (protocol === "http" ? 80 : 443) : Number(url.port);
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port, protocol };
}

export function loadBillingConfig(env: Env): BillingConfig {
  const brlMethods = str(env, "STRIPE_BRL_METHODS", "card,boleto,pix")
    .split(",")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  for (const method of brlMethods) {
    if (!/^[a-z_]+$/.test(method))
      throw new ConfigError(`STRIPE_BRL_METHODS has an invalid method "${method}"`);
  }
  if (!brlMethods.includes("card")) brlMethods.unshift("card");
  return {
    stripeSecretKey: optional(env, "STRIPE_SECRET_KEY"),
    webhookSecret: optional(env, "STRIPE_WEBHOOK_SECRET"),
    apiBase: apiBase(env),
    brlMethods,
    maxNetworkRetries: int(env, "STRIPE_MAX_NETWORK_RETRIES", 2),
  };
}
