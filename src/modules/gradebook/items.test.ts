import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { courseGrades, gradeItems } from "../../db/schema/index.js";
import { callerFor, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeKey, makeUser, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { enrollAs, publishedCourse } from "./test-fixtures.js";

const { h, tenants } = useApi({ env: MANY_STUDENTS, tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
const call = callerFor(h, () => ({ tenant: a, credential: keyA }));

beforeAll(async () => {
  keyA = await makeKey(h, a, ["grades:read", "grades:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["grades:read", "grades:write"], UNLIMITED_KEY);
});

describe("grade categories and items", () => {
  it("creates, lists, updates and deletes categories and items, with exact totals", async () => {
    const course = await publishedCourse(h.database.db, a.id);
    const cat = await call("POST", `/courses/${course}/grade-categories`, {
      name: "Provas",
      weight: 60,
      dropLowest: 1,
    });
    expect(cat.statusCode, cat.body).toBe(201);
    expect(cat.json()).toMatchObject({
      courseId: course,
      name: "Provas",
      weight: 60,
      dropLowest: 1,
      position: 1,
    });
    const second = await call("POST", `/courses/${course}/grade-categories`, { name: "Trabalhos" });
    expect(second.json()).toMatchObject({ weight: null, dropLowest: 0, position: 2 });
    const cats = await call("GET", `/courses/${course}/grade-categories`);
    expect(cats.json().data.map((c: { name: string }) => c.name)).toEqual(["Provas", "Trabalhos"]);
    expect(cats.json().pagination).toMatchObject({ total: 2, totalRelation: "eq" });

    const item = await call("POST", `/courses/${course}/grade-items`, {
      title: "Prova 1",
      maxPoints: 10,
      categoryId: cat.json().id,
      postPolicy: "manual",
    });
    expect(item.statusCode, item.body).toBe(201);
    expect(item.json()).toMatchObject({
      courseId: course,
      categoryId: cat.json().id,
      title: "Prova 1",
      sourceType: "manual",
      sourceId: null,
      maxPoints: 10,
      passPercent: null,
      dueAt: null,
      position: 1,
      visibleToStudents: true,
      postPolicy: "manual",
      excludedFromFinal: false,
      gradeCount: 0,
    });
    const got = await call("GET", `/grade-items/${item.json().id}`);
    expect(got.json()).toEqual(item.json());
    const patched = await call("PATCH", `/grade-items/${item.json().id}`, {
      maxPoints: 20,
      dueAt: "2026-05-01T12:00:00Z",
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ maxPoints: 20, dueAt: "2026-05-01T12:00:00.000Z" });
    const list = await call("GET", `/courses/${course}/grade-items`);
    expect(list.json().pagination).toMatchObject({ total: 1, totalRelation: "eq" });

    // A category of another course is refused by name.
    const other = await publishedCourse(h.database.db, a.id);
    const foreignCat = await call("POST", `/courses/${other}/grade-categories`, { name: "Outra" });
    const refused = await call("PATCH", `/grade-items/${item.json().id}`, {
      categoryId: foreignCat.json().id,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details[0].field).toBe("categoryId");

    // Deleting the category leaves its item, in no category.
    expect((await call("DELETE", `/grade-categories/${cat.json().id}`)).statusCode).toBe(204);
    expect((await call("GET", `/grade-items/${item.json().id}`)).json().categoryId).toBeNull();
    expect((await call("PATCH", `/grade-categories/${second.json().id}`, { weight: 25 })).json().weight).toBe(
      25,
    );
    expect((await call("DELETE", `/grade-items/${item.json().id}`)).statusCode).toBe(204);
    expect((await call("GET", `/grade-items/${item.json().id}`)).statusCode).toBe(404);
  });

  it("refuses a second item for one source (409) and deletes an item with grades only when forced", async () => {
    const course = await publishedCourse(h.database.db, a.id);
    const source = randomUUID();
    const first = await call("POST", `/courses/${course}/grade-items`, {
      title: "Q",
      maxPoints: 5,
      sourceType: "quiz",
      sourceId: source,
    });
    expect(first.statusCode).toBe(201);
    const again = await call("POST", `/courses/${course}/grade-items`, {
      title: "Q2",
      maxPoints: 5,
      sourceType: "quiz",
      sourceId: source,
    });
    expect(again.statusCode).toBe(409);
    const student = await makeUser(h, a, "student");
    await enrollAs(h.database.db, a.id, student.id, course);
    const put = await call("PUT", `/grade-items/${first.json().id}/grades/${student.id}`, { score: 4 });
    expect(put.statusCode, put.body).toBe(201);
    const refused = await call("DELETE", `/grade-items/${first.json().id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe("conflict");
    const forced = await call("DELETE", `/grade-items/${first.json().id}?force=true`);
    expect(forced.statusCode).toBe(204);
    const left = await h.database.db.select().from(gradeItems).where(eq(gradeItems.courseId, course));
    expect(left).toEqual([]);
    // The course grade follows: nothing counts any more.
    const [cg] = await h.database.db
      .select()
      .from(courseGrades)
      .where(and(eq(courseGrades.courseId, course), eq(courseGrades.userId, student.id)));
    expect(cg).toMatchObject({ currentScore: null, finalScore: null, unpostedCurrentScore: null });
  });

  it("answers 404 for another tenant's course, category and item, on every path, and changes nothing", async () => {
    const course = await publishedCourse(h.database.db, b.id);
    const cat = (await call("POST", `/courses/${course}/grade-categories`, { name: "B" }, keyB, b)).json();
    const item = (
      await call("POST", `/courses/${course}/grade-items`, { title: "B", maxPoints: 1 }, keyB, b)
    ).json();
    const requests: [string, string, object?][] = [
      ["GET", `/courses/${course}/grade-categories`],
      ["POST", `/courses/${course}/grade-categories`, { name: "x" }],
      ["PATCH", `/grade-categories/${cat.id}`, { name: "x" }],
      ["DELETE", `/grade-categories/${cat.id}`],
      ["GET", `/courses/${course}/grade-items`],
      ["POST", `/courses/${course}/grade-items`, { title: "x", maxPoints: 1 }],
      ["GET", `/grade-items/${item.id}`],
      ["PATCH", `/grade-items/${item.id}`, { title: "x" }],
      ["DELETE", `/grade-items/${item.id}?force=true`],
    ];
    for (const [method, url, body] of requests) {
      const res = await call(method as "GET", url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call("GET", `/grade-items/${item.id}`, undefined, keyB, b)).json()).toEqual(item);
    // A category id of another tenant in a body is unknown (400 naming it).
    const mine = await publishedCourse(h.database.db, a.id);
    const res = await call("POST", `/courses/${mine}/grade-items`, {
      title: "x",
      maxPoints: 1,
      categoryId: cat.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe("categoryId");
  });

  it("lets a teacher act on the courses it teaches only (403 elsewhere); a student sees visible items", async () => {
    const taught = await publishedCourse(h.database.db, a.id);
    const other = await publishedCourse(h.database.db, a.id);
    const teacher = await signedInUser(h, a, "teacher");
    await enrollAs(h.database.db, a.id, teacher.id, taught, "teacher");
    const mine = await call(
      "POST",
      `/courses/${taught}/grade-items`,
      { title: "T", maxPoints: 1 },
      teacher.cookie,
    );
    expect(mine.statusCode, mine.body).toBe(201);
    const theirs = await call(
      "POST",
      `/courses/${other}/grade-items`,
      { title: "T", maxPoints: 1 },
      teacher.cookie,
    );
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json().error).toBe("forbidden");
    const otherItem = (
      await call("POST", `/courses/${other}/grade-items`, { title: "O", maxPoints: 1 })
    ).json();
    expect((await call("GET", `/grade-items/${otherItem.id}`, undefined, teacher.cookie)).statusCode).toBe(
      403,
    );
    expect((await call("GET", `/courses/${other}/grade-items`, undefined, teacher.cookie)).statusCode).toBe(
      403,
    );

    const student = await signedInUser(h, a, "student");
    await enrollAs(h.database.db, a.id, student.id, taught);
    await call("POST", `/courses/${taught}/grade-items`, {
      title: "Hidden",
      maxPoints: 1,
      visibleToStudents: false,
    });
    const seen = await call("GET", `/courses/${taught}/grade-items`, undefined, student.cookie);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data.map((i: { title: string }) => i.title)).toEqual(["T"]);
    expect((await call("GET", `/courses/${other}/grade-items`, undefined, student.cookie)).statusCode).toBe(
      404,
    );
    expect(
      (await call("POST", `/courses/${taught}/grade-items`, { title: "S", maxPoints: 1 }, student.cookie))
        .statusCode,
    ).toBe(403);
  });
});
