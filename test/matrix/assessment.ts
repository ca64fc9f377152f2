import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { questionBanks, questions, quizAttempts, quizzes } from "../../src/db/schema/index.js";
import type { CreateQuestionInput } from "../../src/modules/question-banks/question-schemas.js";
import { createQuestions } from "../../src/modules/question-banks/question-service.js";
import { createBank } from "../../src/modules/question-banks/service.js";
import { createQuiz, startAttempt } from "../../src/modules/quizzes/service.js";
import { enroll, makeQuizLesson } from "../../src/modules/quizzes/test-fixtures.js";
import { type Harness, makeUser, type TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;
const idOf = (params: Params) => (typeof params === "string" ? params : (params.id as string));

const QUESTION: CreateQuestionInput = {
  type: "single_choice",
  stem: "Fixture?",
  options: [
    { id: "a", text: "Yes", isCorrect: true },
    { id: "b", text: "No", isCorrect: false },
  ],
};

const bank = async (h: Harness, t: TestTenant) =>
  (await createBank(h.database.db, t.id, { title: "Fixture" })).id;

const question = async (h: Harness, t: TestTenant) => {
  const created = await createQuestions(h.database.db, t.id, await bank(h, t), QUESTION);
  return (created as { id: string }).id;
};

const quiz = async (h: Harness, t: TestTenant) => {
  const { lessonId } = await makeQuizLesson(h.database.db, t.id);
  const questionId = await question(h, t);
  const created = await createQuiz(h.database.db, t.id, {
    lessonId,
    sections: [{ source: { type: "fixed", questionIds: [questionId] } }],
  });
  return created.id;
};

/** An open attempt. Its user is a teacher: the matrix's tenants are on the free plan's student limit. */
const attempt = async (h: Harness, t: TestTenant) => {
  const quizId = await quiz(h, t);
  const [row] = await h.database.db
    .select({ courseId: quizzes.courseId })
    .from(quizzes)
    .where(and(eq(quizzes.tenantId, t.id), eq(quizzes.id, quizId)));
  const user = await makeUser(h, t, "teacher");
  await enroll(h.database.db, t.id, user.id, row?.courseId as string);
  return (await startAttempt(h.database.db, t.id, { kind: "system" }, quizId, { userId: user.id })).id;
};

/** A bank with its questions: nothing of either may change on a refused request. */
const bankTree = async (h: Harness, t: TestTenant, params: Params) => {
  const id = idOf(params);
  const db = h.database.db;
  const [row] = await db
    .select()
    .from(questionBanks)
    .where(and(eq(questionBanks.tenantId, t.id), eq(questionBanks.id, id)));
  if (row === undefined) return undefined;
  const items = await db
    .select()
    .from(questions)
    .where(and(eq(questions.tenantId, t.id), eq(questions.bankId, id)))
    .orderBy(asc(questions.id));
  return { bank: row, questions: items };
};

const questionRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    await h.database.db
      .select()
      .from(questions)
      .where(and(eq(questions.tenantId, t.id), eq(questions.id, idOf(params))))
  )[0];

/** A quiz with its attempts. */
const quizTree = async (h: Harness, t: TestTenant, params: Params) => {
  const id = idOf(params);
  const db = h.database.db;
  const [row] = await db
    .select()
    .from(quizzes)
    .where(and(eq(quizzes.tenantId, t.id), eq(quizzes.id, id)));
  if (row === undefined) return undefined;
  const attempts = await db
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.tenantId, t.id), eq(quizAttempts.quizId, id)))
    .orderBy(asc(quizAttempts.id));
  return { quiz: row, attempts };
};

const attemptRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    await h.database.db
      .select()
      .from(quizAttempts)
      .where(and(eq(quizAttempts.tenantId, t.id), eq(quizAttempts.id, idOf(params))))
  )[0];

export const fixtures: Fixtures = {
  "GET /api/institution/question-banks": {},
  "POST /api/institution/question-banks": { body: { title: "Matrix" } },
  "GET /api/institution/question-banks/:id": { makeObject: bank, snapshot: bankTree },
  "PATCH /api/institution/question-banks/:id": {
    body: { title: "Renamed" },
    makeObject: bank,
    snapshot: bankTree,
  },
  "DELETE /api/institution/question-banks/:id": { makeObject: bank, snapshot: bankTree },
  "GET /api/institution/question-banks/:id/questions": { makeObject: bank, snapshot: bankTree },
  "POST /api/institution/question-banks/:id/questions": {
    body: QUESTION,
    makeObject: bank,
    snapshot: bankTree,
  },
  "GET /api/institution/questions/:id": { makeObject: question, snapshot: questionRow },
  "PATCH /api/institution/questions/:id": {
    body: { stem: "Renamed" },
    makeObject: question,
    snapshot: questionRow,
  },
  "DELETE /api/institution/questions/:id": { makeObject: question, snapshot: questionRow },
  "GET /api/institution/quizzes": {},
  "POST /api/institution/quizzes": {
    body: {
      lessonId: randomUUID(),
      sections: [{ source: { type: "random", bankId: randomUUID(), pickCount: 1 } }],
    },
  },
  "GET /api/institution/quizzes/:id": { makeObject: quiz, snapshot: quizTree },
  "PATCH /api/institution/quizzes/:id": { body: { passPercent: 75 }, makeObject: quiz, snapshot: quizTree },
  "DELETE /api/institution/quizzes/:id": { makeObject: quiz, snapshot: quizTree },
  "GET /api/institution/quizzes/:id/attempts": { makeObject: quiz, snapshot: quizTree },
  "POST /api/institution/quizzes/:id/attempts": {
    body: { userId: randomUUID() },
    makeObject: quiz,
    snapshot: quizTree,
  },
  "GET /api/institution/quiz-attempts/:id": { makeObject: attempt, snapshot: attemptRow },
  "POST /api/institution/quiz-attempts/:id/submit": {
    body: { answers: [] },
    makeObject: attempt,
    snapshot: attemptRow,
  },
  "PATCH /api/institution/quiz-attempts/:id": {
    body: { answers: [{ questionId: randomUUID(), pointsAwarded: 1 }] },
    makeObject: attempt,
    snapshot: attemptRow,
  },
};
