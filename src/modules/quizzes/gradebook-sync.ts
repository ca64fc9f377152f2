import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { quizAttempts } from "../../db/schema/index.js";
import type { Actor } from "../events/actor.js";
import { recordSourceGrade } from "../gradebook/service.js";
import type { AttemptRow } from "./attempt-repo.js";
import type { QuizRow } from "./repo.js";

/** The percent the quiz's scoring policy keeps from a user's graded attempts, in attempt order. */
export function policyPercent(policy: QuizRow["scoringPolicy"], percents: readonly number[]): number | null {
  if (percents.length === 0) return null;
  if (policy === "first") return percents[0] as number;
  if (policy === "latest") return percents[percents.length - 1] as number;
  if (policy === "average") return percents.reduce((s, p) => s + p, 0) / percents.length;
  return Math.max(...percents);
}

/**
 * Once an attempt is graded, the grade of the course's grade item fed by this quiz (`sourceType: quiz`,
 * `sourceId`: the quiz) becomes the quiz's score under its scoring policy, in the attempt's transaction.
 */
export async function syncQuizGrade(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  quiz: QuizRow,
  attempt: AttemptRow,
): Promise<void> {
  if (attempt.status !== "graded") return;
  const rows = await tx
    .select({ percent: quizAttempts.percent })
    .from(quizAttempts)
    .where(
      and(
        eq(quizAttempts.tenantId, tenantId),
        eq(quizAttempts.quizId, quiz.id),
        eq(quizAttempts.userId, attempt.userId),
        eq(quizAttempts.status, "graded"),
      ),
    )
    .orderBy(asc(quizAttempts.attemptNumber));
  const percent = policyPercent(
    quiz.scoringPolicy,
    rows.map((r) => r.percent ?? 0),
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
