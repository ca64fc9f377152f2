import type { Executor } from "../../db/client.js";
import { notFound } from "../../platform/errors/app-error.js";
import { outline } from "./completions-repo.js";
import { findEnrollment } from "./repo.js";
import { type EnrollmentProgressRecord, percentOf } from "./schemas.js";

/**
 * An enrollment's per-lesson status: every published lesson of its course in outline order, with the user's
 * completion time. The totals are counted from the same rows (required lessons only), so they agree with them.
 */
export async function enrollmentProgress(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<EnrollmentProgressRecord> {
  const enrollment = await findEnrollment(db, tenantId, id);
  if (enrollment === undefined) throw notFound();
  const lessons = await outline(db, tenantId, enrollment.courseId, enrollment.userId);
  const required = lessons.filter((l) => l.required);
  const lessonsCompleted = required.filter((l) => l.completedAt !== null).length;
  return {
    enrollmentId: enrollment.id,
    userId: enrollment.userId,
    courseId: enrollment.courseId,
    status: enrollment.status,
    progressPercent: percentOf(lessonsCompleted, required.length),
    lessonsCompleted,
    lessonsTotal: required.length,
    lessons,
  };
}
