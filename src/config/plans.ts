import { ConfigError, type Env, optional } from "./env.js";

/** Plan slugs. `free` is every new tenant's plan; the others are bought through Stripe. */
export const PLANS = ["free", "mini", "growth", "pro_100"] as const;
export type Plan = (typeof PLANS)[number];
export const PAID_PLANS = ["mini", "growth", "pro_100"] as const satisfies readonly Plan[];
export type PaidPlan = (typeof PAID_PLANS)[number];

/** Checkout currencies: BRL by default, USD for buyers outside Brazil. */
export const CURRENCIES = ["brl", "usd"] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Documented defaults for the number of `student` users a tenant may have on each plan. */
export const DEFAULT_STUDENT_LIMITS: Readonly<Record<Plan, number>> = {
  free: 10,
  mini: 50,
  growth: 250,
  pro_100: 1000,
};

export interface PlanConfig {
  studentLimits: Readonly<Record<Plan, number>>;
  /** Stripe price ids from `STRIPE_PRICE_<PLAN>_<CURRENCY>`; a missing one means that pair cannot be bought. */
  prices: Readonly<Record<PaidPlan, Readonly<Record<Currency, string | undefined>>>>;
  /**
   * The allowed paid-plan price list, derived from `prices`: a subscription grants a plan only through one of
   * these ids, so a price created by hand in the Stripe dashboard (or a forged event) cannot upgrade anyone.
   */
  allowedPrices: ReadonlyMap<string, { plan: PaidPlan; currency: Currency }>;
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** `PLAN_STUDENT_LIMITS` is a JSON object merged over the defaults, e.g. `{"free":3}`. */
export function loadPlanConfig(env: Env): PlanConfig {
  const studentLimits = loadStudentLimits(env);
  const prices = {} as Record<PaidPlan, Record<Currency, string | undefined>>;
  const allowedPrices = new Map<string, { plan: PaidPlan; currency: Currency }>();
  for (const plan of PAID_PLANS) {
    prices[plan] = { brl: undefined, usd: undefined };
    for (const currency of CURRENCIES) {
      const name = `STRIPE_PRICE_${plan.toUpperCase()}_${currency.toUpperCase()}`;
      const id = optional(env, name);
      if (id === undefined) continue;
      if (!/^price_[A-Za-z0-9_]+$/.test(id))
        throw new ConfigError(`${name} must be a Stripe price id (price_…)`);
      const taken = allowedPrices.get(id);
      if (taken !== undefined) {
        throw new ConfigError(
          `${name} repeats the price id of ${taken.plan} ${taken.currency.toUpperCase()}`,
        );
      }
      prices[plan][currency] = id;
      allowedPrices.set(id, { plan, currency });
    }
  }
  return { studentLimits, prices, allowedPrices };
}

function loadStudentLimits(env: Env): Record<Plan, number> {
  const raw = optional(env, "PLAN_STUDENT_LIMITS");
  const limits: Record<Plan, number> = { ...DEFAULT_STUDENT_LIMITS };
  if (raw !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new ConfigError("PLAN_STUDENT_LIMITS must be a JSON object");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new ConfigError("PLAN_STUDENT_LIMITS must be a JSON object");
    }
    for (const [plan, limit] of Object.entries(parsed)) {
      if (!isPlan(plan)) throw new ConfigError(`PLAN_STUDENT_LIMITS names an unknown plan "${plan}"`);
      if (!Number.isInteger(limit) || (limit as number) < 0) {
        throw new ConfigError(`PLAN_STUDENT_LIMITS.${plan} must be a non-negative integer`);
      }
      limits[plan] = limit as number;
    }
  }
  return limits;
}
