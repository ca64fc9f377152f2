import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { gradeItems, grades } from "../../db/schema/index.js";
import { lockCourseStructure } from "../courses/repo.js";
import type { Actor } from "../events/actor.js";
import { round2 } from "./compute.js";
import { writeGrades } from "./grade-write.js";
import type { SourceType } from "./item-schemas.js";
import { uuidArray } from "./sql-util.js";

interface Source {
  courseId: string;
  sourceType: SourceType;
  sourceId: string;
}

async function itemOf(tx: Executor, tenantId: string, source: Source) {
  const [item] = await tx
    .select({ id: gradeItems.id, maxPoints: gradeItems.maxPoints })
    .from(gradeItems)
    .where(
      and(
        eq(gradeItems.tenantId, tenantId),
        eq(gradeItems.courseId, source.courseId),
        eq(gradeItems.sourceType, source.sourceType),
        eq(gradeItems.sourceId, source.sourceId),
      ),
    );
  return item;
}

/**
 * What another module calls when something it owns produces a result for a student (a quiz attempt graded, an
 * assignment's submission graded): writes the grade of the course's grade item fed by that source, inside the
 * caller's transaction, as any grade write (log, course grade, events), with source `auto`. `status` defaults
 * to `graded` (an assignment handed in late passes `late`); `feedback`, when given, replaces the grade's.
 * Nothing happens when no item takes its grades from the source, or when the user is not a current student of
 * the course. Answers the item written (none in those cases).
 */
export async function recordSourceGrade(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  input: Source & {
    userId: string;
    percent: number;
    status?: "graded" | "late";
    feedback?: string | null;
  },
): Promise<string[]> {
  const item = await itemOf(tx, tenantId, input);
  if (item === undefined) return [];
  await lockCourseStructure(tx, tenantId, input.courseId);
  const score = round2((input.percent / 100) * item.maxPoints);
  const results = await writeGrades(
    tx,
    tenantId,
    actor,
    input.courseId,
    [
      {
        index: 0,
        gradeItemId: item.id,
        userId: input.userId,
        score,
        status: input.status ?? "graded",
        ...(input.feedback === undefined ? {} : { feedback: input.feedback }),
      },
    ],
    { requireGrade: true, source: "auto" },
  );
  return results.some((r) => r.status !== "failed") ? [item.id] : [];
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

/**
 * Marks these students `missing` on the grade item fed by the source (a due date passed without a submission),
 * in the caller's transaction and as one grade write: only students without a grade there yet or with a
 * `pending` one, so a grade given by hand (or an excuse) stays. Answers how many grades it wrote.
 */
export async function recordSourceMissing(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  input: Source & { userIds: readonly string[] },
): Promise<number> {
  if (input.userIds.length === 0) return 0;
  const item = await itemOf(tx, tenantId, input);
  if (item === undefined) return 0;
  await lockCourseStructure(tx, tenantId, input.courseId);
  const graded = await tx
    .select({ userId: grades.userId })
    .from(grades)
    .where(
      and(
        eq(grades.tenantId, tenantId),
        eq(grades.gradeItemId, item.id),
        sql`${grades.userId} = ANY(${uuidArray([...input.userIds])})`,
        sql`${grades.status} <> 'pending'`,
      ),
    );
  const skip = new Set(graded.map((g) => g.userId));
  const writes = input.userIds
    .filter((userId) => !skip.has(userId))
    .map((userId, index) => ({ index, gradeItemId: item.id, userId, status: "missing" as const }));
  if (writes.length === 0) return 0;
  const results = await writeGrades(tx, tenantId, actor, input.courseId, writes, { requireGrade: true });
  return results.filter((r) => r.status === "created" || r.status === "updated").length;
}

/**
 * recordSourceGrade for many students at once (a live class's attendance written for a session): one grade
 * write of the item fed by the source, set-based, in the caller's transaction. Answers how many grades moved.
 */
export async function recordSourceGrades(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  input: Source & { percents: readonly { userId: string; percent: number }[] },
): Promise<number> {
  if (input.percents.length === 0) return 0;
  const item = await itemOf(tx, tenantId, input);
  if (item === undefined) return 0;
  await lockCourseStructure(tx, tenantId, input.courseId);
  const writes = input.percents.map(({ userId, percent }, index) => ({
    index,
    gradeItemId: item.id,
    userId,
    score: round2((percent / 100) * item.maxPoints),
    status: "graded" as const,
  }));
  // A user who is not a current student of the course fails its write and gets no grade, as recordSourceGrade.
  const results = await writeGrades(tx, tenantId, actor, input.courseId, writes, {
    requireGrade: true,
    source: "auto",
  });
  return results.filter((r) => r.status === "created" || r.status === "updated").length;
}
