import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { questions, quizzes } from "../../db/schema/index.js";
import { AS_WRITTEN, callApi, fieldsOf, type Method, useApi } from "../../test-support/api.js";
import {
  bearer,
  json,
  makeKey,
  makeTenant,
  makeUser,
  roleCookie,
  sessionCookie,
  TEST_PASSWORD,
  type TestTenant,
  UNLIMITED_KEY,
} from "../../test-support/harness.js";
import { enroll, makeQuizLesson } from "./test-fixtures.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  const scopes = ["courses:read", "courses:write", "question-banks:read", "question-banks:write"];
  // This file sends more than a standard key's 100 requests a minute.
  keyA = await makeKey(h, a, scopes, UNLIMITED_KEY);
  keyB = await makeKey(h, b, scopes);
});

/** Whole paths, no Accept-Language unless a test adds one in `headers`. */
const call = (
  tenant: TestTenant,
  key: string,
  method: Method,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) => callApi(h, tenant, { ...bearer(key), ...headers }, method, url, payload, AS_WRITTEN);

const opts = (correct: string) => ["a", "b", "c"].map((id) => ({ id, text: id, isCorrect: id === correct }));

async function bankWith(tenant: TestTenant, key: string, points: number[]) {
  const bank = (await call(tenant, key, "POST", "/api/institution/question-banks", { title: "Bank" })).json()
    .id;
  const created = await call(tenant, key, "POST", `/api/institution/question-banks/${bank}/questions`, {
    items: points.map((p, i) => ({ type: "single_choice", stem: `Q${i}`, options: opts("a"), points: p })),
  });
  return {
    bankId: bank as string,
    questionIds: created.json().data.map((q: { id: string }) => q.id) as string[],
  };
}

