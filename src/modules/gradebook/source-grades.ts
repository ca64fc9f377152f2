import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { gradeItems } from "../../db/schema/index.js";
import { lockCourseStructure } from "../courses/repo.js";
import type { Actor } from "../events/actor.js";
import { round2 } from "./compute.js";
import { writeGrades } from "./grade-write.js";
import type { SourceType } from "./item-schemas.js";

/**
 * What another module calls when something it owns produces a result for a student (a quiz attempt graded):
 * writes the grade of the course's grade item fed by that source, inside the caller's transaction, as any grade
 * write (log, course grade, events), with source `auto`. Nothing happens when no item takes its grades from the
 * source, or when the user is not a current student of the course.
 */
export async function recordSourceGrade(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  input: { courseId: string; sourceType: SourceType; sourceId: string; userId: string; percent: number },
): Promise<void> {
  const [item] = await tx
    .select({ id: gradeItems.id, maxPoints: gradeItems.maxPoints })
    .from(gradeItems)
    .where(
      and(
        eq(gradeItems.tenantId, tenantId),
        eq(gradeItems.courseId, input.courseId),
        eq(gradeItems.sourceType, input.sourceType),
        eq(gradeItems.sourceId, input.sourceId),
      ),
    );
  if (item === undefined) return;
  await lockCourseStructure(tx, tenantId, input.courseId);
  const score = round2((input.percent / 100) * item.maxPoints);
  await writeGrades(
    tx,
    tenantId,
    actor,
    input.courseId,
    [{ index: 0, gradeItemId: item.id, userId: input.userId, score, status: "graded" }],
    { requireGrade: true, source: "auto" },
  );
}
