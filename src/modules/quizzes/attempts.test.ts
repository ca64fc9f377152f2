import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  enrollments,
  lessonCompletions,
  lessons,
  platformEvents,
  questions,
  quizAttempts,
} from "../../db/schema/index.js";
import { AS_WRITTEN, fieldsOf, MANY_STUDENTS, type Method, useApi } from "../../test-support/api.js";
import {
  json,
  makeKey,
  makeUser,
  roleCookie,
  signedInUser,
  UNLIMITED_KEY,
} from "../../test-support/harness.js";
import { enroll, makeQuizLesson, type QuizLesson } from "./test-fixtures.js";

// Every attempt here needs its own student; the free plan's student limit is not what is under test.
const { h, tenants, call } = useApi({ env: MANY_STUDENTS, tenants: 2, call: AS_WRITTEN });
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  // This file sends far more than a standard key's 100 requests a minute.
  keyA = await makeKey(h, a, [], UNLIMITED_KEY);
  keyB = await makeKey(h, b, []);
});

const A = (method: Method, url: string, payload?: unknown) => call(a, keyA, method, url, payload);

const opts = (correct: string[], ids = ["a", "b", "c"]) =>
  ids.map((id) => ({ id, text: `Option ${id}`, isCorrect: correct.includes(id) }));

/** One question of every type, with the response that earns full marks. */
const QUESTIONS = [
  { body: { type: "single_choice", stem: "S", options: opts(["b"]), points: 2 }, right: "b", wrong: "a" },
  {
    body: { type: "multiple_choice", stem: "M", options: opts(["a", "c"]), points: 2 },
    right: ["c", "a"],
    wrong: ["a"],
  },
  { body: { type: "true_false", stem: "T", options: opts(["t"], ["t", "f"]) }, right: "t", wrong: "f" },
  {
    body: { type: "short_answer", stem: "SA", acceptedAnswers: ["Identidade"] },
    right: " identidade ",
    wrong: "x",
  },
  { body: { type: "numeric", stem: "N", numeric: { min: 1, max: 2 } }, right: 1.5, wrong: 3 },
  {
    body: {
      type: "matching",
      stem: "MA",
      points: 4,
      pairs: [
        { left: "1", right: "um" },
        { left: "2", right: "dois" },
      ],
    },
    right: [
      { left: "1", right: "um" },
      { left: "2", right: "dois" },
    ],
    wrong: [
      { left: "1", right: "um" },
      { left: "2", right: "um" },
    ],
  },
  {
    body: { type: "ordering", stem: "O", items: ["x", "y", "z"] },
    right: ["x", "y", "z"],
    wrong: ["z", "y", "x"],
  },
] as const;

interface Setup {
  lesson: QuizLesson;
  bankId: string;
  ids: string[];
  quizId: string;
  userId: string;
}

async function bank(items: unknown[]) {
  const bankId = (await A("POST", "/api/institution/question-banks", { title: "Bank" })).json().id as string;
  const res = await A("POST", `/api/institution/question-banks/${bankId}/questions`, { items });
  expect(res.statusCode).toBe(201);
  return { bankId, ids: res.json().data.map((q: { id: string }) => q.id) as string[] };
}

/** A quiz of fixed questions (every type by default), and an enrolled student. */
async function setup(items: unknown[] = QUESTIONS.map((q) => q.body), settings: object = {}): Promise<Setup> {
  const lesson = await makeQuizLesson(h.database.db, a.id);
  const { bankId, ids } = await bank(items);
  const quiz = await A("POST", "/api/institution/quizzes", {
    lessonId: lesson.lessonId,
    sections: [{ source: { type: "fixed", questionIds: ids } }],
    ...settings,
  });
  expect(quiz.statusCode).toBe(201);
  const user = await makeUser(h, a, "student");
  await enroll(h.database.db, a.id, user.id, lesson.courseId);
  return { lesson, bankId, ids, quizId: quiz.json().id, userId: user.id };
}

const start = (s: Pick<Setup, "quizId" | "userId">, extra: object = {}) =>
  A("POST", `/api/institution/quizzes/${s.quizId}/attempts`, { userId: s.userId, ...extra });

const eventsOf = async (type: string, attemptId: string) =>
  (
    await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, type)))
  ).filter((e) => (e.data as { attemptId: string }).attemptId === attemptId);

