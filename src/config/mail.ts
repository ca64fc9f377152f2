import { createHash } from "node:crypto";
import { join } from "node:path";
import { ConfigError, type Env, int, optional, str } from "./env.js";

export interface MailConfig {
  /** `smtp://user:pass@host:port` or `smtps://…` (SMTP_URL); unset, mail is written as .eml files to `dir`. */
  smtpUrl?: string;
  /** Where .eml files go without SMTP: MAIL_DIR, or `<DATA_DIR>/mail`; none on an in-memory database. */
  dir?: string;
  /** The From header (MAIL_FROM), e.g. `Aula <no-reply@example.com>`. */
  from: string;
  /** MAIL_FROM's address alone: institutions send from it under their own display name. */
  fromAddress: string;
  /** The domain of Message-IDs: the From address's. */
  messageIdDomain: string;
  /** Seconds before each retry of a message that could not be sent; it fails for good once they run out. */
  retryScheduleSeconds: number[];
  /** The mail worker's poll (MAIL_POLL_MS) and the most messages one claim takes (MAIL_BATCH_SIZE). */
  pollMs: number;
  batchSize: number;
  /** How long a claimed message belongs to its worker before another may take it (MAIL_LEASE_SECONDS). */
  leaseSeconds: number;
  /** SHA-256 of EMAIL_BOUNCE_SECRET, the bearer token of POST /api/email/bounces; unset, that route is 401. */
  bounceSecretHash?: string;
  /** Lifetime of a password-reset token (PASSWORD_RESET_TTL_SECONDS). */
  passwordResetTtlSeconds: number;
}

function retrySchedule(raw: string): number[] {
  const parts = raw.split(",").map((p) => p.trim());
  if (parts.some((p) => !/^\d+$/.test(p))) {
    throw new ConfigError("MAIL_RETRY_SCHEDULE must be comma-separated whole seconds");
  }
  return parts.map(Number);
}

export function loadMailConfig(env: Env, dataDir: string, baseDomain: string): MailConfig {
  const from = str(env, "MAIL_FROM", `Aula <no-reply@${baseDomain}>`);
  const address = /<([^<>\s]+@([^<>\s]+))>\s*$/.exec(from) ?? /^([^\s@]+@([^\s@]+))$/.exec(from);
  if (address === null) throw new ConfigError("MAIL_FROM must be an address, or a name and <address>");
  if (/[\r\n]/.test(from)) throw new ConfigError("MAIL_FROM must be one line");
  const smtpUrl = optional(env, "SMTP_URL");
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError("SMTP_URL must start with smtp:// or smtps://");
  }
  const bounceSecret = optional(env, "EMAIL_BOUNCE_SECRET");
  if (bounceSecret !== undefined && bounceSecret.length < 32) {
    throw new ConfigError("EMAIL_BOUNCE_SECRET must be at least 32 characters");
  }
  return {
    smtpUrl,
    dir: optional(env, "MAIL_DIR") ?? (dataDir === ":memory:" ? undefined : join(dataDir, "mail")),
    from,
    fromAddress: address[1] as string,
    messageIdDomain: (address[2] as string).toLowerCase(),
    retryScheduleSeconds: retrySchedule(str(env, "MAIL_RETRY_SCHEDULE", "30,300,1800,7200,21600")),
    pollMs: int(env, "MAIL_POLL_MS", 2000, 10),
    batchSize: int(env, "MAIL_BATCH_SIZE", 20, 1),
    leaseSeconds: int(env, "MAIL_LEASE_SECONDS", 120, 5),
    bounceSecretHash:
      bounceSecret === undefined ? undefined : createHash("sha256").update(bounceSecret).digest("hex"),
    passwordResetTtlSeconds: int(env, "PASSWORD_RESET_TTL_SECONDS", 3600, 60),
  };
}
