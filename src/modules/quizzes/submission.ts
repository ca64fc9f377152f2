import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey } from "../../platform/errors/app-error.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { recordOf } from "./attempt-records.js";
import * as repo from "./attempt-repo.js";
import type { AnswerInputType, AttemptRecord } from "./attempt-schemas.js";
import { completeQuizLesson } from "./lesson-completion.js";
import type { QuizRow } from "./repo.js";
import { fitsType, outcome, scoreAnswer } from "./scoring.js";

/** Each answer must name a drawn question, once, with a response of that question's shape. */
function responsesOf(attempt: repo.AttemptRow, answers: readonly AnswerInputType[]): Map<string, unknown> {
  const drawn = new Map(attempt.questions.map((q) => [q.questionId, q]));
  const responses = new Map<string, unknown>();
  const details: DetailKey[] = [];
  answers.forEach((given, i) => {
    const answer = { ...given, questionId: given.questionId.toLowerCase() };
    const question = drawn.get(answer.questionId);
    if (question === undefined) {
      details.push({ field: `answers[${i}].questionId`, key: "field.not_in_attempt" });
    } else if (responses.has(answer.questionId)) {
      details.push({
        field: `answers[${i}].questionId`,
        key: "field.duplicate",
        params: { value: answer.questionId },
      });
    } else if (!fitsType(question.type, answer.response ?? null)) {
      details.push({
        field: `answers[${i}].response`,
        key: "field.response_shape",
        params: { type: question.type },
      });
    }
    responses.set(answer.questionId, answer.response ?? null);
  });
  if (details.length > 0) throw new AppError("validation_failed", { details });
  return responses;
}

/** The payload of `quiz_submitted` and `quiz_graded`, with the attempt as the API answers it. */
export function eventData(quiz: QuizRow, row: repo.AttemptRow, attempt: AttemptRecord) {
  return {
    courseId: quiz.courseId,
    quizId: quiz.id,
    attemptId: row.id,
    userId: row.userId,
    attemptNumber: row.attemptNumber,
    score: row.score ?? 0,
    maxScore: row.maxScore ?? 0,
    percent: row.percent ?? 0,
    passed: row.passed,
    submittedAt: row.submittedAt ?? new Date().toISOString(),
    lessonId: quiz.lessonId,
    enrollmentId: row.enrollmentId,
    gradingStatus: row.status === "pending_review" ? ("pending_review" as const) : ("graded" as const),
    timeSpentSeconds: row.timeSpentSeconds,
    letterGrade: attempt.letterGrade,
    attempt,
  };
}

export async function subject(tx: Executor, tenantId: string, userId: string) {
  const user = await repo.findUser(tx, tenantId, userId);
  return user === undefined ? null : subjectOf(user);
}

export interface Submission {
  answers: readonly AnswerInputType[];
  timeSpentSeconds: number | undefined;
  /** When the attempt counts as submitted: now, or for one closed when its time was up, its `endsAt`. */
  submittedAt?: string;
}

/**
 * Scores and submits an open attempt inside the caller's transaction, and records `quiz_submitted` with it.
 * Unanswered questions earn nothing; an answered essay leaves the attempt `pending_review`. A graded attempt
 * feeds the gradebook and may complete the lesson (lesson-completion.ts).
 */
export async function submitInTx(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  quiz: QuizRow,
  attempt: repo.AttemptRow,
  input: Submission,
): Promise<repo.AttemptRow> {
  const responses = responsesOf(attempt, input.answers);
  const answers = attempt.questions.map((q) => scoreAnswer(q, responses.get(q.questionId) ?? null));
  const maxScore = attempt.questions.reduce((sum, q) => sum + q.points, 0);
  const result = outcome(answers, maxScore, quiz.passPercent);
  const elapsed = Math.max(0, Math.round((Date.now() - Date.parse(attempt.startedAt)) / 1000));
  const submittedAt: SQL | string = input.submittedAt ?? sql`now()`;
  const row = await repo.updateAttempt(tx, tenantId, attempt.id, {
    ...result,
    answers,
    submittedAt,
    timeSpentSeconds: input.timeSpentSeconds ?? elapsed,
  });
  await emitEvent(tx, {
    tenantId,
    type: "quiz_submitted",
    data: eventData(quiz, row, await recordOf(tx, tenantId, quiz, row)),
    actor: eventActorOf(actor),
    subject: await subject(tx, tenantId, row.userId),
  });
  await completeQuizLesson(tx, tenantId, actor, quiz, row);
  return row;
}
