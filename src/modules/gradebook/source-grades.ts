import { and, eq, sql } from "drizzle-orm";
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

/**
 * What the rubrics module calls when a grading assessment is made with a rubric (inside its transaction): the
 * grade of every item of the course that names this rubric and takes its grades from the assessed work (its
 * source is the target's, or it has none) becomes `fraction × maxPoints`, written as any grade (log, course
 * grade, events; nothing for a user who is not a current student). Source `manual`: the score is an assessor's
 * judgement through the rubric, not one the platform computed from the student's answers (`auto`). Answers the
 * items written.
 */
export async function recordRubricGrade(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  input: {
    courseId: string;
    rubricId: string;
    source: { type: SourceType; id: string };
    userId: string;
    fraction: number;
  },
): Promise<string[]> {
  const items = await tx
    .select({ id: gradeItems.id, maxPoints: gradeItems.maxPoints })
    .from(gradeItems)
    .where(
      and(
        eq(gradeItems.tenantId, tenantId),
        eq(gradeItems.rubricId, input.rubricId),
        eq(gradeItems.courseId, input.courseId),
        sql`(${gradeItems.sourceId} IS NULL OR (${gradeItems.sourceType} = ${input.source.type}
          AND ${gradeItems.sourceId} = ${input.source.id}))`,
      ),
    );
  if (items.length === 0) return [];
  await lockCourseStructure(tx, tenantId, input.courseId);
  const results = await writeGrades(
    tx,
    tenantId,
    actor,
    input.courseId,
    items.map((item, index) => ({
      index,
      gradeItemId: item.id,
      userId: input.userId,
      score: round2(input.fraction * item.maxPoints),
      status: "graded" as const,
    })),
    { requireGrade: true, source: "manual" },
  );
  // As recordSourceGrade: a user who is not a current student of the course gets no grade.
  return results.filter((r) => r.status !== "failed").map((r) => (items[r.index] as { id: string }).id);
}
