import { randomBytes, randomInt } from "node:crypto";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { inject } from "vitest";
import { buildApp } from "../app.js";
import { openContext } from "../bootstrap.js";
import { type Config, loadConfig } from "../config/index.js";
import type { Database } from "../db/client.js";
import type { CreateApiKeyInput } from "../modules/api-keys/schemas.js";
import { createApiKey } from "../modules/api-keys/service.js";
import { setPassword } from "../modules/auth/service.js";
import { createTenant } from "../modules/tenants/service.js";
import { createUser } from "../modules/users/service.js";
import { setPasswordHashCost } from "../platform/auth/secrets.js";
import type { Role } from "../platform/auth/types.js";
import { type AppContext, closeContext } from "../platform/context.js";
import type { App } from "../platform/http/types.js";
import { ResponseCheck } from "./response-check.js";

/**
 * A real app on a real database: PGlite in memory by default, or the PostgreSQL server and Redis named by
 * DATABASE_URL / REDIS_URL (as CI runs it). Tenants get random slugs, so test files can share one server.
 */
export interface Harness {
  app: App;
  ctx: AppContext;
  database: Database;
  config: Config;
  /** The client address this harness's requests come from; unique, so per-IP limits never cross test files. */
  ip: string;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Receives every log line (JSON) at `logLevel` (default "trace" when given). Logs are off otherwise. */
  onLog?: (line: string) => void;
  logLevel?: string;
  /** Registers extra routes (test hooks such as a forced 500) before the app is ready. */
  routes?: (app: App) => void;
  /**
   * Whether every response is checked against the OpenAPI document (default true). The loop-timing tests turn it
   * off: the check is the harness's own work on the event loop (compiling a route's validator on its first
   * answer, parsing and validating a 1,000-item body: 20-30 ms), which they would charge to the service.
   */
  checkResponses?: boolean;
}

export async function startHarness(
  env: Record<string, string> = {},
  options: HarnessOptions = {},
): Promise<Harness> {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: ":memory:",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  // Passwords hashed at 2^8 instead of 2^15: the same scrypt, ~1 ms instead of ~0.2 s of CPU each.
  setPasswordHashCost(256);
  // On PGlite, a copy of the migrated image made once per run (src/test-support/global-setup.ts).
  const ctx = await openContext(config, 5, { pgliteImage: inject("pgliteImage") });
  const database = ctx.database;
  const onLog = options.onLog;
  const logger =
    onLog === undefined ? false : { level: options.logLevel ?? "trace", stream: { write: onLog } };
  const responses = new ResponseCheck();
  const app = await buildApp(ctx, {
    logger,
    instrument: (a) => {
      if (options.checkResponses !== false) responses.watch(a);
    },
  });
  options.routes?.(app);
  await app.ready();
  const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  return {
    app,
    ctx,
    database,
    config,
    ip,
    inject: (options) => app.inject({ remoteAddress: ip, ...options }),
    async close() {
      await app.close();
      await closeContext(ctx);
      responses.verify();
    },
  };
}

export interface TestTenant {
  id: string;
  slug: string;
  host: string;
  adminUserId: string;
  adminEmail: string;
  password: string;
}

export const TEST_PASSWORD = "correct horse battery staple";

export function uniqueSlug(prefix = "t"): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}

export async function makeTenant(h: Harness, name = "Test Institution"): Promise<TestTenant> {
  const slug = uniqueSlug();
  const adminEmail = `admin@${slug}.test`;
  const created = await createTenant(h.database.db, h.config.plans, {
    slug,
    name,
    adminEmail,
    adminPassword: TEST_PASSWORD,
  });
  return {
    id: created.tenantId,
    slug,
    host: `${slug}.${h.config.baseDomain}`,
    adminUserId: created.adminUserId,
    adminEmail,
    password: TEST_PASSWORD,
  };
}

/** A key's limits for files that send more than a standard key's 100 requests a minute. */
export const UNLIMITED_KEY = {
  rateTier: "custom",
  customLimits: { perHour: 100_000, perMinute: 100_000 },
} as const satisfies Partial<CreateApiKeyInput>;

/** A key made directly through the service (the HTTP route has its own tests). Returns the secret. */
export async function makeKey(
  h: Harness,
  tenant: TestTenant,
  scopes: string[],
  extra: Partial<CreateApiKeyInput> = {},
): Promise<string> {
  const key = await createApiKey(h.database.db, tenant.id, tenant.adminUserId, {
    name: "test key",
    scopes,
    rateTier: "standard",
    ...extra,
  });
  return key.secret;
}

export async function makeUser(h: Harness, tenant: TestTenant, role: Role, password?: string) {
  const user = await createUser(
    h.database.db,
    h.config.plans,
    tenant.id,
    { kind: "system" },
    {
      name: `${role} ${randomBytes(3).toString("hex")}`,
      email: `${role}-${randomBytes(4).toString("hex")}@${tenant.slug}.test`,
      role,
    },
  );
  if (password !== undefined) await setPassword(h.database.db, tenant.id, user.id, password);
  return user;
}

/** Signs in through the real login route and returns the Cookie header to send. */
export async function sessionCookie(
  h: Harness,
  tenant: TestTenant,
  email: string,
  password: string,
): Promise<string> {
  const res = await h.inject({
    method: "POST",
    url: "/api/auth/login",
    headers: { host: tenant.host, "content-type": "application/json" },
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

export async function adminCookie(h: Harness, tenant: TestTenant): Promise<string> {
  return sessionCookie(h, tenant, tenant.adminEmail, tenant.password);
}

export async function roleCookie(h: Harness, tenant: TestTenant, role: Role): Promise<string> {
  const user = await makeUser(h, tenant, role, TEST_PASSWORD);
  return sessionCookie(h, tenant, user.email, TEST_PASSWORD);
}

export interface SignedInUser {
  id: string;
  email: string;
  cookie: string;
}

/** A new user of the role, signed in through the login route: its id, e-mail and Cookie header. */
export async function signedInUser(h: Harness, tenant: TestTenant, role: Role): Promise<SignedInUser> {
  const user = await makeUser(h, tenant, role, TEST_PASSWORD);
  return {
    id: user.id,
    email: user.email,
    cookie: await sessionCookie(h, tenant, user.email, TEST_PASSWORD),
  };
}

export const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
export const json = { "content-type": "application/json" };

/**
 * The tables (of the public schema) holding a row whose text form contains `needle`: a grep of the whole
 * database, for "only a hash is stored" assertions. Secrets are random, so a shared server is fine.
 */
export async function tablesContaining(h: Harness, needle: string): Promise<string[]> {
  const { sql } = await import("drizzle-orm");
  const tables = (await h.database.db.execute(
    sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  )) as unknown as { rows: { name: string }[] };
  const hits: string[] = [];
  for (const { name } of tables.rows) {
    const res = (await h.database.db.execute(
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(name)} AS t WHERE strpos(t::text, ${needle}) > 0`,
    )) as unknown as { rows: { n: number }[] };
    if ((res.rows[0]?.n ?? 0) > 0) hits.push(name);
  }
  return hits;
}
