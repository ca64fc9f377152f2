import type { LatePolicyType } from "./schemas.js";

const INTERVAL_SECONDS = { day: 86_400, hour: 3_600 } as const;

export const round2 = (n: number) => Math.round(n * 100) / 100;

/** A student's dates: an extension's replace the assignment's (its lock, when it names none, is not before its due). */
export function effectiveDates(
  assignment: { dueAt: string | null; lockAt: string | null },
  extension: { dueAt: string; lockAt: string | null } | undefined,
): { dueAt: string | null; lockAt: string | null } {
  if (extension === undefined) return { dueAt: assignment.dueAt, lockAt: assignment.lockAt };
  if (extension.lockAt !== null || assignment.lockAt === null) return extension;
  const lockAt =
    Date.parse(assignment.lockAt) >= Date.parse(extension.dueAt) ? assignment.lockAt : extension.dueAt;
  return { dueAt: extension.dueAt, lockAt };
}

/** Whole seconds after the due date (0 when on time or without one). */
export function secondsLate(dueAt: string | null, submittedAt: Date): number {
  if (dueAt === null) return 0;
  return Math.max(0, Math.floor((submittedAt.getTime() - Date.parse(dueAt)) / 1000));
}

/**
 * The late policy applied to a score: `deductionPercent` of `pointsPossible` per started interval late, at most
 * `maxDeductionPercent` of it; the final score never goes below 0.
 */
export function applyLatePolicy(
  score: number,
  late: number,
  pointsPossible: number,
  policy: LatePolicyType,
): { deductedPoints: number; finalScore: number } {
  const intervals = late <= 0 ? 0 : Math.ceil(late / INTERVAL_SECONDS[policy.interval]);
  const percent = Math.min(policy.maxDeductionPercent, policy.deductionPercent * intervals);
  const deductedPoints = round2((pointsPossible * percent) / 100);
  return { deductedPoints, finalScore: Math.max(0, round2(score - deductedPoints)) };
}
