import { isPlan, PAID_PLANS, type Plan, type PlanConfig } from "../../config/plans.js";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { AppError } from "../../platform/errors/app-error.js";
import { lockTenantPlan } from "./repo.js";
import { countEnrolledNonStudents, uncountedStudents } from "./student-count-repo.js";

/**
 * How an institution gets more seats: `checkout` buys a paid plan (from `free`), `portal` changes the live
 * subscription (checkout refuses a second one), `none` when no plan admits more students.
 */
export type SeatUpgrade = "checkout" | "portal" | "none";

/** What a refusal names: the plan, its limit and the way to a larger one. */
export interface PlanLimit {
  plan: string;
  limit: number;
  upgrade: SeatUpgrade;
}

export interface StudentSeats extends PlanLimit {
  /** Seats still free under the plan; never negative (a plan lowered below its count has none). */
  left: number;
}

/** Limits are configuration, so "a larger plan" is one whose configured limit is higher, not a later name. */
function upgradeFrom(plans: PlanConfig, plan: Plan): SeatUpgrade {
  const limit = plans.studentLimits[plan];
  if (!PAID_PLANS.some((p) => plans.studentLimits[p] > limit)) return "none";
  return plan === "free" ? "checkout" : "portal";
}

/**
 * The seats the plan's student limit counts as taken: the `student` users (a trigger-kept counter) plus the other
 * users holding a current student enrollment. The figure the limit check compares with the limit; without the
 * tenant lock, as a read it may be one creation behind.
 */
export async function studentSeatsUsed(db: Executor, tenantId: string): Promise<number> {
  return (
    (await readCounter(db, tenantId, "users:role:student")) + (await countEnrolledNonStudents(db, tenantId))
  );
}

/**
 * Locks the tenant row and reads how many students the plan still admits. The plan counts every user who is a
 * `student` or holds a current (not dropped) student enrollment, whatever their role. Fails closed: if the plan is unknown
 * or the count cannot be read, the answer is 503 and the caller's transaction rolls back. The tenant row stays
 * locked until that transaction ends, so concurrent creations take turns and cannot overshoot.
 */
export async function studentSeats(tx: Executor, plans: PlanConfig, tenantId: string): Promise<StudentSeats> {
  try {
    const plan = await lockTenantPlan(tx, tenantId);
    if (plan === undefined || !isPlan(plan)) throw new Error(`tenant plan "${plan}" is not in the catalogue`);
    const limit = plans.studentLimits[plan];
    const current = await studentSeatsUsed(tx, tenantId);
    return { plan, limit, upgrade: upgradeFrom(plans, plan), left: Math.max(0, limit - current) };
  } catch (err) {
    throw new AppError("student_limit_unverifiable", { cause: err });
  }
}

/** 422, naming the plan, its limit and how to raise it; the details name the plan and the limit field by field. */
export const studentLimitReached = ({ plan, limit, upgrade }: PlanLimit) =>
  new AppError("student_limit_reached", {
    params: { plan, limit, upgrade },
    details: [
      { field: "plan", key: "student_limit_reached.plan", params: { plan } },
      { field: "limit", key: "student_limit_reached.limit", params: { limit } },
    ],
  });

/** Makes room for `seats` more students inside the caller's transaction, or refuses (422, or 503 as above). */
export async function reserveStudentSeats(
  tx: Executor,
  plans: PlanConfig,
  tenantId: string,
  seats = 1,
): Promise<void> {
  const available = await studentSeats(tx, plans, tenantId);
  if (seats > available.left) throw studentLimitReached(available);
}

/**
 * Admits users to a student enrollment (or the `student` role) inside the caller's
 * transaction. Those already counted (students, holders of a current student enrollment) take no seat; each
 * other one takes a seat, in the order given, while seats are left. Answers those refused for want of one.
 * Callers pass the non-student users only, read with a share lock (so a concurrent role change waits for this
 * transaction): students are counted already, and asking about none takes no lock.
 */
export async function admitStudents(
  tx: Executor,
  plans: PlanConfig,
  tenantId: string,
  nonStudentIds: readonly string[],
): Promise<PlanLimit & { refused: Set<string> }> {
  const refused = new Set<string>();
  const ids = [...new Set(nonStudentIds)];
  if (ids.length === 0) return { plan: "", limit: 0, upgrade: "none", refused };
  const { plan, limit, upgrade, left } = await studentSeats(tx, plans, tenantId);
  // Read after the tenant lock: an enrollment committed by a transaction this one waited for counts already.
  const uncounted = new Set(await uncountedStudents(tx, tenantId, ids));
  let free = left;
  for (const id of ids) {
    if (!uncounted.has(id)) continue;
    if (free > 0) free--;
    else refused.add(id);
  }
  return { plan, limit, upgrade, refused };
}

/** `admitStudents` for one user: 422 when there is no seat for them. */
export async function admitStudent(tx: Executor, plans: PlanConfig, tenantId: string, userId: string) {
  const admitted = await admitStudents(tx, plans, tenantId, [userId]);
  if (admitted.refused.size > 0) throw studentLimitReached(admitted);
}