describe("quizzes", () => {
  it("creates the quiz of a quiz lesson, with its course, defaults and totals", async () => {
    const lesson = await makeQuizLesson(h.database.db, a.id);
    const fixed = await bankWith(a, keyA, [2, 3]);
    const random = await bankWith(a, keyA, [1, 1, 1, 1]);
    const res = await call(a, keyA, "POST", "/api/institution/quizzes", {
      lessonId: lesson.lessonId,
      sections: [
        { id: "fixed", title: "Fixas", source: { type: "fixed", questionIds: fixed.questionIds } },
        { source: { type: "random", bankId: random.bankId, pickCount: 3 }, pointsPerQuestion: 2 },
        { source: { type: "random", bankId: random.bankId, pickCount: 1 } },
      ],
    });
    expect(res.statusCode).toBe(201);
    const quiz = res.json();
    expect(Object.keys(quiz).sort()).toEqual(
      [
        "allowedAttempts",
        "courseId",
        "createdAt",
        "id",
        "instructions",
        "lessonId",
        "passPercent",
        "pointsPossible",
        "questionCount",
        "scoringPolicy",
        "sections",
        "showCorrectAnswers",
        "shuffleQuestions",
        "timeLimitSeconds",
        "updatedAt",
      ].sort(),
    );
    expect(quiz).toMatchObject({
      lessonId: lesson.lessonId,
      courseId: lesson.courseId,
      instructions: null,
      timeLimitSeconds: null,
      allowedAttempts: null,
      scoringPolicy: "highest",
      passPercent: 60,
      shuffleQuestions: false,
      showCorrectAnswers: false,
      pointsPossible: 2 + 3 + 3 * 2 + 1,
      questionCount: 6,
    });
    expect(quiz.sections[0]).toEqual({
      id: "fixed",
      title: "Fixas",
      source: { type: "fixed", questionIds: fixed.questionIds },
      pointsPerQuestion: null,
    });
    expect(quiz.sections[1]).toMatchObject({ title: null, pointsPerQuestion: 2, id: expect.any(String) });
    expect(quiz.sections[2].pointsPerQuestion).toBe(1);

    const got = await call(a, keyA, "GET", `/api/institution/quizzes/${quiz.id}`);
    expect(got.json()).toEqual(quiz);

    // Retiring a fixed question takes it out of what the next attempt draws and is worth.
    await call(a, keyA, "PATCH", `/api/institution/questions/${fixed.questionIds[1]}`, { status: "retired" });
    const after = (await call(a, keyA, "GET", `/api/institution/quizzes/${quiz.id}`)).json();
    expect(after).toMatchObject({ pointsPossible: 2 + 6 + 1, questionCount: 5 });

    const again = await call(a, keyA, "POST", "/api/institution/quizzes", {
      lessonId: lesson.lessonId,
      sections: [{ source: { type: "fixed", questionIds: fixed.questionIds } }],
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("conflict");
  });

  it("refuses lessons that are not quizzes and sections that do not hold together, naming the field", async () => {
    const { questionIds, bankId } = await bankWith(a, keyA, [1, 1]);
    const foreign = await bankWith(b, keyB, [1]);
    const video = await makeQuizLesson(h.database.db, a.id, "video");
    const lesson = await makeQuizLesson(h.database.db, a.id);
    const unknown = "00000000-0000-4000-8000-000000000000";
    const fixed = { source: { type: "fixed", questionIds } };
    const cases: [unknown, string[]][] = [
      [{ lessonId: video.lessonId, sections: [fixed] }, ["lessonId"]],
      [{ lessonId: unknown, sections: [fixed] }, ["lessonId"]],
      [{ lessonId: lesson.lessonId, sections: [] }, ["sections"]],
      [
        {
          lessonId: lesson.lessonId,
          sections: [{ source: { type: "fixed", questionIds: [questionIds[0], unknown] } }],
        },
        ["sections[0].source.questionIds[1]"],
      ],
      [
        {
          lessonId: lesson.lessonId,
          sections: [{ source: { type: "fixed", questionIds: foreign.questionIds } }],
        },
        ["sections[0].source.questionIds[0]"],
      ],
      [
        {
          lessonId: lesson.lessonId,
          sections: [{ source: { type: "random", bankId: foreign.bankId, pickCount: 1 } }],
        },
        ["sections[0].source.bankId"],
      ],
      [
        { lessonId: lesson.lessonId, sections: [{ source: { type: "fixed", questionIds, bankId } }] },
        ["sections[0].source.bankId"],
      ],
      [
        { lessonId: lesson.lessonId, sections: [{ source: { type: "random", bankId } }] },
        ["sections[0].source.pickCount"],
      ],
      [
        { lessonId: lesson.lessonId, sections: [{ source: { type: "random", bankId, pickCount: 201 } }] },
        ["sections[0].source.pickCount"],
      ],
      [
        { lessonId: lesson.lessonId, sections: [fixed, fixed] },
        ["sections[1].source.questionIds[0]", "sections[1].source.questionIds[1]"],
      ],
      [
        {
          lessonId: lesson.lessonId,
          sections: [
            { id: "s", source: { type: "random", bankId, pickCount: 1 } },
            { id: "s", source: { type: "random", bankId, pickCount: 1 } },
          ],
        },
        ["sections[1].id"],
      ],
      [{ lessonId: lesson.lessonId, sections: [fixed], timeLimitSeconds: 59 }, ["timeLimitSeconds"]],
      [{ lessonId: lesson.lessonId, sections: [fixed], allowedAttempts: 0 }, ["allowedAttempts"]],
      [{ lessonId: lesson.lessonId, sections: [fixed], passPercent: 101 }, ["passPercent"]],
      [{ lessonId: lesson.lessonId, sections: [fixed], scoringPolicy: "best" }, ["scoringPolicy"]],
      [{ lessonId: lesson.lessonId, sections: [fixed], courseId: lesson.courseId }, ["courseId"]],
    ];
    for (const [body, fields] of cases) {
      const res = await call(a, keyA, "POST", "/api/institution/quizzes", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(res), JSON.stringify(body)).toEqual(fields);
    }
    const rows = await h.database.db.select().from(quizzes).where(eq(quizzes.tenantId, a.id));
    expect(rows.filter((r) => r.lessonId === lesson.lessonId)).toEqual([]);

    const localised = await call(
      a,
      keyA,
      "POST",
      "/api/institution/quizzes",
      { lessonId: video.lessonId, sections: [fixed] },
      { "accept-language": "pt-BR" },
    );
    expect(localised.json().details).toEqual([
      { field: "lessonId", message: "Deve ser uma aula do tipo quiz." },
    ]);
  });

  it("lists by course and lesson, updates settings and sections, and deletes", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const { questionIds } = await bankWith(t, key, [1, 4]);
    const lessons = [await makeQuizLesson(h.database.db, t.id), await makeQuizLesson(h.database.db, t.id)];
    const ids: string[] = [];
    for (const lesson of lessons) {
      const res = await call(t, key, "POST", "/api/institution/quizzes", {
        lessonId: lesson.lessonId,
        sections: [{ source: { type: "fixed", questionIds } }],
      });
      ids.push(res.json().id);
    }
    const all = (await call(t, key, "GET", "/api/institution/quizzes")).json();
    expect(all.data.map((q: { id: string }) => q.id)).toEqual([ids[1], ids[0]]);
    expect(all.pagination.total).toBe(2);
    const oldest = (await call(t, key, "GET", "/api/institution/quizzes?sort=createdAt&perPage=1")).json();
    expect(oldest.data.map((q: { id: string }) => q.id)).toEqual([ids[0]]);
    expect(oldest.pagination).toEqual({ page: 1, perPage: 1, total: 2, totalPages: 2, totalRelation: "eq" });
    const byCourse = (
      await call(t, key, "GET", `/api/institution/quizzes?courseId=${lessons[0]?.courseId}`)
    ).json();
    expect(byCourse.data.map((q: { id: string }) => q.id)).toEqual([ids[0]]);
    expect(byCourse.pagination.total).toBe(1);
    const byLesson = (
      await call(t, key, "GET", `/api/institution/quizzes?lessonId=${lessons[1]?.lessonId}`)
    ).json();
    expect(byLesson.data.map((q: { id: string }) => q.id)).toEqual([ids[1]]);

    const url = `/api/institution/quizzes/${ids[0]}`;
    const patched = await call(t, key, "PATCH", url, {
      allowedAttempts: 2,
      passPercent: 75,
      instructions: "Sem consulta",
      sections: [{ source: { type: "fixed", questionIds: [questionIds[1]] }, pointsPerQuestion: 10 }],
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      allowedAttempts: 2,
      passPercent: 75,
      instructions: "Sem consulta",
      pointsPossible: 10,
      questionCount: 1,
    });
    const lessonChange = await call(t, key, "PATCH", url, { lessonId: lessons[1]?.lessonId });
    expect(fieldsOf(lessonChange)).toEqual(["lessonId"]);
    const deleted = await call(t, key, "DELETE", url);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe("");
    expect((await call(t, key, "GET", url)).statusCode).toBe(404);
    expect((await call(t, key, "GET", "/api/institution/quizzes")).json().pagination.total).toBe(1);
    // The course's total is its trigger-kept counter, which the delete took down.
    const emptied = await call(t, key, "GET", `/api/institution/quizzes?courseId=${lessons[0]?.courseId}`);
    expect(emptied.json().pagination).toMatchObject({ total: 0, totalRelation: "eq" });
  });

  it("keeps a bank and its questions while a quiz uses them", async () => {
    const fixed = await bankWith(a, keyA, [1, 1]);
    const random = await bankWith(a, keyA, [1]);
    const lesson = await makeQuizLesson(h.database.db, a.id);
    const quiz = (
      await call(a, keyA, "POST", "/api/institution/quizzes", {
        lessonId: lesson.lessonId,
        sections: [
          { source: { type: "fixed", questionIds: [fixed.questionIds[0]] } },
          { source: { type: "random", bankId: random.bankId, pickCount: 1 } },
        ],
      })
    ).json();
    for (const bankId of [fixed.bankId, random.bankId]) {
      const res = await call(a, keyA, "DELETE", `/api/institution/question-banks/${bankId}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe("conflict");
    }
    // A question a quiz names is retired, not deleted; one nothing names is deleted.
    expect(
      (await call(a, keyA, "DELETE", `/api/institution/questions/${fixed.questionIds[0]}`)).statusCode,
    ).toBe(204);
    expect(
      (await call(a, keyA, "DELETE", `/api/institution/questions/${fixed.questionIds[1]}`)).statusCode,
    ).toBe(204);
    const rows = await h.database.db
      .select({ id: questions.id, status: questions.status })
      .from(questions)
      .where(and(eq(questions.tenantId, a.id), eq(questions.bankId, fixed.bankId)));
    expect(rows).toEqual([{ id: fixed.questionIds[0], status: "retired" }]);

    await call(a, keyA, "PATCH", `/api/institution/quizzes/${quiz.id}`, {
      sections: [{ source: { type: "random", bankId: random.bankId, pickCount: 1 } }],
    });
    expect(
      (await call(a, keyA, "DELETE", `/api/institution/question-banks/${fixed.bankId}`)).statusCode,
    ).toBe(204);
  });

  it("keeps tenants apart and lets students read but not write", async () => {
    const { questionIds } = await bankWith(a, keyA, [1]);
    const lesson = await makeQuizLesson(h.database.db, a.id);
    const quiz = (
      await call(a, keyA, "POST", "/api/institution/quizzes", {
        lessonId: lesson.lessonId,
        sections: [{ source: { type: "fixed", questionIds } }],
      })
    ).json();
    const url = `/api/institution/quizzes/${quiz.id}`;
    for (const method of ["GET", "PATCH", "DELETE"] as const) {
      const res = await call(b, keyB, method, url, method === "PATCH" ? { passPercent: 1 } : undefined);
      expect(res.statusCode, method).toBe(404);
    }
    expect((await call(a, keyA, "GET", url)).json().passPercent).toBe(60);
    const listB = (await call(b, keyB, "GET", "/api/institution/quizzes")).json();
    expect(listB.data.map((q: { id: string }) => q.id)).not.toContain(quiz.id);
    // B cannot attach A's lesson to a quiz of its own.
    const stolen = await call(b, keyB, "POST", "/api/institution/quizzes", {
      lessonId: lesson.lessonId,
      sections: [{ source: { type: "random", bankId: (await bankWith(b, keyB, [1])).bankId, pickCount: 1 } }],
    });
    expect(stolen.statusCode).toBe(400);

    const student = await roleCookie(h, a, "student");
    // A student reads the quizzes of the courses it is enrolled in; to others this one does not exist.
    const unenrolled = await h.inject({ method: "GET", url, headers: { host: a.host, cookie: student } });
    expect(unenrolled.statusCode).toBe(404);
    const learner = await makeUser(h, a, "student", TEST_PASSWORD);
    await enroll(h.database.db, a.id, learner.id, lesson.courseId);
    const cookie = await sessionCookie(h, a, learner.email, TEST_PASSWORD);
    const read = await h.inject({ method: "GET", url, headers: { host: a.host, cookie } });
    expect(read.statusCode).toBe(200);
    const write = await h.inject({
      method: "PATCH",
      url,
      headers: { host: a.host, cookie: student, ...json },
      payload: { passPercent: 1 },
    });
    expect(write.statusCode).toBe(403);
  });
});
