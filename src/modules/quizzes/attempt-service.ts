import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { AppError, type DetailKey, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { getSettings, letterFor } from "../settings/service.js";
import * as repo from "./attempt-repo.js";
import type {
  AnswerInputType,
  AttemptRecord,
  GradeAttemptInput,
  ListAttemptsQueryType,
  StartAttemptInput,
  SubmitAttemptInput,
} from "./attempt-schemas.js";
import { drawQuestions, publicView } from "./draw.js";
import { completeQuizLesson } from "./lesson-completion.js";
import { findQuiz, type QuizRow } from "./repo.js";
import { fitsType, outcome, round2, type ScoredAnswer, scoreAnswer } from "./scoring.js";

const conflict = (messageKey: string) => new AppError("conflict", { messageKey });

type GradingScale = Parameters<typeof letterFor>[0];

/** The institution's grading scale (`learning.gradingScale`), which gives an attempt's `letterGrade`. */
async function gradingScale(db: Executor, tenantId: string): Promise<GradingScale> {
  return (await getSettings(db, tenantId)).learning.gradingScale;
}

export function toRecord(row: repo.AttemptRow, scale: GradingScale): AttemptRecord {
  // A letter only for a final score: while an essay awaits review, the percent covers part of the quiz.
  const letterGrade = row.status === "graded" && row.percent !== null ? letterFor(scale, row.percent) : null;
  return { ...row, questions: row.questions.map(publicView), letterGrade } as AttemptRecord;
}

export async function listAttempts(
  db: Executor,
  tenantId: string,
  quizId: string,
  query: ListAttemptsQueryType,
) {
  if ((await findQuiz(db, tenantId, quizId)) === undefined) throw notFound();
  const window = pageWindow(query);
  const filter = { userId: query.userId, status: query.status };
  const [rows, total] = await Promise.all([
    repo.listAttempts(db, tenantId, quizId, filter, query.sort ?? "-createdAt", window),
    repo.countAttempts(db, tenantId, quizId, filter),
  ]);
  const scale = await gradingScale(db, tenantId);
  return cappedPageEnvelope(
    rows.map((row) => toRecord(row, scale)),
    total,
    window,
  );
}

export async function getAttempt(db: Executor, tenantId: string, id: string): Promise<AttemptRecord> {
  const row = await repo.findAttempt(db, tenantId, id);
  if (row === undefined) throw notFound();
  return toRecord(row, await gradingScale(db, tenantId));
}

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

function eventData(quiz: QuizRow, row: repo.AttemptRow, scale: GradingScale) {
  const attempt = toRecord(row, scale);
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

async function subject(tx: Executor, tenantId: string, userId: string) {
  const user = await repo.findUser(tx, tenantId, userId);
  return user === undefined ? null : subjectOf(user);
}

/**
 * Scores and submits an open attempt inside the caller's transaction, and records `quiz_submitted` with it.
 * Unanswered questions earn nothing; an answered essay leaves the attempt `pending_review`.
 */
async function submitInTx(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  quiz: QuizRow,
  attempt: repo.AttemptRow,
  input: SubmitAttemptInput,
): Promise<repo.AttemptRow> {
  const responses = responsesOf(attempt, input.answers);
  const answers = attempt.questions.map((q) => scoreAnswer(q, responses.get(q.questionId) ?? null));
  const maxScore = attempt.questions.reduce((sum, q) => sum + q.points, 0);
  const result = outcome(answers, maxScore, quiz.passPercent);
  const elapsed = Math.max(0, Math.round((Date.now() - Date.parse(attempt.startedAt)) / 1000));
  const row = await repo.updateAttempt(tx, tenantId, attempt.id, {
    ...result,
    answers,
    submittedAt: sql`now()`,
    timeSpentSeconds: input.timeSpentSeconds ?? elapsed,
  });
  await emitEvent(tx, {
    tenantId,
    type: "quiz_submitted",
    data: eventData(quiz, row, await gradingScale(tx, tenantId)),
    actor: eventActorOf(actor),
    subject: await subject(tx, tenantId, row.userId),
  });
  await completeQuizLesson(tx, tenantId, actor, quiz, row);
  return row;
}

/**
 * Starts an attempt for a user with a current enrollment in the quiz's course (409 otherwise), within the quiz's
 * allowed attempts and with no other attempt open (409). The questions are drawn and pinned now. With `answers`
 * the attempt is submitted at once, which needs every question to be fixed: a client cannot answer questions it
 * has not seen drawn.
 */
export async function startAttempt(
  db: Executor,
  tenantId: string,
  actor: Actor,
  quizId: string,
  input: StartAttemptInput,
): Promise<AttemptRecord> {
  const row = await db.transaction(async (tx) => {
    const quiz = await findQuiz(tx, tenantId, quizId, "share");
    if (quiz === undefined) throw notFound();
    if (input.answers !== undefined && quiz.sections.some((s) => s.source.type === "random")) {
      throw validationError("answers", "field.answers_need_fixed");
    }
    if ((await repo.findUser(tx, tenantId, input.userId)) === undefined) {
      throw validationError("userId", "field.unknown_user", { id: input.userId });
    }
    const enrollmentId = await repo.lockCurrentEnrollment(tx, tenantId, input.userId, quiz.courseId);
    if (enrollmentId === undefined) throw conflict("conflict.not_enrolled");
    const mine = await repo.attemptsOfUser(tx, tenantId, quiz.id, input.userId);
    if (mine.open) throw conflict("conflict.attempt_in_progress");
    if (quiz.allowedAttempts !== null && mine.count >= quiz.allowedAttempts) {
      throw conflict("conflict.attempts_exhausted");
    }
    const questions = await drawQuestions(tx, tenantId, quiz);
    if (questions.length === 0) throw conflict("conflict.quiz_no_questions");
    const attempt = await tx
      .transaction((inner) =>
        repo.insertAttempt(inner, tenantId, {
          quizId: quiz.id,
          userId: input.userId,
          enrollmentId,
          attemptNumber: mine.last + 1,
          questions,
          maxScore: round2(questions.reduce((sum, q) => sum + q.points, 0)),
        }),
      )
      .catch((err: unknown) => {
        // Only a start that bypassed the enrollment lock could collide; answer it as the race it is.
        if (isUniqueViolation(err, "quiz_attempts_number_key"))
          throw conflict("conflict.attempt_in_progress");
        throw err;
      });
    if (input.answers === undefined) return attempt;
    return submitInTx(tx, tenantId, actor, quiz, attempt, {
      answers: input.answers,
      timeSpentSeconds: input.timeSpentSeconds,
    });
  });
  return toRecord(row, await gradingScale(db, tenantId));
}

/** Submits an open attempt: 409 when it was already submitted. */
export async function submitAttempt(
  db: Executor,
  tenantId: string,
  actor: Actor,
  attemptId: string,
  input: SubmitAttemptInput,
): Promise<AttemptRecord> {
  const row = await db.transaction(async (tx) => {
    const attempt = await repo.findAttempt(tx, tenantId, attemptId, true);
    if (attempt === undefined) throw notFound();
    if (attempt.status !== "in_progress") throw conflict("conflict.attempt_submitted");
    const quiz = (await findQuiz(tx, tenantId, attempt.quizId, "share")) as QuizRow;
    return submitInTx(tx, tenantId, actor, quiz, attempt, input);
  });
  return toRecord(row, await gradingScale(db, tenantId));
}

/**
 * Grades answers by hand (essays, or an override of an automatic score), each from 0 to the question's points in
 * the attempt. When no answer is left ungraded the attempt is `graded`, `passed` is set and `quiz_graded` is
 * recorded with the score it had before.
 */
export async function gradeAttempt(
  db: Executor,
  tenantId: string,
  actor: Actor,
  attemptId: string,
  input: GradeAttemptInput,
): Promise<AttemptRecord> {
  const row = await db.transaction(async (tx) => {
    const attempt = await repo.findAttempt(tx, tenantId, attemptId, true);
    if (attempt === undefined) throw notFound();
    if (attempt.status === "in_progress") throw conflict("conflict.attempt_not_submitted");
    const points = new Map(attempt.questions.map((q) => [q.questionId, q.points]));
    const grades = new Map<string, GradeAttemptInput["answers"][number]>();
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
    const quiz = (await findQuiz(tx, tenantId, attempt.quizId, "share")) as QuizRow;
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
        data: { ...eventData(quiz, graded, await gradingScale(tx, tenantId)), previousScore: attempt.score },
        actor: eventActorOf(actor),
        subject: await subject(tx, tenantId, graded.userId),
      });
      await completeQuizLesson(tx, tenantId, actor, quiz, graded);
    }
    return graded;
  });
  return toRecord(row, await gradingScale(db, tenantId));
}
