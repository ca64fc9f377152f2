import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { apiKeys } from "../../db/schema/index.js";
import type { Broadcast } from "../cache/broadcast.js";
import { TtlCache } from "../http/ttl-cache.js";
import { sha256Hex } from "./secrets.js";

export interface ActiveKey {
  id: string;
  tenantId: string;
  scopes: readonly string[];
  rateTier: string;
  perHour: number | null;
  perMinute: number | null;
}

const LAST_USED_EVERY_MS = 60_000;
const REVOKED_CHANNEL = "aula:api-keys:revoked";

/**
 * Looks keys up by (tenant, SHA-256 of the secret). Answers are cached for at most `ttlMs` (a few seconds) so a
 * busy key costs no query per request. A revocation empties the cache of this process before the revoking request
 * answers, and of every other process through the broadcast (Redis pub/sub) a moment later; the TTL bounds what a
 * process that missed the message can still believe.
 */
export class ApiKeyStore {
  private readonly cache: TtlCache<string, ActiveKey | null>;
  private readonly lastUsedWritten = new Map<string, number>();
  /** Bumped by every revocation, so a lookup that started before it cannot cache what it read. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    ttlMs: number,
    private readonly broadcast: Broadcast,
  ) {
    this.cache = new TtlCache(ttlMs, 50_000);
  }

  /** Listens for revocations made by other processes. */
  async listen(): Promise<void> {
    await this.broadcast.on(REVOKED_CHANNEL, () => this.clear());
  }

  /**
   * The active key with this secret, or null. `beforeQuery` runs only when the answer is not cached, i.e. only
   * before a database lookup (the flood guard needs nothing else).
   */
  async find(tenantId: string, secret: string, beforeQuery?: () => Promise<void>): Promise<ActiveKey | null> {
    const hash = sha256Hex(secret);
    const cacheKey = `${tenantId}:${hash}`;
    const cached = this.cache.get(cacheKey);
    if (cached !== undefined) return cached;
    await beforeQuery?.();
    const generation = this.generation;
    const rows = await this.db
      .select({
        id: apiKeys.id,
        tenantId: apiKeys.tenantId,
        scopes: apiKeys.scopes,
        rateTier: apiKeys.rateTier,
        perHour: apiKeys.customPerHour,
        perMinute: apiKeys.customPerMinute,
      })
      .from(apiKeys)
      .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
      .limit(1);
    const key = rows[0] ?? null;
    if (generation === this.generation) this.cache.set(cacheKey, key);
    return key;
  }

  /** Called by the revoking request before it answers: this process refuses the key from then on, others shortly. */
  async revoked(keyId: string): Promise<void> {
    await this.broadcast.publish(REVOKED_CHANNEL, keyId);
  }

  private clear(): void {
    this.generation++;
    this.cache.clear();
  }

  /** Records use at most once a minute per key, off the request's critical path. */
  touch(key: ActiveKey, log: (err: unknown) => void): void {
    const now = Date.now();
    const last = this.lastUsedWritten.get(key.id) ?? 0;
    if (now - last < LAST_USED_EVERY_MS) return;
    this.lastUsedWritten.set(key.id, now);
    if (this.lastUsedWritten.size > 50_000) this.lastUsedWritten.clear();
    this.db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.tenantId, key.tenantId), eq(apiKeys.id, key.id)))
      .then(
        () => {},
        (err: unknown) => log(err),
      );
  }
}
