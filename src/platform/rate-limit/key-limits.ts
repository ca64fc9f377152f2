import type { ActiveKey } from "../auth/api-key-store.js";
import { type LimiterFactory, secondsUntil, type WindowResult } from "./limiter.js";

export const RATE_TIERS = {
  standard: { perHour: 1000, perMinute: 100 },
  high: { perHour: 5000, perMinute: 300 },
} as const;

export const DEFAULT_CUSTOM_PER_MINUTE = 60;

export interface KeyLimitOutcome {
  allowed: boolean;
  /** The window with fewer requests remaining: the one the headers describe. */
  headers: { limit: number; remaining: number; reset: number };
  retryAfter: number;
}

export function limitsOf(key: Pick<ActiveKey, "rateTier" | "perHour" | "perMinute">): {
  perHour: number;
  perMinute: number;
} {
  if (key.rateTier === "high") return RATE_TIERS.high;
  if (key.rateTier === "custom" && key.perHour !== null) {
    return { perHour: key.perHour, perMinute: key.perMinute ?? DEFAULT_CUSTOM_PER_MINUTE };
  }
  return RATE_TIERS.standard;
}

/** Counts a request against both of the key's windows (per hour and per minute). */
export async function consumeKeyBudget(limiters: LimiterFactory, key: ActiveKey): Promise<KeyLimitOutcome> {
  const { perHour, perMinute } = limitsOf(key);
  const [hour, minute] = await Promise.all([
    limiters.consume("key:h", key.id, perHour, 3600),
    limiters.consume("key:m", key.id, perMinute, 60),
  ]);
  const tighter = pickTighter(hour, minute);
  const refusing = [hour, minute].filter((w) => !w.allowed);
  const retryAfter =
    refusing.length === 0 ? 0 : secondsUntil(Math.max(...refusing.map((w) => w.msBeforeNext)));
  return {
    allowed: refusing.length === 0,
    headers: {
      limit: tighter.limit,
      remaining: tighter.remaining,
      reset: Math.ceil((Date.now() + tighter.msBeforeNext) / 1000),
    },
    retryAfter,
  };
}

function pickTighter(a: WindowResult, b: WindowResult): WindowResult {
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
  return a.msBeforeNext >= b.msBeforeNext ? a : b;
}
