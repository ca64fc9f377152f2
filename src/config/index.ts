import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type AiConfig, loadAiConfig } from "./ai.js";
import { type BillingConfig, loadBillingConfig } from "./billing.js";
import { type ConsoleConfig, loadConsoleConfig } from "./console.js";
import { bool, ConfigError, type Env, int, optional, str } from "./env.js";
import { type HttpServerConfig, loadHttpServerConfig } from "./http.js";
import { type JobsConfig, loadJobsConfig } from "./jobs.js";
import { loadMailConfig, type MailConfig } from "./mail.js";
import { loadMediaConfig, type MediaConfig } from "./media.js";
import { loadOutboundConfig, type OutboundConfig } from "./outbound.js";
import { loadPlanConfig, type PlanConfig } from "./plans.js";
import { loadSecretsConfig, type SecretsConfig } from "./secrets.js";
import { loadVideoConfig, type VideoConfig } from "./video.js";

export { ConfigError } from "./env.js";

export interface Config {
  nodeEnv: string;
  host: string;
  port: number;
  logLevel: string;
  db: { url?: string; dataDir: string; poolSize: number };
  redisUrl?: string;
  baseDomain: string;
  worker: boolean;
  auth: {
    sessionSecret: Uint8Array;
    accessTokenTtlSeconds: number;
    refreshTokenTtlSeconds: number;
    secureCookies: boolean;
    /** Failed logins allowed per e-mail and per IP within `loginWindowSeconds`. */
    loginMaxPerEmail: number;
    loginMaxPerIp: number;
    loginWindowSeconds: number;
    /** Requests with unusable credentials allowed per IP per minute before 429. */
    badCredentialsPerIpPerMinute: number;
    apiKeyCacheMs: number;
  };
  plans: PlanConfig;
  billing: BillingConfig;
  /** Tenant webhooks: SSRF allow-list (dangerous, dev/test only), attempt timeout, retry schedule. */
  outbound: OutboundConfig;
  /** Keyring for secrets encrypted at rest (webhook signing secrets): SECRETS_ENCRYPTION_KEY(S_PREVIOUS). */
  secrets: SecretsConfig;
  bodyLimitBytes: number;
  /** Timeouts for slow and idle clients (HTTP_*_TIMEOUT_MS). */
  http: HttpServerConfig;
  /** Automations and webhook endpoints together, per institution: each event fans out to at most this many. */
  maxAutomationsPerInstitution: number;
  /** Fastify's trustProxy: which proxies may set X-Forwarded-For (per-IP limits need the client's address). */
  trustProxy: boolean | number | string;
  cronSecret?: string;
  /** E-mail: SMTP or .eml files, From, retries, the bounce route's secret, password-reset lifetime. */
  mail: MailConfig;
  /** Background jobs and reports: poll, concurrency, the per-institution cap, leases, download URL lifetime. */
  jobs: JobsConfig;
  /** Media storage (local disk or S3-compatible), signed URLs and per-plan storage quotas. */
  media: MediaConfig;
  /** Video providers' API locations (ZOOM_API_BASE, ZOOM_OAUTH_BASE). */
  video: VideoConfig;
  /** The environment's AI provider (AI_BASE_URL, AI_API_KEY, AI_MODEL) and call timeouts and retries. */
  ai: AiConfig;
  /** Where the admin console's built files are (CONSOLE_DIR). */
  console: ConsoleConfig;
}

/** `TRUST_PROXY`: off (default), `true`, a hop count, or a comma-separated list of proxy addresses/CIDRs. */
function trustProxy(env: Env): boolean | number | string {
  const raw = optional(env, "TRUST_PROXY");
  if (raw === undefined || ["0", "false", "off", "no"].includes(raw.toLowerCase())) return false;
  if (["true", "on", "yes"].includes(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

/**
 * The embedded default keeps its JWT secret in DATA_DIR so sessions survive restarts with zero set-up.
 * With DATABASE_URL (a real deployment) SESSION_SECRET must be given explicitly.
 */
function sessionSecret(env: Env, dataDir: string, usingServerDb: boolean, nodeEnv: string): Uint8Array {
  const given = optional(env, "SESSION_SECRET");
  if (given !== undefined) {
    if (given.length < 32) throw new ConfigError("SESSION_SECRET must be at least 32 characters");
    return new TextEncoder().encode(given);
  }
  if (usingServerDb && nodeEnv === "production") {
    throw new ConfigError("SESSION_SECRET is required when DATABASE_URL is set in production");
  }
  if (dataDir === ":memory:") return randomBytes(32);
  const file = join(dataDir, "session-secret");
  if (existsSync(file)) return new TextEncoder().encode(readFileSync(file, "utf8").trim());
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return new TextEncoder().encode(secret);
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = str(env, "NODE_ENV", "production");
  const dbUrl = optional(env, "DATABASE_URL");
  const rawDataDir = str(env, "DATA_DIR", "./data");
  const dataDir = rawDataDir === ":memory:" ? rawDataDir : resolve(rawDataDir);
  // The session secret is checked before the secrets keyring, as before the media settings needed the latter.
  const session = sessionSecret(env, dataDir, dbUrl !== undefined, nodeEnv);
  const secrets = loadSecretsConfig(env, dataDir);
  return {
    nodeEnv,
    host: str(env, "HOST", "127.0.0.1"),
    port: int(env, "PORT", 3000),
    logLevel: str(env, "LOG_LEVEL", nodeEnv === "test" ? "silent" : "info"),
    db: { url: dbUrl, dataDir, poolSize: int(env, "DATABASE_POOL_SIZE", 10, 1) },
    redisUrl: optional(env, "REDIS_URL"),
    baseDomain: str(env, "BASE_DOMAIN", "localhost").toLowerCase(),
    worker: bool(env, "WORKER", true),
    auth: {
      sessionSecret: session,
      accessTokenTtlSeconds: int(env, "ACCESS_TOKEN_TTL_SECONDS", 900, 1),
      refreshTokenTtlSeconds: int(env, "REFRESH_TOKEN_TTL_SECONDS", 30 * 24 * 3600, 1),
      secureCookies: !["development", "test"].includes(nodeEnv),
      loginMaxPerEmail: int(env, "LOGIN_MAX_PER_EMAIL", 5, 1),
      loginMaxPerIp: int(env, "LOGIN_MAX_PER_IP", 20, 1),
      loginWindowSeconds: int(env, "LOGIN_WINDOW_SECONDS", 900, 1),
      badCredentialsPerIpPerMinute: int(env, "BAD_CREDENTIALS_PER_IP_PER_MINUTE", 60, 1),
      apiKeyCacheMs: int(env, "API_KEY_CACHE_MS", 5000, 0),
    },
    plans: loadPlanConfig(env),
    billing: loadBillingConfig(env),
    outbound: loadOutboundConfig(env),
    secrets,
    bodyLimitBytes: int(env, "BODY_LIMIT_BYTES", 1024 * 1024, 1024),
    http: loadHttpServerConfig(env),
    maxAutomationsPerInstitution: int(env, "MAX_AUTOMATIONS_PER_INSTITUTION", 50, 1),
    trustProxy: trustProxy(env),
    cronSecret: optional(env, "CRON_SECRET"),
    mail: loadMailConfig(env, dataDir, str(env, "BASE_DOMAIN", "localhost").toLowerCase()),
    jobs: loadJobsConfig(env),
    media: loadMediaConfig(env, dataDir, secrets.encryptionKeys.current.key),
    video: loadVideoConfig(env),
    ai: loadAiConfig(env),
    console: loadConsoleConfig(env),
  };
}
