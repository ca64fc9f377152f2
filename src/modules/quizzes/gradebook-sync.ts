import type { Executor } from "../../db/client.js";
import type { Actor } from "../events/actor.js";
import { recordSourceGrade } from "../gradebook/service.js";
import type { AttemptRow } from "./attempt-repo.js";
import { gradedResults, policyPercent } from "./kept.js";
import type { QuizRow } from "./repo.js";

export { policyPercent } from "./kept.js";

/**
 * Once an attempt is graded, the grade of the course's grade item fed by this quiz (`sourceType: quiz`,
 * `sourceId`: the quiz) becomes the quiz's score under its scoring policy, in the attempt's transaction: the
 * attempts' `keptPercent` (kept.ts).
 */
export async function syncQuizGrade(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  quiz: QuizRow,
  attempt: AttemptRow,
): Promise<void> {
  if (attempt.status !== "graded") return;
  const results = (await gradedResults(tx, tenantId, quiz.id, [attempt.userId])).get(attempt.userId) ?? [];
  const percent = policyPercent(
    quiz.scoringPolicy,
    results.map((r) => r.percent),
  );
  if (percent === null) return;
  await recordSourceGrade(tx, tenantId, actor, {
    courseId: quiz.courseId,
    sourceType: "quiz",
    sourceId: quiz.id,
    userId: attempt.userId,
    percent,
  });
}
