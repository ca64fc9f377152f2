import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { questionBanks, questions } from "../../db/schema/index.js";
import { AS_WRITTEN, useApi } from "../../test-support/api.js";
import { adminCookie, makeKey, makeTenant, roleCookie } from "../../test-support/harness.js";
import { makeQuizLesson } from "../quizzes/test-fixtures.js";

const { h, tenants, call } = useApi({ tenants: 2, call: AS_WRITTEN });
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["question-banks:read", "question-banks:write", "courses:write"]);
  keyB = await makeKey(h, b, ["question-banks:read", "question-banks:write"]);
});

const choice = {
  type: "single_choice",
  stem: "2 + 2?",
  options: [
    { id: "a", text: "3", isCorrect: false },
    { id: "b", text: "4", isCorrect: true },
  ],
};

describe("question banks", () => {
  it("creates, reads, updates and deletes a bank", async () => {
    const { courseId } = await makeQuizLesson(h.database.db, a.id);
    const created = await call(a, keyA, "POST", "/api/institution/question-banks", {
      title: "Álgebra",
      description: "Vetores",
      courseId,
    });
    expect(created.statusCode).toBe(201);
    const bank = created.json();
    expect(Object.keys(bank).sort()).toEqual([
      "courseId",
      "createdAt",
      "description",
      "id",
      "questionCount",
      "status",
      "title",
      "updatedAt",
    ]);
    expect(bank).toMatchObject({ title: "Álgebra", courseId, status: "active", questionCount: 0 });

    await call(a, keyA, "POST", `/api/institution/question-banks/${bank.id}/questions`, choice);
    const got = await call(a, keyA, "GET", `/api/institution/question-banks/${bank.id}`);
    expect(got.json()).toMatchObject({ id: bank.id, questionCount: 1 });

    const patched = await call(a, keyA, "PATCH", `/api/institution/question-banks/${bank.id}`, {
      status: "archived",
      courseId: null,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ status: "archived", courseId: null, title: "Álgebra" });

    const deleted = await call(a, keyA, "DELETE", `/api/institution/question-banks/${bank.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe("");
    const rows = await h.database.db.select().from(questions).where(eq(questions.bankId, bank.id));
    expect(rows).toEqual([]);
    expect((await call(a, keyA, "GET", `/api/institution/question-banks/${bank.id}`)).statusCode).toBe(404);
  });

  it("refuses an unknown course, unknown fields and empty changes", async () => {
    const unknown = await call(a, keyA, "POST", "/api/institution/question-banks", {
      title: "X",
      courseId: "00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([{ field: "courseId", message: expect.any(String) }]);
    const extra = await call(a, keyA, "POST", "/api/institution/question-banks", {
      title: "X",
      tenantId: a.id,
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().details[0].field).toBe("tenantId");
    const none = await call(a, keyA, "POST", "/api/institution/question-banks", {
      title: "Y",
    });
    const empty = await call(a, keyA, "PATCH", `/api/institution/question-banks/${none.json().id}`, {});
    expect(empty.statusCode).toBe(400);
    const bad = await call(a, keyA, "GET", "/api/institution/question-banks/not-a-uuid");
    expect(bad.statusCode).toBe(404);
  });

  it("lists with filters, sorting and exact totals", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const { courseId } = await makeQuizLesson(h.database.db, t.id);
    for (const [title, status] of [
      ["Cálculo I", "active"],
      ["Álgebra", "archived"],
      ["Bioquímica", "active"],
    ] as const) {
      const res = await call(t, key, "POST", "/api/institution/question-banks", {
        title,
        status,
        ...(title === "Bioquímica" ? { courseId } : {}),
      });
      expect(res.statusCode).toBe(201);
    }
    const all = await call(t, key, "GET", "/api/institution/question-banks?perPage=2");
    expect(all.json().data.map((x: { title: string }) => x.title)).toEqual(["Bioquímica", "Álgebra"]);
    expect(all.json().pagination).toEqual({
      page: 1,
      perPage: 2,
      total: 3,
      totalPages: 2,
      totalRelation: "eq",
    });
    const byTitle = await call(t, key, "GET", "/api/institution/question-banks?sort=title");
    expect(byTitle.json().data.map((x: { title: string }) => x.title)).toEqual([
      "Álgebra",
      "Bioquímica",
      "Cálculo I",
    ]);
    const active = await call(t, key, "GET", "/api/institution/question-banks?status=active");
    expect(active.json().pagination.total).toBe(2);
    const ofCourse = await call(t, key, "GET", `/api/institution/question-banks?courseId=${courseId}`);
    expect(ofCourse.json().data.map((x: { title: string }) => x.title)).toEqual(["Bioquímica"]);
    expect(ofCourse.json().pagination.total).toBe(1);
    const search = await call(t, key, "GET", "/api/institution/question-banks?search=calculo");
    expect(search.json().data.map((x: { title: string }) => x.title)).toEqual(["Cálculo I"]);
    expect(search.json().pagination.total).toBe(1);
    const badSort = await call(t, key, "GET", "/api/institution/question-banks?sort=id");
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().details[0].field).toBe("sort");
  });

  it("keeps tenants apart", async () => {
    const mine = (await call(a, keyA, "POST", "/api/institution/question-banks", { title: "Mine" })).json();
    for (const method of ["GET", "PATCH", "DELETE"] as const) {
      const res = await call(
        b,
        keyB,
        method,
        `/api/institution/question-banks/${mine.id}`,
        method === "PATCH" ? { title: "Taken" } : undefined,
      );
      expect(res.statusCode, method).toBe(404);
    }
    const questionsOfA = await call(
      b,
      keyB,
      "POST",
      `/api/institution/question-banks/${mine.id}/questions`,
      choice,
    );
    expect(questionsOfA.statusCode).toBe(404);
    const listB = await call(b, keyB, "GET", "/api/institution/question-banks");
    expect(listB.json().data.map((x: { id: string }) => x.id)).not.toContain(mine.id);
    const [row] = await h.database.db
      .select()
      .from(questionBanks)
      .where(and(eq(questionBanks.tenantId, a.id), eq(questionBanks.id, mine.id)));
    expect(row?.title).toBe("Mine");
  });

  it("admits teachers and administrators, not students", async () => {
    const teacher = await roleCookie(h, a, "teacher");
    const student = await roleCookie(h, a, "student");
    const admin = await adminCookie(h, a);
    for (const [cookie, status] of [
      [teacher, 200],
      [admin, 200],
      [student, 403],
    ] as const) {
      const res = await h.inject({
        method: "GET",
        url: "/api/institution/question-banks",
        headers: { host: a.host, cookie },
      });
      expect(res.statusCode).toBe(status);
    }
  });
});
