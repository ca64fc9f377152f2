import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { enrollments, learningPathEnrollments } from "../../db/schema/index.js";
import { percentOf } from "../enrollments/schemas.js";
import type { PathRow } from "./repo.js";
import type { LearningPathRecord, PathCourseRecord, PathProgressRecord } from "./schemas.js";
import { lockedCourses, type PathCourseRow } from "./validate.js";

/**
 * A path as its record reads: the stored path, its courses in position order and its enrolled count; and in a
 * student's view (`learner` given), the student's own progress and, per course, whether the student completed it
 * and whether it is still locked.
 */
export function pathRecord(
  row: PathRow,
  courses: readonly PathCourseRow[],
  enrolledCount: number,
  learner?: { progress: PathProgressRecord; completed: ReadonlySet<string> },
): LearningPathRecord {
  const { requiredCount: _, ...stored } = row;
  const locked =
    learner === undefined ? undefined : lockedCourses(courses, row.sequential, learner.completed);
  const items: PathCourseRecord[] = courses.map((c) =>
    learner === undefined
      ? { ...c }
      : { ...c, completed: learner.completed.has(c.courseId), locked: locked?.has(c.courseId) === true },
  );
  return {
    ...stored,
    courses: items,
    enrolledCount,
    ...(learner === undefined ? {} : { progress: learner.progress }),
  };
}

/**
 * What a student's view of these paths needs: the student's enrollment in each (progress as stored) and the
 * courses among theirs the student completed. Two statements for the page, whatever its size.
 */
export async function learnerStanding(
  db: Executor,
  tenantId: string,
  userId: string,
  paths: readonly PathRow[],
  courses: ReadonlyMap<string, readonly PathCourseRow[]>,
): Promise<Map<string, { progress: PathProgressRecord; completed: ReadonlySet<string> }>> {
  const out = new Map<string, { progress: PathProgressRecord; completed: ReadonlySet<string> }>();
  if (paths.length === 0) return out;
  const standing = await db
    .select({
      pathId: learningPathEnrollments.pathId,
      status: learningPathEnrollments.status,
      requiredCompleted: learningPathEnrollments.requiredCompleted,
      enrolledAt: learningPathEnrollments.enrolledAt,
      completedAt: learningPathEnrollments.completedAt,
    })
    .from(learningPathEnrollments)
    .where(
      and(
        eq(learningPathEnrollments.tenantId, tenantId),
        eq(learningPathEnrollments.userId, userId),
        inArray(
          learningPathEnrollments.pathId,
          paths.map((p) => p.id),
        ),
      ),
    );
  const courseIds = [...new Set([...courses.values()].flatMap((list) => list.map((c) => c.courseId)))];
  const done =
    courseIds.length === 0
      ? []
      : await db
          .select({ courseId: enrollments.courseId })
          .from(enrollments)
          .where(
            and(
              eq(enrollments.tenantId, tenantId),
              eq(enrollments.userId, userId),
              inArray(enrollments.courseId, courseIds),
              sql`${enrollments.status} = 'completed'`,
            ),
          );
  const completed = new Set(done.map((d) => d.courseId));
  const byPath = new Map(paths.map((p) => [p.id, p]));
  for (const s of standing) {
    const total = byPath.get(s.pathId)?.requiredCount ?? 0;
    out.set(s.pathId, {
      progress: {
        status: s.status as PathProgressRecord["status"],
        requiredCompleted: s.requiredCompleted,
        requiredTotal: total,
        progressPercent: percentOf(s.requiredCompleted, total),
        enrolledAt: s.enrolledAt,
        completedAt: s.completedAt,
      },
      completed,
    });
  }
  return out;
}
