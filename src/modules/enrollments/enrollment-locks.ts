/**
 * Enrollment row locks, taken inside the caller's transaction: an enrollment's changes and the completions (lessons,
 * quizzes, attendance) counted against it take turns on its row.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { enrollments } from "../../db/schema/index.js";

export interface LockedEnrollment {
  id: string;
  userId: string;
  courseId: string;
  role: string;
  status: string;
  enrolledAt: string;
}

const lockedColumns = {
  id: enrollments.id,
  userId: enrollments.userId,
  courseId: enrollments.courseId,
  role: enrollments.role,
  status: enrollments.status,
  enrolledAt: enrollments.enrolledAt,
};

/** Locks one enrollment: changes to it, and completions counted against it, take turns. */
export async function lockEnrollment(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<LockedEnrollment | undefined> {
  const rows = await db
    .select(lockedColumns)
    .from(enrollments)
    .where(and(eq(enrollments.tenantId, tenantId), eq(enrollments.id, id)))
    .for("update");
  return rows[0];
}

/** Locks the user's current (not dropped) enrollment in the course, if any; there is at most one. */
export async function lockCurrentEnrollment(
  db: Executor,
  tenantId: string,
  userId: string,
  courseId: string,
): Promise<LockedEnrollment | undefined> {
  const rows = await db
    .select(lockedColumns)
    .from(enrollments)
    .where(
      and(
        eq(enrollments.tenantId, tenantId),
        eq(enrollments.userId, userId),
        eq(enrollments.courseId, courseId),
        sql`${enrollments.status} <> 'dropped'`,
      ),
    )
    .for("update");
  return rows[0];
}
