import type { Executor } from "../../db/client.js";
import { completesLessons, recordCompletion } from "../enrollments/completions.js";
import { lockCurrentEnrollment } from "../enrollments/enrollment-locks.js";
import type { Actor } from "../events/actor.js";
import { findLesson } from "../lessons/service.js";
import type { AttemptRow } from "./attempt-repo.js";
import { syncQuizGrade } from "./gradebook-sync.js";
import type { QuizRow } from "./repo.js";

/**
 * Completes the quiz's lesson for the attempt's user when the lesson's criteria are met: `submit` on submission
 * (even while an essay awaits review), `min_score` once the attempt is graded at or above the score. Other
 * criteria (`view`, `manual`, `min_time`) are not a quiz's to decide, and an enrollment no longer current records
 * nothing. Runs in the submission's transaction, so the
 * attempt, `quiz_submitted`, the completion and its `lesson_completed` commit together; a repeat completes nothing.
 */
export async function completeQuizLesson(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  quiz: QuizRow,
  attempt: AttemptRow,
): Promise<void> {
  // The attempt's result first feeds the gradebook (a graded attempt writes its grade item's grade).
  await syncQuizGrade(tx, tenantId, actor, quiz, attempt);
  const lesson = await findLesson(tx, tenantId, quiz.lessonId);
  if (lesson === undefined) return;
  const criteria = lesson.completionCriteria;
  const met =
    criteria.type === "submit"
      ? attempt.status !== "in_progress"
      : criteria.type === "min_score" &&
        attempt.status === "graded" &&
        (attempt.percent ?? 0) >= (criteria.minScorePercent ?? 100);
  if (!met) return;
  // A grade given after the enrollment was suspended or dropped is still a grade: it just completes nothing.
  const enrollment = await lockCurrentEnrollment(tx, tenantId, attempt.userId, quiz.courseId);
  if (enrollment === undefined || !completesLessons(enrollment.status)) return;
  await recordCompletion(tx, {
    tenantId,
    lessonId: lesson.id,
    userId: attempt.userId,
    source: "quiz",
    timeSpentSeconds: attempt.timeSpentSeconds,
    scorePercent: attempt.percent,
    actor,
  });
}
