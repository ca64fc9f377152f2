import type { Executor } from "../../db/client.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import type { EventInput } from "../events/emit.js";
import { round2 } from "./compute.js";
import { type GradeEffects, studentsById } from "./course-grades.js";
import { type GradeState, type PlanItem, reportedScore } from "./grade-plan.js";
import { letterOf } from "./sql-util.js";

export interface GradeMove {
  item: PlanItem;
  userId: string;
  before: GradeState | undefined;
  after: GradeState;
  /** Score, override or status moved. */
  graded: boolean;
}

/**
 * `grade_posted` for each grade that became visible (posted now, not before), `grade_updated` for each posted
 * grade whose score, override or status moved; none for a grade without a score to report (pending, excused).
 * Added to `effects` for the caller to write with the course grades' events in its transaction (a fixed number of
 * statements for the whole batch).
 */
export async function gradeEventsOf(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  courseId: string,
  moves: readonly GradeMove[],
  idOf: ReadonlyMap<string, string>,
  effects: GradeEffects,
): Promise<void> {
  const { scale } = effects;
  const chosen: { move: GradeMove; type: "grade_posted" | "grade_updated"; score: number }[] = [];
  for (const move of moves) {
    const score = reportedScore(move.after);
    if (score === null || move.after.postedAt === null) continue;
    if (move.before?.postedAt === null || move.before === undefined)
      chosen.push({ move, type: "grade_posted", score });
    else if (move.graded) chosen.push({ move, type: "grade_updated", score });
  }
  if (chosen.length === 0) return;
  const subjects = await studentsById(
    tx,
    tenantId,
    chosen.map((c) => c.move.userId),
    effects.students,
  );
  const eventActor = eventActorOf(actor);
  const events: EventInput[] = chosen.map(({ move, type, score }) => {
    const { item, userId, before, after } = move;
    const percent = round2((score / item.maxPoints) * 100);
    const user = subjects.get(userId);
    return {
      type,
      data: {
        courseId,
        gradeItemId: item.id,
        gradeItemTitle: item.title,
        score,
        maxScore: item.maxPoints,
        percent,
        passed: item.passPercent === null ? null : percent >= item.passPercent,
        postedAt: after.postedAt as string,
        gradeId: idOf.get(`${item.id}:${userId}`) as string,
        userId,
        enrollmentId: after.enrollmentId,
        sourceType: item.sourceType,
        status: after.status,
        letter: letterOf(scale, percent),
        previousScore: before?.postedAt ? reportedScore(before) : null,
      },
      actor: eventActor,
      subject: user === undefined ? null : subjectOf(user),
    } as EventInput;
  });
  effects.events.push(...events);
}
