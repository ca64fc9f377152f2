import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config/index.js";
import type { Database } from "../db/client.js";
import { ApiKeyStore } from "./auth/api-key-store.js";
import { LimiterFactory } from "./rate-limit/limiter.js";
import { TenantResolver } from "./tenancy/resolver.js";

/** The process-wide services every module is built with. Created once by app.ts (or by a test). */
export interface AppContext {
  config: Config;
  database: Database;
  tenants: TenantResolver;
  apiKeys: ApiKeyStore;
  limiters: LimiterFactory;
  log?: FastifyBaseLogger;
}

export function createContext(config: Config, database: Database): AppContext {
  return {
    config,
    database,
    tenants: new TenantResolver(database.db, config.baseDomain),
    apiKeys: new ApiKeyStore(database.db, config.auth.apiKeyCacheMs),
    limiters: new LimiterFactory(config.redisUrl),
  };
}
