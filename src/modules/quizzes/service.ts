import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { assertReadable, type Reader, STAFF } from "../courses/audience.js";
import { activePoints } from "../question-banks/service.js";
import * as repo from "./repo.js";
import type { CreateQuizInput, ListQuizzesQueryType, QuizRecord, UpdateQuizInput } from "./schemas.js";
import { prepareSections, totals } from "./sections.js";

// What other modules may call: attempts started, submitted and graded with the same rules as the API.
export { gradeAttempt, startAttempt, submitAttempt } from "./attempt-service.js";
// The worker's minute pass that closes timed attempts left open.
export { closeOverdueAttempts } from "./time-limit.js";

/** Records for quiz rows, with their totals from one read of the fixed questions they name. */
async function toRecords(
  db: Executor,
  tenantId: string,
  rows: readonly repo.QuizRow[],
): Promise<QuizRecord[]> {
  const fixed = rows.flatMap((r) => r.sections.flatMap((s) => s.source.questionIds ?? []));
  const points = await activePoints(db, tenantId, [...new Set(fixed)]);
  return rows.map((row) => ({ ...row, ...totals(row.sections, points) }));
}

/** The institution's quizzes; a learner's list holds only those of lessons it may read. */
export async function listQuizzes(
  db: Executor,
  tenantId: string,
  query: ListQuizzesQueryType,
  reader: Reader = STAFF,
) {
  const window = pageWindow(query);
  const filter = { courseId: query.courseId, lessonId: query.lessonId };
  const learner = reader.kind === "learner" ? reader.userId : undefined;
  const [rows, total] = await Promise.all([
    repo.listQuizzes(db, tenantId, filter, query.sort ?? "-createdAt", window, learner),
    repo.countQuizzes(db, tenantId, filter, learner),
  ]);
  return cappedPageEnvelope(await toRecords(db, tenantId, rows), total, window);
}

export async function getQuiz(
  db: Executor,
  tenantId: string,
  id: string,
  reader: Reader = STAFF,
): Promise<QuizRecord> {
  const row = await repo.findQuiz(db, tenantId, id);
  if (row === undefined) throw notFound();
  await assertReadable(db, tenantId, reader, { courseId: row.courseId, lessonId: row.lessonId });
  return (await toRecords(db, tenantId, [row]))[0] as QuizRecord;
}

function lessonTaken(err: unknown): never {
  if (isUniqueViolation(err, "quizzes_lesson_key")) {
    throw new AppError("conflict", { messageKey: "conflict.quiz_exists" });
  }
  throw err;
}

/**
 * Creates the quiz of a lesson of type `quiz`: one per lesson (409), its course taken from the lesson, its
 * sections' questions and banks checked against the tenant (400 naming the field).
 */
export async function createQuiz(
  db: Executor,
  tenantId: string,
  input: CreateQuizInput,
): Promise<QuizRecord> {
  const row = await db.transaction(async (tx) => {
    const lesson = await repo.findLesson(tx, tenantId, input.lessonId);
    if (lesson === undefined) {
      throw validationError("lessonId", "field.unknown_lesson", { id: input.lessonId });
    }
    if (lesson.type !== "quiz") throw validationError("lessonId", "field.lesson_not_quiz");
    const sections = await prepareSections(tx, tenantId, input.sections);
    const { sections: _sections, ...settings } = input;
    // A savepoint, so the unique violation of a second quiz for the lesson becomes a 409 and not an aborted outer
    // transaction.
    return tx
      .transaction((inner) => repo.insertQuiz(inner, tenantId, lesson.courseId, settings, sections))
      .catch(lessonTaken);
  });
  return (await toRecords(db, tenantId, [row]))[0] as QuizRecord;
}

export async function updateQuiz(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateQuizInput,
): Promise<QuizRecord> {
  const row = await db.transaction(async (tx) => {
    if ((await repo.findQuiz(tx, tenantId, id, "update")) === undefined) throw notFound();
    const { sections, ...settings } = input;
    const prepared = sections === undefined ? undefined : await prepareSections(tx, tenantId, sections);
    return repo.updateQuiz(tx, tenantId, id, { ...settings, ...(prepared ? { sections: prepared } : {}) });
  });
  return (await toRecords(db, tenantId, [row]))[0] as QuizRecord;
}

/** Deletes a quiz nobody has attempted; one with attempts is 409, so no grade history disappears with it. */
export async function deleteQuiz(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await repo.findQuiz(tx, tenantId, id, "update")) === undefined) throw notFound();
    if (await repo.hasAttempts(tx, tenantId, id)) {
      throw new AppError("conflict", { messageKey: "conflict.quiz_has_attempts" });
    }
    await repo.deleteQuiz(tx, tenantId, id);
  });
}
