import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { grades, platformEvents } from "../../db/schema/index.js";
import { callerFor, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeKey, makeUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { keptOf } from "./kept.js";
import { enroll, makeQuizLesson } from "./test-fixtures.js";

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

/** Attempts of 1, 4 and 0 right out of 4 (25%, 100%, 0%): each policy keeps something different. */
const RIGHT = [1, 4, 0];

const EXPECTED = {
  highest: { keptScore: 4, keptPercent: 100, grade: 20 },
  latest: { keptScore: 0, keptPercent: 0, grade: 0 },
  first: { keptScore: 1, keptPercent: 25, grade: 5 },
  average: { keptScore: 1.67, keptPercent: 41.67, grade: 8.33 },
} as const;

describe("the kept score on attempts", () => {
  for (const [policy, expected] of Object.entries(EXPECTED)) {
    it(`keeps the ${policy} attempt's score on every attempt of the user, as the gradebook does`, async () => {
      const lesson = await makeQuizLesson(h.database.db, a.id);
      const bank = (await call("POST", "/question-banks", { title: "Bank" })).json();
      const items = [1, 2, 3, 4].map((n) => ({ type: "true_false", stem: `${n}`, options }));
      const ids = (await call("POST", `/question-banks/${bank.id}/questions`, { items }))
        .json()
        .data.map((q: { id: string }) => q.id) as string[];
      const quiz = (
        await call("POST", "/quizzes", {
          lessonId: lesson.lessonId,
          sections: [{ source: { type: "fixed", questionIds: ids } }],
          scoringPolicy: policy,
        })
      ).json();
      const item = await call("POST", `/courses/${lesson.courseId}/grade-items`, {
        title: "Quiz",
        maxPoints: 20,
        sourceType: "quiz",
        sourceId: quiz.id,
      });
      expect(item.statusCode, item.body).toBe(201);
      const [student, other] = [await makeUser(h, a, "student"), await makeUser(h, a, "student")];
      for (const u of [student, other]) await enroll(h.database.db, a.id, u.id, lesson.courseId);

      // Open, nothing graded yet: nothing kept.
      const open = await call("POST", `/quizzes/${quiz.id}/attempts`, { userId: student.id });
      expect(open.json()).toMatchObject({ keptScore: null, keptPercent: null });
      await call("POST", `/quiz-attempts/${open.json().id}/submit`, {
        answers: ids.map((questionId, i) => ({ questionId, response: i < (RIGHT[0] as number) ? "t" : "f" })),
      });
      let last: { id: string } = open.json();
      for (const right of RIGHT.slice(1)) {
        const res = await call("POST", `/quizzes/${quiz.id}/attempts`, {
          userId: student.id,
          answers: ids.map((questionId, i) => ({ questionId, response: i < right ? "t" : "f" })),
        });
        expect(res.statusCode, res.body).toBe(201);
        last = res.json();
      }
      expect(last).toMatchObject({ keptScore: expected.keptScore, keptPercent: expected.keptPercent });
      // Another user's attempt keeps their own.
      await call("POST", `/quizzes/${quiz.id}/attempts`, {
        userId: other.id,
        answers: ids.map((questionId) => ({ questionId, response: "t" })),
      });

      const list = await call("GET", `/quizzes/${quiz.id}/attempts?userId=${student.id}`);
      expect(list.json().data.map((x: { percent: number }) => x.percent)).toEqual([0, 100, 25]);
      for (const attempt of list.json().data) {
        expect(attempt).toMatchObject({ keptScore: expected.keptScore, keptPercent: expected.keptPercent });
      }
      const all = (await call("GET", `/quizzes/${quiz.id}/attempts`)).json().data;
      const others = all.filter((x: { userId: string }) => x.userId === other.id);
      expect(others).toMatchObject([{ keptScore: 4, keptPercent: 100 }]);
      expect((await call("GET", `/quiz-attempts/${last.id}`)).json()).toMatchObject({
        keptPercent: expected.keptPercent,
      });

      // The gradebook received the same percent, and the last quiz_submitted carried it.
      const [grade] = await h.database.db
        .select()
        .from(grades)
        .where(and(eq(grades.gradeItemId, item.json().id), eq(grades.userId, student.id)));
      expect(grade?.score).toBe(expected.grade);
      const [event] = (
        await h.database.db
          .select()
          .from(platformEvents)
          .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, "quiz_submitted")))
      ).filter((e) => (e.data as { attemptId: string }).attemptId === last.id);
      expect(event?.data).toMatchObject({
        attempt: {
          keptPercent: expected.keptPercent,
        },
      });
    });
  }

  it("keeps, for `highest`, the first attempt with the best percent, whatever its points", () => {
    const results = [
      { score: 2, percent: 50 },
      { score: 4, percent: 50 },
    ];
    expect(keptOf("highest", results)).toEqual({ keptScore: 2, keptPercent: 50 });
    expect(keptOf("average", [])).toEqual({ keptScore: null, keptPercent: null });
  });
});
