/** `learning.gradingScale` gives a quiz attempt its `letterGrade`, by the institution's own bands. */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { platformEvents } from "../../db/schema/index.js";
import { AS_WRITTEN, callerFor, useApi } from "../../test-support/api.js";
import { makeKey, makeTenant, makeUser, type TestTenant } from "../../test-support/harness.js";
import { enroll, makeQuizLesson } from "../quizzes/test-fixtures.js";
import { updateSettings } from "./service.js";

const { h } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 100 }) } });

const opts = (correct: string) =>
  ["a", "b"].map((id) => ({ id, text: `Option ${id}`, isCorrect: id === correct }));

/** A quiz of four one-point questions (each answer is worth 25%), and a way to take it with `right` correct. */
async function quizOf(t: TestTenant) {
  const key = await makeKey(h, t, []);
  const call = callerFor(h, () => ({ tenant: t, credential: key }), AS_WRITTEN);
  const lesson = await makeQuizLesson(h.database.db, t.id);
  const bankId = (await call("POST", "/api/institution/question-banks", { title: "Bank" })).json().id;
  const items = [1, 2, 3, 4].map((n) => ({ type: "single_choice", stem: `Q${n}`, options: opts("a") }));
  const created = await call("POST", `/api/institution/question-banks/${bankId}/questions`, { items });
  const ids = created.json().data.map((q: { id: string }) => q.id) as string[];
  const quiz = await call("POST", "/api/institution/quizzes", {
    lessonId: lesson.lessonId,
    sections: [{ source: { type: "fixed", questionIds: ids } }],
  });
  expect(quiz.statusCode, quiz.body).toBe(201);
  const quizId = quiz.json().id as string;
  const take = async (right: number) => {
    const user = await makeUser(h, t, "student");
    await enroll(h.database.db, t.id, user.id, lesson.courseId);
    const answers = ids.map((questionId, i) => ({ questionId, response: i < right ? "a" : "b" }));
    const res = await call("POST", `/api/institution/quizzes/${quizId}/attempts`, {
      userId: user.id,
      answers,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  return { call, take, quizId, lesson };
}

describe("letterGrade on quiz attempts", () => {
  it("follows the default scale, then the institution's own once it is set, on every read", async () => {
    const t = await makeTenant(h);
    const { call, take, quizId } = await quizOf(t);
    const perfect = await take(4);
    expect(perfect).toMatchObject({ status: "graded", percent: 100, letterGrade: "A" });
    expect(await take(3)).toMatchObject({ percent: 75, letterGrade: "C" });
    expect(await take(1)).toMatchObject({ percent: 25, letterGrade: "F" });

    await updateSettings(
      h.database.db,
      t.id,
      { kind: "system" },
      {
        learning: {
          gradingScale: [
            { letter: "Aprovado", minPercent: 75 },
            { letter: "Reprovado", minPercent: 0 },
          ],
        },
      },
    );
    const passed = await take(3);
    expect(passed).toMatchObject({ percent: 75, letterGrade: "Aprovado" });
    // quiz_submitted carries the letter too.
    const [event] = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "quiz_submitted")))
      .then((rows) => rows.filter((r) => (r.data as { attemptId: string }).attemptId === passed.id));
    expect(event?.data).toMatchObject({ percent: 75, letterGrade: "Aprovado" });
    // Stored attempts read with the scale in force now.
    const again = await call("GET", `/api/institution/quiz-attempts/${perfect.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json().letterGrade).toBe("Aprovado");
    const list = (await call("GET", `/api/institution/quizzes/${quizId}/attempts?perPage=100`)).json();
    const letters = list.data.map((a: { percent: number; letterGrade: string }) => [
      a.percent,
      a.letterGrade,
    ]);
    expect(letters.sort()).toEqual([
      [100, "Aprovado"],
      [25, "Reprovado"],
      [75, "Aprovado"],
      [75, "Aprovado"],
    ]);
  });

  it("is null while an attempt is not submitted", async () => {
    const t = await makeTenant(h);
    const { call, quizId, lesson } = await quizOf(t);
    const user = await makeUser(h, t, "student");
    await enroll(h.database.db, t.id, user.id, lesson.courseId);
    const started = await call("POST", `/api/institution/quizzes/${quizId}/attempts`, { userId: user.id });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json()).toMatchObject({ status: "in_progress", letterGrade: null });
  });
});