describe("attempts", () => {
  it("starts an attempt showing its questions without answers, then scores every type on submit", async () => {
    const s = await setup();
    const started = await start(s);
    expect(started.statusCode).toBe(201);
    const attempt = started.json();
    expect(attempt).toMatchObject({
      quizId: s.quizId,
      userId: s.userId,
      enrollmentId: expect.any(String),
      attemptNumber: 1,
      status: "in_progress",
      submittedAt: null,
      score: null,
      maxScore: 2 + 2 + 1 + 1 + 1 + 4 + 1,
      percent: null,
      passed: null,
      answers: [],
    });
    expect(attempt.questions.map((q: { questionId: string }) => q.questionId)).toEqual(s.ids);
    const text = JSON.stringify(attempt.questions);
    for (const secret of ["isCorrect", "acceptedAnswers", "Identidade", '"numeric":', '"pairs":', '"min":']) {
      expect(text).not.toContain(secret);
    }
    const [single, , , , , matching, ordering] = attempt.questions;
    expect(single.options).toEqual([
      { id: "a", text: "Option a" },
      { id: "b", text: "Option b" },
      { id: "c", text: "Option c" },
    ]);
    expect(matching.left).toEqual(["1", "2"]);
    expect([...matching.right].sort()).toEqual(["dois", "um"]);
    expect([...ordering.items].sort()).toEqual(["x", "y", "z"]);
    expect(await eventsOf("quiz_submitted", attempt.id)).toEqual([]);

    // Half right: the first four questions right, the rest wrong (matching earns half of its 4 points).
    const answers = QUESTIONS.map((q, i) => ({ questionId: s.ids[i], response: i < 4 ? q.right : q.wrong }));
    const submitted = await A("POST", `/api/institution/quiz-attempts/${attempt.id}/submit`, {
      answers,
      timeSpentSeconds: 300,
    });
    expect(submitted.statusCode).toBe(200);
    const done = submitted.json();
    expect(done).toMatchObject({
      status: "graded",
      score: 2 + 2 + 1 + 1 + 2,
      maxScore: 12,
      percent: 66.67,
      passed: true,
      timeSpentSeconds: 300,
      submittedAt: expect.stringMatching(/Z$/),
    });
    expect(done.answers.map((x: { pointsAwarded: number }) => x.pointsAwarded)).toEqual([
      2, 2, 1, 1, 0, 2, 0,
    ]);
    expect(done.answers.map((x: { correct: boolean }) => x.correct)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(done.answers[0]).toEqual({
      questionId: s.ids[0],
      questionVersion: 1,
      response: "b",
      correct: true,
      pointsAwarded: 2,
      feedback: null,
    });

    const [event] = await eventsOf("quiz_submitted", attempt.id);
    expect(event?.data).toEqual({
      courseId: s.lesson.courseId,
      quizId: s.quizId,
      attemptId: attempt.id,
      userId: s.userId,
      attemptNumber: 1,
      score: 8,
      maxScore: 12,
      percent: 66.67,
      passed: true,
      submittedAt: done.submittedAt,
      lessonId: s.lesson.lessonId,
      enrollmentId: done.enrollmentId,
      gradingStatus: "graded",
      timeSpentSeconds: 300,
      letterGrade: "D",
      // The attempt as the submission answered it.
      attempt: done,
    });
    expect(event?.subject).toMatchObject({ id: s.userId, role: "student" });
    expect(event?.actor).toMatchObject({ type: "api_key" });

    const again = await A("POST", `/api/institution/quiz-attempts/${attempt.id}/submit`, { answers: [] });
    expect(again.statusCode).toBe(409);
    expect((await eventsOf("quiz_submitted", attempt.id)).length).toBe(1);
    expect((await A("GET", `/api/institution/quiz-attempts/${attempt.id}`)).json()).toEqual(done);
  });

  it("refuses answers to questions not drawn, repeated or of the wrong shape, changing nothing", async () => {
    const s = await setup();
    const attempt = (await start(s)).json();
    const url = `/api/institution/quiz-attempts/${attempt.id}/submit`;
    const stranger = "00000000-0000-4000-8000-000000000000";
    const res = await A("POST", url, {
      answers: [
        { questionId: s.ids[0], response: "b" },
        { questionId: stranger, response: "b" },
        { questionId: s.ids[0], response: "a" },
        { questionId: s.ids[4], response: "1.5" },
        { questionId: s.ids[1], response: "a" },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res)).toEqual([
      "answers[1].questionId",
      "answers[2].questionId",
      "answers[3].response",
      "answers[4].response",
    ]);
    const row = (await A("GET", `/api/institution/quiz-attempts/${attempt.id}`)).json();
    expect(row).toMatchObject({ status: "in_progress", answers: [] });
    expect(await eventsOf("quiz_submitted", attempt.id)).toEqual([]);
    const missing = await A("POST", url, {});
    expect(fieldsOf(missing)).toEqual(["answers"]);
  });

  it("records an attempt with its answers in one call when every section is fixed; unanswered earns 0", async () => {
    const s = await setup();
    const res = await start(s, { answers: [{ questionId: s.ids[0], response: "b" }] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: "graded",
      score: 2,
      maxScore: 12,
      percent: 16.67,
      passed: false,
    });
    expect(res.json().answers[1]).toMatchObject({ response: null, correct: false, pointsAwarded: 0 });
    expect(await eventsOf("quiz_submitted", res.json().id)).toHaveLength(1);

    const { bankId } = await bank([QUESTIONS[0].body]);
    const lesson = await makeQuizLesson(h.database.db, a.id);
    const random = (
      await A("POST", "/api/institution/quizzes", {
        lessonId: lesson.lessonId,
        sections: [{ source: { type: "random", bankId, pickCount: 1 } }],
      })
    ).json();
    await enroll(h.database.db, a.id, s.userId, lesson.courseId);
    const refused = await start({ quizId: random.id, userId: s.userId }, { answers: [] });
    expect(refused.statusCode).toBe(400);
    expect(fieldsOf(refused)).toEqual(["answers"]);
  });

  it("needs a current enrollment and a known user", async () => {
    const s = await setup();
    const stranger = await makeUser(h, a, "student");
    const notEnrolled = await start({ quizId: s.quizId, userId: stranger.id });
    expect(notEnrolled.statusCode).toBe(409);
    expect(notEnrolled.json().error).toBe("conflict");
    await enroll(h.database.db, a.id, stranger.id, s.lesson.courseId, "dropped");
    expect((await start({ quizId: s.quizId, userId: stranger.id })).statusCode).toBe(409);
    const otherCourse = await makeQuizLesson(h.database.db, a.id);
    await enroll(h.database.db, a.id, stranger.id, otherCourse.courseId);
    expect((await start({ quizId: s.quizId, userId: stranger.id })).statusCode).toBe(409);
    const graduate = await makeUser(h, a, "student");
    await enroll(h.database.db, a.id, graduate.id, s.lesson.courseId, "completed");
    expect((await start({ quizId: s.quizId, userId: graduate.id })).statusCode).toBe(201);
    const ghost = await start({ quizId: s.quizId, userId: "00000000-0000-4000-8000-000000000000" });
    expect(ghost.statusCode).toBe(400);
    expect(fieldsOf(ghost)).toEqual(["userId"]);
    const foreignUser = await makeUser(h, b, "student");
    expect((await start({ quizId: s.quizId, userId: foreignUser.id })).statusCode).toBe(400);
    const rows = await h.database.db.select().from(quizAttempts).where(eq(quizAttempts.userId, stranger.id));
    expect(rows).toEqual([]);
  });

  it("enforces allowedAttempts and one open attempt at a time", async () => {
    const s = await setup([QUESTIONS[0].body], { allowedAttempts: 2 });
    const first = (await start(s)).json();
    const open = await start(s);
    expect(open.statusCode).toBe(409);
    await A("POST", `/api/institution/quiz-attempts/${first.id}/submit`, { answers: [] });
    const second = await start(s, { answers: [{ questionId: s.ids[0], response: "b" }] });
    expect(second.json()).toMatchObject({ attemptNumber: 2, status: "graded" });
    const third = await start(s);
    expect(third.statusCode).toBe(409);
    expect(third.json().error).toBe("conflict");
    const rows = await h.database.db.select().from(quizAttempts).where(eq(quizAttempts.quizId, s.quizId));
    expect(rows).toHaveLength(2);
    // Another user has attempts of their own.
    const other = await makeUser(h, a, "student");
    await enroll(h.database.db, a.id, other.id, s.lesson.courseId);
    expect((await start({ quizId: s.quizId, userId: other.id })).json().attemptNumber).toBe(1);
  });

  it("scores an attempt against the version it drew, after the question changed", async () => {
    const s = await setup([
      QUESTIONS[0].body,
      { type: "short_answer", stem: "Capital?", acceptedAnswers: ["Lima"] },
    ]);
    const attempt = (await start(s)).json();
    await A("PATCH", `/api/institution/questions/${s.ids[0]}`, {
      stem: "Changed",
      options: opts(["c"]),
      points: 9,
    });
    await A("PATCH", `/api/institution/questions/${s.ids[1]}`, { acceptedAnswers: ["Quito"] });
    const shown = (await A("GET", `/api/institution/quiz-attempts/${attempt.id}`)).json();
    expect(shown.questions[0]).toMatchObject({ stem: "S", version: 1, points: 2 });
    const done = await A("POST", `/api/institution/quiz-attempts/${attempt.id}/submit`, {
      answers: [
        { questionId: s.ids[0], response: "b" },
        { questionId: s.ids[1], response: "lima" },
      ],
    });
    expect(done.json()).toMatchObject({ score: 3, maxScore: 3, percent: 100 });
    expect(done.json().answers.map((x: { questionVersion: number }) => x.questionVersion)).toEqual([1, 1]);

    const next = await start(s);
    expect(next.json().questions[0]).toMatchObject({ stem: "Changed", version: 2, points: 9 });
    expect(next.json().maxScore).toBe(10);
  });

  it("draws pickCount random active questions, never a retired one, and pins their points", async () => {
    const items = Array.from({ length: 7 }, (_, i) => ({ ...QUESTIONS[0].body, stem: `R${i}` }));
    const { bankId, ids } = await bank(items);
    const retired = ids.slice(5);
    for (const id of retired) await A("PATCH", `/api/institution/questions/${id}`, { status: "retired" });
    const lesson = await makeQuizLesson(h.database.db, a.id);
    const quiz = (
      await A("POST", "/api/institution/quizzes", {
        lessonId: lesson.lessonId,
        sections: [
          { source: { type: "fixed", questionIds: [ids[0]] } },
          { source: { type: "random", bankId, pickCount: 3 }, pointsPerQuestion: 5 },
        ],
      })
    ).json();
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const user = await makeUser(h, a, "student");
      await enroll(h.database.db, a.id, user.id, lesson.courseId);
      const attempt = (await start({ quizId: quiz.id, userId: user.id })).json();
      const drawn = attempt.questions.map((q: { questionId: string }) => q.questionId);
      expect(drawn).toHaveLength(4);
      expect(new Set(drawn).size).toBe(4);
      expect(drawn[0]).toBe(ids[0]);
      for (const id of drawn.slice(1)) {
        expect(retired).not.toContain(id);
        seen.add(id);
      }
      expect(attempt.questions.slice(1).map((q: { points: number }) => q.points)).toEqual([5, 5, 5]);
      expect(attempt.maxScore).toBe(2 + 15);
    }
    expect([...seen].every((id) => ids.slice(1, 5).includes(id))).toBe(true);

    // A bank with fewer active questions than pickCount gives what it has.
    const small = await bank([QUESTIONS[0].body]);
    const smallLesson = await makeQuizLesson(h.database.db, a.id);
    const smallQuiz = (
      await A("POST", "/api/institution/quizzes", {
        lessonId: smallLesson.lessonId,
        sections: [{ source: { type: "random", bankId: small.bankId, pickCount: 5 } }],
      })
    ).json();
    const user = await makeUser(h, a, "student");
    await enroll(h.database.db, a.id, user.id, smallLesson.courseId);
    expect((await start({ quizId: smallQuiz.id, userId: user.id })).json().questions).toHaveLength(1);
    await A("PATCH", `/api/institution/questions/${small.ids[0]}`, { status: "retired" });
    const other = await makeUser(h, a, "student");
    await enroll(h.database.db, a.id, other.id, smallLesson.courseId);
    expect((await start({ quizId: smallQuiz.id, userId: other.id })).statusCode).toBe(409);
  });

  it("leaves an answered essay pending review, then grading by hand emits quiz_graded", async () => {
    const s = await setup([QUESTIONS[0].body, { type: "essay", stem: "Explique", points: 8 }], {
      passPercent: 50,
    });
    const attempt = (
      await start(s, {
        answers: [
          { questionId: s.ids[0], response: "b" },
          { questionId: s.ids[1], response: "Porque sim." },
        ],
      })
    ).json();
    expect(attempt).toMatchObject({
      status: "pending_review",
      score: 2,
      maxScore: 10,
      percent: 20,
      passed: null,
    });
    expect(attempt.answers[1]).toMatchObject({ correct: null, pointsAwarded: null });
    const [submitted] = await eventsOf("quiz_submitted", attempt.id);
    expect(submitted?.data).toMatchObject({ score: 2, passed: null });

    const url = `/api/institution/quiz-attempts/${attempt.id}`;
    const over = await A("PATCH", url, { answers: [{ questionId: s.ids[1], pointsAwarded: 9 }] });
    expect(over.statusCode).toBe(400);
    expect(fieldsOf(over)).toEqual(["answers[0].pointsAwarded"]);
    const stranger = await A("PATCH", url, {
      answers: [{ questionId: "00000000-0000-4000-8000-000000000000", pointsAwarded: 1 }],
    });
    expect(fieldsOf(stranger)).toEqual(["answers[0].questionId"]);
    expect(await eventsOf("quiz_graded", attempt.id)).toEqual([]);

    const graded = await A("PATCH", url, {
      answers: [{ questionId: s.ids[1], pointsAwarded: 6, feedback: "Faltou um exemplo." }],
    });
    expect(graded.statusCode).toBe(200);
    expect(graded.json()).toMatchObject({ status: "graded", score: 8, percent: 80, passed: true });
    expect(graded.json().answers[1]).toMatchObject({
      pointsAwarded: 6,
      correct: false,
      feedback: "Faltou um exemplo.",
    });
    const [event] = await eventsOf("quiz_graded", attempt.id);
    expect(event?.data).toMatchObject({
      quizId: s.quizId,
      attemptId: attempt.id,
      attemptNumber: 1,
      score: 8,
      maxScore: 10,
      percent: 80,
      passed: true,
      previousScore: 2,
    });
    expect(event?.subject).toMatchObject({ id: s.userId });
    const [row] = await h.database.db.select().from(quizAttempts).where(eq(quizAttempts.id, attempt.id));
    expect(row?.gradedBy).toMatchObject({ type: "api_key" });

    // A regrade changes the score and says what it was.
    const regraded = await A("PATCH", url, { answers: [{ questionId: s.ids[0], pointsAwarded: 0 }] });
    expect(regraded.json()).toMatchObject({ score: 6, passed: true });
    const events = await eventsOf("quiz_graded", attempt.id);
    expect(events.map((e) => (e.data as { previousScore: number }).previousScore).sort()).toEqual([2, 8]);

    const open = (await start(s)).json();
    const early = await A("PATCH", `/api/institution/quiz-attempts/${open.id}`, {
      answers: [{ questionId: s.ids[1], pointsAwarded: 1 }],
    });
    expect(early.statusCode).toBe(409);
  });

  it("retires questions attempts drew, and refuses to delete a quiz with attempts", async () => {
    const s = await setup([QUESTIONS[0].body, QUESTIONS[3].body]);
    await start(s);
    await A("PATCH", `/api/institution/quizzes/${s.quizId}`, {
      sections: [{ source: { type: "fixed", questionIds: [s.ids[1]] } }],
    });
    expect((await A("DELETE", `/api/institution/questions/${s.ids[0]}`)).statusCode).toBe(204);
    const [row] = await h.database.db
      .select()
      .from(questions)
      .where(eq(questions.id, s.ids[0] as string));
    expect(row?.status).toBe("retired");
    const refused = await A("DELETE", `/api/institution/quizzes/${s.quizId}`);
    expect(refused.statusCode).toBe(409);
    // Nor may the attempts go by cascade, with the quiz's lesson or module.
    const lesson = await A("DELETE", `/api/institution/lessons/${s.lesson.lessonId}`);
    expect(lesson.statusCode).toBe(409);
    expect(lesson.json().message).toContain("tentativas");
    expect((await A("DELETE", `/api/institution/modules/${s.lesson.moduleId}`)).statusCode).toBe(409);
    expect((await A("GET", `/api/institution/quizzes/${s.quizId}`)).statusCode).toBe(200);
  });

  it("lists a quiz's attempts by user and status with exact totals", async () => {
    const s = await setup([QUESTIONS[0].body, { type: "essay", stem: "E" }]);
    const other = await makeUser(h, a, "student");
    await enroll(h.database.db, a.id, other.id, s.lesson.courseId);
    const graded = (await start(s, { answers: [{ questionId: s.ids[0], response: "b" }] })).json();
    const pending = (
      await start(s, {
        answers: [
          { questionId: s.ids[0], response: "a" },
          { questionId: s.ids[1], response: "text" },
        ],
      })
    ).json();
    const open = (await start({ quizId: s.quizId, userId: other.id })).json();
    const list = async (query = "") =>
      (await A("GET", `/api/institution/quizzes/${s.quizId}/attempts${query}`)).json();
    const all = await list();
    expect(all.data.map((x: { id: string }) => x.id)).toEqual([open.id, pending.id, graded.id]);
    expect(all.pagination).toEqual({ page: 1, perPage: 20, total: 3, totalPages: 1, totalRelation: "eq" });
    expect((await list(`?userId=${s.userId}`)).pagination.total).toBe(2);
    expect((await list("?status=pending_review")).data.map((x: { id: string }) => x.id)).toEqual([
      pending.id,
    ]);
    expect((await list(`?userId=${other.id}&status=in_progress`)).pagination.total).toBe(1);
    expect((await list("?sort=-score")).data.map((x: { id: string }) => x.id)).toEqual([
      graded.id,
      pending.id,
      open.id,
    ]);
    expect((await list("?status=done")).error).toBe("validation_failed");
  });

  it("keeps tenants apart and admits only teachers and administrators", async () => {
    const s = await setup([QUESTIONS[0].body]);
    const attempt = (await start(s)).json();
    const foreign = [
      ["GET", `/api/institution/quiz-attempts/${attempt.id}`, undefined],
      ["POST", `/api/institution/quiz-attempts/${attempt.id}/submit`, { answers: [] }],
      [
        "PATCH",
        `/api/institution/quiz-attempts/${attempt.id}`,
        { answers: [{ questionId: s.ids[0], pointsAwarded: 1 }] },
      ],
      ["GET", `/api/institution/quizzes/${s.quizId}/attempts`, undefined],
      ["POST", `/api/institution/quizzes/${s.quizId}/attempts`, { userId: s.userId }],
    ] as const;
    for (const [method, url, payload] of foreign) {
      const res = await call(b, keyB, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await A("GET", `/api/institution/quiz-attempts/${attempt.id}`)).json().status).toBe(
      "in_progress",
    );

    const student = await roleCookie(h, a, "student");
    const outsider = await roleCookie(h, a, "teacher");
    const teacher = await signedInUser(h, a, "teacher");
    await h.database.db
      .insert(enrollments)
      .values({ tenantId: a.id, userId: teacher.id, courseId: s.lesson.courseId, role: "teacher" });
    const as = (
      cookie: string,
      method: Method = "GET",
      url = `/api/institution/quiz-attempts/${attempt.id}`,
    ) => h.inject({ method, url, headers: { host: a.host, cookie } });
    expect((await as(student)).statusCode).toBe(403);
    // The gradebook's rule: a teacher's session acts on the courses it teaches only, and attempts are grades.
    for (const [method, url, payload] of foreign) {
      const res = await h.inject({ method, url, payload, headers: { host: a.host, cookie: outsider } });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe("forbidden");
    }
    expect((await as(teacher.cookie)).statusCode).toBe(200);
    expect(
      (await as(teacher.cookie, "GET", `/api/institution/quizzes/${s.quizId}/attempts`)).statusCode,
    ).toBe(200);
    const teacherSubmit = await h.inject({
      method: "POST",
      url: `/api/institution/quiz-attempts/${attempt.id}/submit`,
      headers: { host: a.host, cookie: teacher.cookie, ...json },
      payload: { answers: [{ questionId: s.ids[0], response: "b" }] },
    });
    expect(teacherSubmit.statusCode).toBe(200);
    const [event] = await eventsOf("quiz_submitted", attempt.id);
    expect(event?.actor).toMatchObject({ type: "user" });
  });
});

describe("a submitted quiz and its lesson", () => {
  const completionsOf = (lessonId: string, userId: string) =>
    h.database.db
      .select()
      .from(lessonCompletions)
      .where(and(eq(lessonCompletions.lessonId, lessonId), eq(lessonCompletions.userId, userId)));
  const criteria = (lessonId: string, value: object) =>
    h.database.db.update(lessons).set({ completionCriteria: value }).where(eq(lessons.id, lessonId));
  const single = [{ type: "single_choice", stem: "S", options: opts(["b"]) }];

  it("completes a `submit` lesson on submission, in the same transaction as quiz_submitted", async () => {
    const s = await setup(single);
    await criteria(s.lesson.lessonId, { type: "submit" });
    const res = await start(s, { answers: [{ questionId: s.ids[0], response: "a" }] });
    expect(res.statusCode, res.body).toBe(201);
    const [completion] = await completionsOf(s.lesson.lessonId, s.userId);
    expect(completion).toMatchObject({ source: "quiz", scorePercent: 0, enrollmentId: expect.any(String) });
    const completed = (
      await h.database.db
        .select()
        .from(platformEvents)
        .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, "lesson_completed")))
    ).filter((e) => (e.data as { lessonId: string }).lessonId === s.lesson.lessonId);
    expect(completed).toHaveLength(1);
    expect(completed[0]?.data).toMatchObject({ courseCompleted: true, progressPercent: 100 });
  });

  it("completes a `min_score` lesson only with an attempt at or above the score", async () => {
    const s = await setup(single, { allowedAttempts: 2 });
    await criteria(s.lesson.lessonId, { type: "min_score", minScorePercent: 80 });
    expect((await start(s, { answers: [{ questionId: s.ids[0], response: "a" }] })).statusCode).toBe(201);
    expect(await completionsOf(s.lesson.lessonId, s.userId)).toEqual([]);
    expect((await start(s, { answers: [{ questionId: s.ids[0], response: "b" }] })).statusCode).toBe(201);
    expect(await completionsOf(s.lesson.lessonId, s.userId)).toMatchObject([{ scorePercent: 100 }]);
  });

  it("grades an attempt whose enrollment was suspended meanwhile, completing nothing", async () => {
    const s = await setup([{ type: "essay", stem: "E", points: 4 }]);
    await criteria(s.lesson.lessonId, { type: "min_score", minScorePercent: 50 });
    const started = await start(s, { answers: [{ questionId: s.ids[0], response: "Uma resposta" }] });
    expect(started.json().status).toBe("pending_review");
    await h.database.db
      .update(enrollments)
      .set({ status: "suspended" })
      .where(and(eq(enrollments.tenantId, a.id), eq(enrollments.userId, s.userId)));
    const graded = await A("PATCH", `/api/institution/quiz-attempts/${started.json().id}`, {
      answers: [{ questionId: s.ids[0], pointsAwarded: 4 }],
    });
    expect(graded.statusCode, graded.body).toBe(200);
    expect(graded.json()).toMatchObject({ status: "graded", percent: 100 });
    expect(await completionsOf(s.lesson.lessonId, s.userId)).toEqual([]);
  });

  it("leaves a `view` lesson alone", async () => {
    const s = await setup(single);
    expect((await start(s, { answers: [{ questionId: s.ids[0], response: "b" }] })).statusCode).toBe(201);
    expect(await completionsOf(s.lesson.lessonId, s.userId)).toEqual([]);
  });
});

describe("ids in any case", () => {
  it("accepts uppercase question ids in sections and answers", async () => {
    const lesson = await makeQuizLesson(h.database.db, a.id);
    const { ids } = await bank([{ type: "single_choice", stem: "S", options: opts(["b"]) }]);
    const upper = (ids[0] as string).toUpperCase();
    const quiz = await A("POST", "/api/institution/quizzes", {
      lessonId: lesson.lessonId,
      sections: [{ source: { type: "fixed", questionIds: [upper] } }],
    });
    expect(quiz.statusCode, quiz.body).toBe(201);
    const user = await makeUser(h, a, "student");
    await enroll(h.database.db, a.id, user.id, lesson.courseId);
    const res = await start(
      { quizId: quiz.json().id, userId: user.id },
      { answers: [{ questionId: upper, response: "b" }] },
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: "graded", percent: 100 });
  });
});
