import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { assertTeaches } from "../gradebook/service.js";
import { recordOf } from "./attempt-records.js";
import * as repo from "./attempt-repo.js";
import type { AttemptRecord, GradeAnswersInput, UpdateAttemptInput } from "./attempt-schemas.js";
import { completeQuizLesson } from "./lesson-completion.js";
import { findQuiz, type QuizRow } from "./repo.js";
import { outcome, round2, type ScoredAnswer } from "./scoring.js";
import { eventData, subject } from "./submission.js";

const conflict = (messageKey: string) => new AppError("conflict", { messageKey });

/** The grades given, each naming a question of the attempt once, within its points (400 otherwise). */
function gradesOf(attempt: repo.AttemptRow, input: GradeAnswersInput) {
  const points = new Map(attempt.questions.map((q) => [q.questionId, q.points]));
  const grades = new Map<string, GradeAnswersInput["answers"][number]>();
  const details: DetailKey[] = [];
  input.answers.forEach((given, i) => {
    const grade = { ...given, questionId: given.questionId.toLowerCase() };
    const max = points.get(grade.questionId);
    if (max === undefined) {
      details.push({ field: `answers[${i}].questionId`, key: "field.not_in_attempt" });
    } else if (grades.has(grade.questionId)) {
      details.push({
        field: `answers[${i}].questionId`,
        key: "field.duplicate",
        params: { value: grade.questionId },
      });
    } else if (grade.pointsAwarded > max) {
      details.push({ field: `answers[${i}].pointsAwarded`, key: "field.maximum", params: { limit: max } });
    }
    grades.set(grade.questionId, grade);
  });
  if (details.length > 0) throw new AppError("validation_failed", { details });
  return { points, grades };
}

/**
 * Grades answers by hand (essays, or an override of an automatic score), each from 0 to the question's points in
 * the attempt. When no answer is left ungraded the attempt is `graded`, `passed` is set and `quiz_graded` is
 * recorded with the score it had before.
 */
async function gradeInTx(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  quiz: QuizRow,
  attempt: repo.AttemptRow,
  input: GradeAnswersInput,
): Promise<repo.AttemptRow> {
  if (attempt.status === "in_progress") throw conflict("conflict.attempt_not_submitted");
  const { points, grades } = gradesOf(attempt, input);
  const answers = attempt.answers.map((answer): ScoredAnswer => {
    const grade = grades.get(answer.questionId);
    if (grade === undefined) return answer;
    const max = points.get(answer.questionId) as number;
    const awarded = round2(grade.pointsAwarded);
    return {
      ...answer,
      pointsAwarded: awarded,
      correct: awarded >= max,
      feedback: grade.feedback === undefined ? answer.feedback : grade.feedback,
    };
  });
  const result = outcome(answers, attempt.maxScore ?? 0, quiz.passPercent);
  const graded = await repo.updateAttempt(tx, tenantId, attempt.id, {
    ...result,
    answers,
    gradedBy: eventActorOf(actor),
  });
  if (result.status === "graded") {
    await emitEvent(tx, {
      tenantId,
      type: "quiz_graded",
      data: {
        ...eventData(quiz, graded, await recordOf(tx, tenantId, quiz, graded)),
        previousScore: attempt.score,
      },
      actor: eventActorOf(actor),
      subject: await subject(tx, tenantId, graded.userId),
    });
    await completeQuizLesson(tx, tenantId, actor, quiz, graded);
  }
  return graded;
}

/**
 * `PATCH /quiz-attempts/:id`: grades a submitted attempt's answers (`answers`), or gives an open attempt extra
 * time (`extraTimeSeconds`, moving a timed attempt's `endsAt`). 409 when the attempt is not in the state the change
 * needs: grading an open attempt, or extra time for a closed one (so the two are never sent together).
 */
export async function updateAttempt(
  db: Executor,
  tenantId: string,
  actor: Actor,
  attemptId: string,
  input: UpdateAttemptInput,
): Promise<AttemptRecord> {
  const { quiz, row } = await db.transaction(async (tx) => {
    let attempt = await repo.findAttempt(tx, tenantId, attemptId, true);
    if (attempt === undefined) throw notFound();
    const quiz = (await findQuiz(tx, tenantId, attempt.quizId, "share")) as QuizRow;
    await assertTeaches(tx, tenantId, actor, quiz.courseId);
    if (input.answers !== undefined) {
      attempt = await gradeInTx(tx, tenantId, actor, quiz, attempt, { answers: input.answers });
    }
    if (input.extraTimeSeconds !== undefined) {
      const extended = await repo.setExtraTime(tx, tenantId, attempt.id, input.extraTimeSeconds);
      if (extended === undefined) throw conflict("conflict.attempt_submitted");
      attempt = extended;
    }
    return { quiz, row: attempt };
  });
  return recordOf(db, tenantId, quiz, row);
}

/** Grades a submitted attempt's answers: what other modules call (`updateAttempt` with `answers` alone). */
export function gradeAttempt(
  db: Executor,
  tenantId: string,
  actor: Actor,
  attemptId: string,
  input: GradeAnswersInput,
): Promise<AttemptRecord> {
  return updateAttempt(db, tenantId, actor, attemptId, input);
}
