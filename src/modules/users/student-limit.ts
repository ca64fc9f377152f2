import type { PlanConfig } from "../../config/plans.js";
import { isPlan } from "../../config/plans.js";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { AppError } from "../../platform/errors/app-error.js";
import { lockTenantPlan } from "./repo.js";

/**
 * Makes room for one more student inside the caller's transaction, or refuses. Fails closed: if the plan is
 * unknown or the count cannot be read, the answer is 503 and the caller's transaction rolls back.
 * The tenant row stays locked until that transaction ends, so concurrent creations cannot overshoot.
 */
export async function reserveStudentSeats(
  tx: Executor,
  plans: PlanConfig,
  tenantId: string,
  seats = 1,
): Promise<void> {
  let limit: number;
  let current: number;
  try {
    const plan = await lockTenantPlan(tx, tenantId);
    if (plan === undefined || !isPlan(plan)) throw new Error(`tenant plan "${plan}" is not in the catalogue`);
    limit = plans.studentLimits[plan];
    current = await readCounter(tx, tenantId, "users:role:student");
  } catch (err) {
    throw new AppError("student_limit_unverifiable", { cause: err });
  }
  if (current + seats > limit) throw new AppError("student_limit_reached", { params: { limit } });
}
