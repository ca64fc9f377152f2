import type { PlanConfig } from "../../config/plans.js";
import { isPlan } from "../../config/plans.js";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { AppError } from "../../platform/errors/app-error.js";
import { lockTenantPlan } from "./repo.js";

export interface StudentSeats {
  limit: number;
  /** Seats still free under the plan; never negative (a plan lowered below its count has none). */
  left: number;
}

/**
 * Locks the tenant row and reads how many students the plan still admits. Fails closed: if the plan is unknown
 * or the count cannot be read, the answer is 503 and the caller's transaction rolls back. The tenant row stays
 * locked until that transaction ends, so concurrent creations take turns and cannot overshoot.
 */
export async function studentSeats(tx: Executor, plans: PlanConfig, tenantId: string): Promise<StudentSeats> {
  try {
    const plan = await lockTenantPlan(tx, tenantId);
    if (plan === undefined || !isPlan(plan)) throw new Error(`tenant plan "${plan}" is not in the catalogue`);
    const limit = plans.studentLimits[plan];
    const current = await readCounter(tx, tenantId, "users:role:student");
    return { limit, left: Math.max(0, limit - current) };
  } catch (err) {
    throw new AppError("student_limit_unverifiable", { cause: err });
  }
}

export const studentLimitReached = (limit: number) =>
  new AppError("student_limit_reached", { params: { limit } });

/** Makes room for `seats` more students inside the caller's transaction, or refuses (422, or 503 as above). */
export async function reserveStudentSeats(
  tx: Executor,
  plans: PlanConfig,
  tenantId: string,
  seats = 1,
): Promise<void> {
  const { limit, left } = await studentSeats(tx, plans, tenantId);
  if (seats > left) throw studentLimitReached(limit);
}
