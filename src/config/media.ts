import { createHmac } from "node:crypto";
import { resolve } from "node:path";
import { ConfigError, type Env, int, optional, str } from "./env.js";
import { isPlan, type Plan } from "./plans.js";

const GIB = 1024 ** 3;

/** Documented defaults of the storage each plan may hold (uploads pending and ready, in bytes). */
export const DEFAULT_STORAGE_LIMITS: Readonly<Record<Plan, number>> = {
  free: 1 * GIB,
  mini: 10 * GIB,
  growth: 50 * GIB,
  pro_100: 200 * GIB,
};

export interface S3Config {
  /** Any S3-compatible endpoint (`https://s3.example.com`); unset means AWS itself for the region. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible stores need. */
  forcePathStyle: boolean;
  /** Key prefix inside the bucket, so one bucket can serve several deployments. */
  prefix: string;
}

export interface MediaConfig {
  /** Where bytes live: the local disk under `dir`, or an S3-compatible bucket. */
  driver: "local" | "s3";
  /** `MEDIA_DIR`, by default `DATA_DIR/media`; undefined with `DATA_DIR=:memory:` (a temporary folder then). */
  dir: string | undefined;
  s3: S3Config | undefined;
  /** HMAC key of the local upload and download URLs. */
  urlSigningKey: Buffer;
  uploadUrlTtlSeconds: number;
  downloadUrlTtlSeconds: number;
  /** The largest single file accepted, whatever the plan's room. */
  maxUploadBytes: number;
  storageLimits: Readonly<Record<Plan, number>>;
}

function storageLimits(env: Env): Record<Plan, number> {
  const raw = optional(env, "PLAN_STORAGE_LIMITS");
  const limits: Record<Plan, number> = { ...DEFAULT_STORAGE_LIMITS };
  if (raw === undefined) return limits;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError("PLAN_STORAGE_LIMITS must be a JSON object");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError("PLAN_STORAGE_LIMITS must be a JSON object");
  }
  for (const [plan, limit] of Object.entries(parsed)) {
    if (!isPlan(plan)) throw new ConfigError(`PLAN_STORAGE_LIMITS names an unknown plan "${plan}"`);
    if (!Number.isSafeInteger(limit) || (limit as number) < 0) {
      throw new ConfigError(`PLAN_STORAGE_LIMITS.${plan} must be a non-negative integer (bytes)`);
    }
    limits[plan] = limit as number;
  }
  return limits;
}

function s3Config(env: Env): S3Config | undefined {
  const bucket = optional(env, "S3_BUCKET");
  if (bucket === undefined) return undefined;
  const accessKeyId = optional(env, "S3_ACCESS_KEY_ID");
  const secretAccessKey = optional(env, "S3_SECRET_ACCESS_KEY");
  if (accessKeyId === undefined || secretAccessKey === undefined) {
    throw new ConfigError("S3_BUCKET needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY");
  }
  const endpoint = optional(env, "S3_ENDPOINT");
  if (endpoint !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(endpoint)) {
    throw new ConfigError("S3_ENDPOINT must be an http(s) origin such as https://s3.example.com");
  }
  // On Node 20 the AWS SDK warns, once per process at its first client, that its releases after January 2027
  // need Node 22. The lockfile decides which release runs and the README states the supported Node versions, so
  // the notice only adds a stack-less warning to an operator's logs; this is the switch AWS documents for it
  // (aws-sdk-js-v3#7983). It silences that notice alone, and an operator's own value is kept.
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const pathStyle = str(env, "S3_FORCE_PATH_STYLE", endpoint === undefined ? "false" : "true");
  const prefix = str(env, "S3_PREFIX", "");
  if (prefix !== "" && !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(prefix)) {
    throw new ConfigError("S3_PREFIX must be path segments of letters, digits, '.', '_' and '-'");
  }
  return {
    ...(endpoint === undefined ? {} : { endpoint: endpoint.replace(/\/$/, "") }),
    region: str(env, "S3_REGION", "us-east-1"),
    bucket,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: ["1", "true", "yes", "on"].includes(pathStyle.toLowerCase()),
    prefix,
  };
}

/**
 * `MEDIA_URL_SIGNING_KEY` (at least 32 characters) signs the local upload and download URLs; unset, a key is
 * derived from the secrets encryption key (HMAC with a fixed label), so every process of a deployment agrees
 * without one more secret to distribute, and the derived key reveals nothing of the one it comes from.
 */
function urlSigningKey(env: Env, secretsKey: Buffer): Buffer {
  const given = optional(env, "MEDIA_URL_SIGNING_KEY");
  if (given !== undefined) {
    if (given.length < 32) throw new ConfigError("MEDIA_URL_SIGNING_KEY must be at least 32 characters");
    return Buffer.from(given, "utf8");
  }
  return createHmac("sha256", secretsKey).update("aula media url signing v1").digest();
}

export function loadMediaConfig(env: Env, dataDir: string, secretsKey: Buffer): MediaConfig {
  const s3 = s3Config(env);
  const driver = str(env, "MEDIA_STORAGE", s3 === undefined ? "local" : "s3");
  if (driver !== "local" && driver !== "s3") throw new ConfigError("MEDIA_STORAGE must be local or s3");
  if (driver === "s3" && s3 === undefined) throw new ConfigError("MEDIA_STORAGE=s3 needs S3_BUCKET");
  const givenDir = optional(env, "MEDIA_DIR");
  const dir =
    givenDir !== undefined
      ? resolve(givenDir)
      : dataDir === ":memory:"
        ? undefined
        : resolve(dataDir, "media");
  return {
    driver,
    dir,
    s3,
    urlSigningKey: urlSigningKey(env, secretsKey),
    uploadUrlTtlSeconds: int(env, "MEDIA_UPLOAD_URL_TTL_SECONDS", 3600, 60),
    downloadUrlTtlSeconds: int(env, "MEDIA_DOWNLOAD_URL_TTL_SECONDS", 300, 10),
    maxUploadBytes: int(env, "MEDIA_MAX_UPLOAD_BYTES", 5 * GIB, 1),
    storageLimits: storageLimits(env),
  };
}
