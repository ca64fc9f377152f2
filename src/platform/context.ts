import type { Config } from "../config/index.js";
import type { Database } from "../db/client.js";
import { ApiKeyStore } from "./auth/api-key-store.js";
import { Broadcast } from "./cache/broadcast.js";
import { type Resolver, systemResolver, systemTxtResolver, type TxtResolver } from "./outbound/resolver.js";
import { LimiterFactory } from "./rate-limit/limiter.js";
import { TenantResolver } from "./tenancy/resolver.js";

/** The process-wide services every module is built with. Created once by app.ts (or by a test). */
export interface AppContext {
  config: Config;
  database: Database;
  tenants: TenantResolver;
  apiKeys: ApiKeyStore;
  limiters: LimiterFactory;
  broadcast: Broadcast;
  /** DNS for tenant-chosen URLs (SSRF checks); tests swap in a stub. */
  resolve: Resolver;
  /** TXT records (custom-domain verification); tests swap in a stub. */
  resolveTxt: TxtResolver;
}

export function createContext(config: Config, database: Database): AppContext {
  const broadcast = new Broadcast(config.redisUrl);
  return {
    config,
    database,
    tenants: new TenantResolver(database.db, config.baseDomain, broadcast),
    apiKeys: new ApiKeyStore(database.db, config.auth.apiKeyCacheMs, broadcast),
    limiters: new LimiterFactory(config.redisUrl),
    broadcast,
    resolve: systemResolver,
    resolveTxt: systemTxtResolver,
  };
}

/** Releases everything the context holds: Redis connections of the limiter and the broadcast, then the database. */
export async function closeContext(ctx: AppContext): Promise<void> {
  await Promise.all([ctx.limiters.close(), ctx.broadcast.close()]);
  await ctx.database.close();
}
