import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./index.js";
import { DEFAULT_STUDENT_LIMITS } from "./plans.js";

const dir = mkdtempSync(join(tmpdir(), "aula-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("configuration", () => {
  it("has the documented defaults", () => {
    const c = loadConfig({ DATA_DIR: dir });
    expect(c.host).toBe("127.0.0.1");
    expect(c.port).toBe(3000);
    expect(c.baseDomain).toBe("localhost");
    expect(c.db.url).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.worker).toBe(true);
    expect(c.auth.secureCookies).toBe(true);
    expect(c.plans.studentLimits).toEqual(DEFAULT_STUDENT_LIMITS);
    expect(c.trustProxy).toBe(false);
  });

  it("reads the HTTP server's timeouts, with defaults, and refuses a headers timeout past the request timeout", () => {
    expect(loadConfig({ DATA_DIR: dir }).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      connectionTimeoutMs: 120_000,
      checkIntervalMs: 2_500,
    });
    const short = loadConfig({
      DATA_DIR: dir,
      HTTP_HEADERS_TIMEOUT_MS: "400",
      HTTP_REQUEST_TIMEOUT_MS: "800",
    });
    expect(short.http).toMatchObject({ headersTimeoutMs: 400, requestTimeoutMs: 800, checkIntervalMs: 100 });
    for (const [name, value] of [
      ["HTTP_HEADERS_TIMEOUT_MS", "0"],
      ["HTTP_REQUEST_TIMEOUT_MS", "soon"],
      ["HTTP_HEADERS_TIMEOUT_MS", "40000"],
    ] as const) {
      expect(() => loadConfig({ DATA_DIR: dir, [name]: value }), `${name}=${value}`).toThrow(ConfigError);
    }
  });

  it("keeps a generated session secret in DATA_DIR, readable only by its owner, and reuses it", () => {
    const first = loadConfig({ DATA_DIR: dir }).auth.sessionSecret;
    const second = loadConfig({ DATA_DIR: dir }).auth.sessionSecret;
    expect(Buffer.from(first).toString()).toBe(Buffer.from(second).toString());
    expect(readFileSync(join(dir, "session-secret"), "utf8")).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dir, "session-secret")).mode & 0o077).toBe(0);
  });

  it("merges PLAN_STUDENT_LIMITS over the defaults and refuses nonsense", () => {
    const c = loadConfig({ DATA_DIR: dir, PLAN_STUDENT_LIMITS: '{"free":3,"growth":400}' });
    expect(c.plans.studentLimits).toEqual({ ...DEFAULT_STUDENT_LIMITS, free: 3, growth: 400 });
    for (const bad of ["[1]", "{", '{"gold":5}', '{"free":-1}', '{"free":2.5}']) {
      expect(() => loadConfig({ DATA_DIR: dir, PLAN_STUDENT_LIMITS: bad }), bad).toThrow(ConfigError);
    }
  });

  it("drops Secure cookies only in development and test", () => {
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: "development" }).auth.secureCookies).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: "test" }).auth.secureCookies).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: "staging" }).auth.secureCookies).toBe(true);
  });

  it("reads TRUST_PROXY as off, on, a hop count or a list of proxies", () => {
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "off" }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "10.0.0.0/8,127.0.0.1" }).trustProxy).toBe(
      "10.0.0.0/8,127.0.0.1",
    );
  });

  it("refuses malformed numbers, switches and short secrets at start", () => {
    expect(() => loadConfig({ DATA_DIR: dir, PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, WORKER: "maybe" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, SESSION_SECRET: "short" })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ DATA_DIR: dir, DATABASE_URL: "postgres://x/y", NODE_ENV: "production" }),
    ).toThrow(/SESSION_SECRET/);
  });

  it("derives the allowed paid-plan price list from STRIPE_PRICE_<PLAN>_<CURRENCY>", () => {
    const c = loadConfig({
      DATA_DIR: dir,
      STRIPE_PRICE_MINI_BRL: "price_mini_brl",
      STRIPE_PRICE_PRO_100_USD: "price_pro_usd",
    });
    expect(c.plans.prices.mini).toEqual({ brl: "price_mini_brl", usd: undefined });
    expect(c.plans.prices.pro_100).toEqual({ brl: undefined, usd: "price_pro_usd" });
    expect(c.plans.prices.growth).toEqual({ brl: undefined, usd: undefined });
    expect([...c.plans.allowedPrices]).toEqual([
      ["price_mini_brl", { plan: "mini", currency: "brl" }],
      ["price_pro_usd", { plan: "pro_100", currency: "usd" }],
    ]);
    expect(loadConfig({ DATA_DIR: dir }).plans.allowedPrices.size).toBe(0);
    expect(() => loadConfig({ DATA_DIR: dir, STRIPE_PRICE_MINI_BRL: "prod_123" })).toThrow(ConfigError);
    expect(() =>
      loadConfig({
        DATA_DIR: dir,
        STRIPE_PRICE_MINI_BRL: "price_same",
        STRIPE_PRICE_GROWTH_BRL: "price_same",
      }),
    ).toThrow(/repeats/);
  });

  it("reads the Stripe settings: API base, BRL methods, retries", () => {
    const c = loadConfig({
      DATA_DIR: dir,
      STRIPE_API_BASE: "http://127.0.0.1:12111",
      STRIPE_BRL_METHODS: "pix, boleto",
    });
    expect(c.billing.apiBase).toEqual({ host: "127.0.0.1", port: 12111, protocol: "http" });
    expect(c.billing.brlMethods).toEqual(["card", "pix", "boleto"]);
    expect(c.billing.maxNetworkRetries).toBe(2);
    const defaults = loadConfig({ DATA_DIR: dir }).billing;
    expect(defaults.apiBase).toBeUndefined();
    expect(defaults.brlMethods).toEqual(["card", "boleto", "pix"]);
    expect(defaults.stripeSecretKey).toBeUndefined();
    for (const bad of ["not a url", "ftp://x", "http://127.0.0.1:1/v1"]) {
      expect(() => loadConfig({ DATA_DIR: dir, STRIPE_API_BASE: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ DATA_DIR: dir, STRIPE_BRL_METHODS: "card,Pix!" })).toThrow(ConfigError);
  });

  it("turns off the AWS SDK's Node-version notice when S3 is configured, keeping an operator's own value", async () => {
    const SWITCH = "AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED";
    const s3 = { DATA_DIR: dir, S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k", S3_SECRET_ACCESS_KEY: "s" };
    const env: Record<string, string | undefined> = { ...s3 };
    loadConfig(env);
    expect(env[SWITCH]).toBe("true");
    const own: Record<string, string | undefined> = { ...s3, [SWITCH]: "false" };
    loadConfig(own);
    expect(own[SWITCH]).toBe("false");
    const local: Record<string, string | undefined> = { DATA_DIR: dir };
    loadConfig(local);
    expect(local[SWITCH]).toBeUndefined();

    // The SDK reads the switch from the process's environment when it makes its first client (on Node 20 it
    // would warn there; on 22 and later it has nothing to say).
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(w.message);
    const saved = process.env[SWITCH];
    process.on("warning", onWarning);
    process.env[SWITCH] = env[SWITCH];
    try {
      const { S3Client } = await import("@aws-sdk/client-s3");
      new S3Client({
        region: "us-east-1",
        credentials: { accessKeyId: "k", secretAccessKey: "s" },
      }).destroy();
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off("warning", onWarning);
      if (saved === undefined) delete process.env[SWITCH];
      else process.env[SWITCH] = saved;
    }
    expect(warnings.filter((m) => m.includes("NodeVersionSupportWarning"))).toEqual([]);
  });
});
