import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "../errors/app-error.js";

type Limiter = RateLimiterMemory | RateLimiterRedis;

export interface WindowResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until this window frees a request. */
  msBeforeNext: number;
}

/**
 * Fixed windows counted in memory, or in Redis when several API processes must share one budget. A Redis outage
 * degrades to per-process memory counting (rate-limiter-flexible's insurance limiter) instead of failing requests.
 */
export class LimiterFactory {
  private readonly limiters = new Map<string, Limiter>();
  private readonly redis: Redis | undefined;

  constructor(redisUrl?: string) {
    this.redis =
      redisUrl === undefined
        ? undefined
        : new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    this.redis?.on("error", () => {
      // Connection errors are retried by ioredis; requests meanwhile fall back to the insurance limiter.
    });
  }

  get store(): "memory" | "redis" {
    return this.redis === undefined ? "memory" : "redis";
  }

  private limiter(prefix: string, points: number, durationSeconds: number): Limiter {
    const id = `${prefix}:${points}:${durationSeconds}`;
    let limiter = this.limiters.get(id);
    if (limiter === undefined) {
      const options = { keyPrefix: `aula:rl:${id}`, points, duration: durationSeconds };
      limiter =
        this.redis === undefined
          ? new RateLimiterMemory(options)
          : new RateLimiterRedis({
              ...options,
              storeClient: this.redis,
              rejectIfRedisNotReady: true,
              insuranceLimiter: new RateLimiterMemory(options),
            });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  /** Counts one request against a window. */
  async consume(prefix: string, key: string, points: number, durationSeconds: number): Promise<WindowResult> {
    try {
      const res = await this.limiter(prefix, points, durationSeconds).consume(key, 1);
      return { allowed: true, limit: points, remaining: res.remainingPoints, msBeforeNext: res.msBeforeNext };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { allowed: false, limit: points, remaining: 0, msBeforeNext: rejection.msBeforeNext };
    }
  }

  /** The window's state without counting a request (for checks that only count failures). */
  async peek(prefix: string, key: string, points: number, durationSeconds: number): Promise<WindowResult> {
    const res = await this.limiter(prefix, points, durationSeconds).get(key);
    const consumed = res?.consumedPoints ?? 0;
    return {
      allowed: consumed < points,
      limit: points,
      remaining: Math.max(0, points - consumed),
      msBeforeNext: res?.msBeforeNext ?? 0,
    };
  }

  /**
   * Gives back a point taken by `consume` (for counting only failures atomically: take first, refund on success).
   * Best effort: a refund that cannot be recorded only leaves the window stricter.
   */
  async refund(prefix: string, key: string, points: number, durationSeconds: number): Promise<void> {
    await this.limiter(prefix, points, durationSeconds)
      .reward(key, 1)
      .catch(() => {});
  }

  async reset(prefix: string, key: string, points: number, durationSeconds: number): Promise<void> {
    await this.limiter(prefix, points, durationSeconds).delete(key);
  }

  async close(): Promise<void> {
    await this.redis?.quit().catch(() => {});
  }
}

/** The 429 every limit answers with; `retryAfter` becomes both the body field and the Retry-After header. */
export function rateLimited(retryAfter: number, messageKey?: string): AppError {
  return new AppError("rate_limit_exceeded", { retryAfter, messageKey });
}

/** Whole seconds until a window frees a request; never 0 for a refusal. */
export function secondsUntil(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}
