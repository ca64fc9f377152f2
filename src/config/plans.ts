import { ConfigError, type Env, optional } from "./env.js";

/** Plan slugs. `free` is every new tenant's plan; the others are bought through Stripe. */
export const PLANS = ["free", "mini", "growth", "pro_100"] as const;
export type Plan = (typeof PLANS)[number];
export const PAID_PLANS = ["mini", "growth", "pro_100"] as const satisfies readonly Plan[];

/** Documented defaults for the number of `student` users a tenant may have on each plan. */
export const DEFAULT_STUDENT_LIMITS: Readonly<Record<Plan, number>> = {
  free: 10,
  mini: 50,
  growth: 250,
  pro_100: 1000,
};

export interface PlanConfig {
  studentLimits: Readonly<Record<Plan, number>>;
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** `PLAN_STUDENT_LIMITS` is a JSON object merged over the defaults, e.g. `{"free":3}`. */
export function loadPlanConfig(env: Env): PlanConfig {
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
  return { studentLimits: limits };
}
