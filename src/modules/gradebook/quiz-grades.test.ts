import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { grades } from "../../db/schema/index.js";
import { callerFor, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeKey, makeUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { policyPercent } from "../quizzes/gradebook-sync.js";
import { enroll, makeQuizLesson } from "../quizzes/test-fixtures.js";

const { h, tenants } = useApi({ env: MANY_STUDENTS, tenants: 1 });
const [a] = tenants;
let key: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));

beforeAll(async () => {
  key = await makeKey(h, a, [], UNLIMITED_KEY);
});

const options = [
  { id: "t", text: "V", isCorrect: true },
  { id: "f", text: "F", isCorrect: false },
];

describe("a quiz feeding its grade item", () => {
  it("writes the item's grade when an attempt is graded, by the quiz's scoring policy, in the same transaction", async () => {
    const lesson = await makeQuizLesson(h.database.db, a.id);
    const bank = (await call("POST", "/question-banks", { title: "Bank" })).json();
    const created = await call("POST", `/question-banks/${bank.id}/questions`, {
      items: [
        { type: "true_false", stem: "1", options },
        { type: "true_false", stem: "2", options },
      ],
    });
    const [q1, q2] = created.json().data.map((q: { id: string }) => q.id);
    const quiz = (
      await call("POST", "/quizzes", {
        lessonId: lesson.lessonId,
        sections: [{ source: { type: "fixed", questionIds: [q1, q2] } }],
        scoringPolicy: "latest",
      })
    ).json();
    const item = await call("POST", `/courses/${lesson.courseId}/grade-items`, {
      title: "Quiz",
      maxPoints: 20,
      sourceType: "quiz",
      sourceId: quiz.id,
    });
    expect(item.statusCode, item.body).toBe(201);
    const student = await makeUser(h, a, "student");
    await enroll(h.database.db, a.id, student.id, lesson.courseId);

    const first = await call("POST", `/quizzes/${quiz.id}/attempts`, {
      userId: student.id,
      answers: [
        { questionId: q1, response: "t" },
        { questionId: q2, response: "f" },
      ],
    });
    expect(first.statusCode, first.body).toBe(201);
    const gradeOf = async () =>
      (
        await h.database.db
          .select()
          .from(grades)
          .where(and(eq(grades.gradeItemId, item.json().id), eq(grades.userId, student.id)))
      )[0];
    expect(await gradeOf()).toMatchObject({ score: 10, status: "graded", source: "auto" });
    // `latest`: the second attempt's 100% replaces the first's 50%.
    await call("POST", `/quizzes/${quiz.id}/attempts`, {
      userId: student.id,
      answers: [
        { questionId: q1, response: "t" },
        { questionId: q2, response: "t" },
      ],
    });
    expect((await gradeOf())?.score).toBe(20);
    const book = await call("GET", `/courses/${lesson.courseId}/gradebook`);
    expect(book.json().data[0].courseGrade).toMatchObject({ currentScore: 100, unpostedFinalScore: 100 });
  });

  it("keeps the percent of each scoring policy", () => {
    expect(policyPercent("highest", [50, 80, 60])).toBe(80);
    expect(policyPercent("latest", [50, 80, 60])).toBe(60);
    expect(policyPercent("first", [50, 80, 60])).toBe(50);
    expect(policyPercent("average", [50, 80, 60])).toBeCloseTo(63.333, 2);
    expect(policyPercent("highest", [])).toBeNull();
  });
});
