import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import type { Actor } from "../events/actor.js";
import { assertTeaches } from "../gradebook/service.js";
import { recordOf, recordsOf } from "./attempt-records.js";
import * as repo from "./attempt-repo.js";
import type {
  AttemptRecord,
  ListAttemptsQueryType,
  StartAttemptInput,
  SubmitAttemptInput,
} from "./attempt-schemas.js";
import { drawQuestions } from "./draw.js";
import { findQuiz, type QuizRow } from "./repo.js";
import { round2 } from "./scoring.js";
import { submitInTx } from "./submission.js";
import { allowedSeconds, assertInTime, assertTimeSpent, closeOverdueOf } from "./time-limit.js";

export { gradeAttempt, updateAttempt } from "./attempt-grading.js";

const conflict = (messageKey: string) => new AppError("conflict", { messageKey });

export async function listAttempts(
  db: Executor,
  tenantId: string,
  actor: Actor,
  quizId: string,
  query: ListAttemptsQueryType,
) {
  const quiz = await findQuiz(db, tenantId, quizId);
  if (quiz === undefined) throw notFound();
  await assertTeaches(db, tenantId, actor, quiz.courseId);
  const window = pageWindow(query);
  const filter = { userId: query.userId, status: query.status };
  const [rows, total] = await Promise.all([
    repo.listAttempts(db, tenantId, quizId, filter, query.sort ?? "-createdAt", window),
    repo.countAttempts(db, tenantId, quizId, filter),
  ]);
  return cappedPageEnvelope(await recordsOf(db, tenantId, quiz, rows), total, window);
}

export async function getAttempt(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
): Promise<AttemptRecord> {
  const row = await repo.findAttempt(db, tenantId, id);
  if (row === undefined) throw notFound();
  const quiz = (await findQuiz(db, tenantId, row.quizId)) as QuizRow;
  await assertTeaches(db, tenantId, actor, quiz.courseId);
  return recordOf(db, tenantId, quiz, row);
}

/**
 * Starts an attempt for a user with a current enrollment in the quiz's course (409 otherwise), within the quiz's
 * allowed attempts (every attempt counts, those closed when time was up too) and with no other attempt open
 * (409; one whose time and grace are over is first closed here as the worker would close it). The questions are drawn and pinned now, and so is the quiz's time limit (`endsAt`). With `answers` the
 * attempt is submitted at once, which needs every question to be fixed (a client cannot answer questions it has
 * not seen drawn) and a `timeSpentSeconds` within the time limit and its grace (400 otherwise).
 */
export async function startAttempt(
  db: Executor,
  tenantId: string,
  actor: Actor,
  quizId: string,
  input: StartAttemptInput,
): Promise<AttemptRecord> {
  const { quiz, row } = await db.transaction(async (tx) => {
    const quiz = await findQuiz(tx, tenantId, quizId, "share");
    if (quiz === undefined) throw notFound();
    await assertTeaches(tx, tenantId, actor, quiz.courseId);
    if (input.answers !== undefined && quiz.sections.some((s) => s.source.type === "random")) {
      throw validationError("answers", "field.answers_need_fixed");
    }
    if (input.answers !== undefined) assertTimeSpent(quiz.timeLimitSeconds, input.timeSpentSeconds);
    if ((await repo.findUser(tx, tenantId, input.userId)) === undefined) {
      throw validationError("userId", "field.unknown_user", { id: input.userId });
    }
    const enrollmentId = await repo.lockCurrentEnrollment(tx, tenantId, input.userId, quiz.courseId);
    if (enrollmentId === undefined) throw conflict("conflict.not_enrolled");
    let mine = await repo.attemptsOfUser(tx, tenantId, quiz.id, input.userId);
    if (mine.open && (await closeOverdueOf(tx, tenantId, quiz.id, input.userId))) {
      mine = await repo.attemptsOfUser(tx, tenantId, quiz.id, input.userId);
    }
    if (mine.open) throw conflict("conflict.attempt_in_progress");
    if (quiz.allowedAttempts !== null && mine.count >= quiz.allowedAttempts) {
      throw conflict("conflict.attempts_exhausted");
    }
    const questions = await drawQuestions(tx, tenantId, quiz);
    if (questions.length === 0) throw conflict("conflict.quiz_no_questions");
    const attempt = await tx
      .transaction((inner) =>
        repo.insertAttempt(
          inner,
          tenantId,
          {
            quizId: quiz.id,
            userId: input.userId,
            enrollmentId,
            attemptNumber: mine.last + 1,
            questions,
            maxScore: round2(questions.reduce((sum, q) => sum + q.points, 0)),
          },
          quiz.timeLimitSeconds,
        ),
      )
      .catch((err: unknown) => {
        // Only a start that bypassed the enrollment lock could collide; answer it as the race it is.
        if (isUniqueViolation(err, "quiz_attempts_number_key"))
          throw conflict("conflict.attempt_in_progress");
        throw err;
      });
    if (input.answers === undefined) return { quiz, row: attempt };
    const submitted = await submitInTx(tx, tenantId, actor, quiz, attempt, {
      answers: input.answers,
      timeSpentSeconds: input.timeSpentSeconds,
    });
    return { quiz, row: submitted };
  });
  return recordOf(db, tenantId, quiz, row);
}

/**
 * Submits an open attempt: 409 when it was already submitted, or when its time is up (more than the grace after
 * `endsAt`); 400 when the `timeSpentSeconds` it reports is more than its time allowed and the grace.
 */
export async function submitAttempt(
  db: Executor,
  tenantId: string,
  actor: Actor,
  attemptId: string,
  input: SubmitAttemptInput,
): Promise<AttemptRecord> {
  const { quiz, row } = await db.transaction(async (tx) => {
    const attempt = await repo.findAttempt(tx, tenantId, attemptId, true);
    if (attempt === undefined) throw notFound();
    const quiz = (await findQuiz(tx, tenantId, attempt.quizId, "share")) as QuizRow;
    await assertTeaches(tx, tenantId, actor, quiz.courseId);
    if (attempt.status !== "in_progress") throw conflict("conflict.attempt_submitted");
    assertInTime(attempt);
    assertTimeSpent(allowedSeconds(attempt), input.timeSpentSeconds);
    return {
      quiz,
      row: await submitInTx(tx, tenantId, actor, quiz, attempt, {
        answers: input.answers,
        timeSpentSeconds: input.timeSpentSeconds,
      }),
    };
  });
  return recordOf(db, tenantId, quiz, row);
}
