import { beforeAll, describe, expect, it } from "vitest";
import { callerFor, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { enrollAs, publishedCourse } from "./test-fixtures.js";

const { h, tenants } = useApi({ env: MANY_STUDENTS, tenants: 1 });
const [a] = tenants;
let key: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));

beforeAll(async () => {
  key = await makeKey(h, a, ["grades:read", "grades:write"], UNLIMITED_KEY);
});

describe("the stored course grade", () => {
  it("follows compute.ts's hand computation through the API, and moves with the course's structure", async () => {
    const course = await publishedCourse(h.database.db, a.id);
    const student = await signedInUser(h, a, "student");
    await enrollAs(h.database.db, a.id, student.id, course);
    const category = async (body: object) =>
      (await call("POST", `/courses/${course}/grade-categories`, body)).json().id as string;
    const exams = await category({ name: "Exams", weight: 60, dropLowest: 1 });
    const hw = await category({ name: "Homework", weight: 40 });
    const item = async (title: string, maxPoints: number, extra: object = {}) => {
      const res = await call("POST", `/courses/${course}/grade-items`, { title, maxPoints, ...extra });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const e1 = await item("E1", 100, { categoryId: exams, postPolicy: "manual" });
    const e2 = await item("E2", 100, { categoryId: exams });
    const e3 = await item("E3", 50, { categoryId: exams });
    const h1 = await item("H1", 10, { categoryId: hw });
    const h2 = await item("H2", 10, { categoryId: hw });
    await item("H3", 20, { categoryId: hw });
    const x = await item("X", 10, { categoryId: hw, excludedFromFinal: true });
    const u = await item("U", 10);
    const res = await call("POST", `/courses/${course}/grades/bulk`, {
      items: [
        { gradeItemId: e1, userId: student.id, score: 80 },
        { gradeItemId: e2, userId: student.id, score: 50 },
        { gradeItemId: e3, userId: student.id, score: 45, overrideScore: 35 },
        { gradeItemId: h1, userId: student.id, score: 9 },
        { gradeItemId: h2, userId: student.id, score: 0, status: "excused" },
        { gradeItemId: x, userId: student.id, score: 0 },
        { gradeItemId: u, userId: student.id, score: 10 },
      ],
    });
    expect(res.json().summary.created).toBe(7);
    // The numbers worked out by hand in compute.test.ts (E1 is hidden: its item posts by hand).
    const staff = await call("GET", `/courses/${course}/gradebook`);
    expect(staff.json().data[0].courseGrade).toEqual({
      currentScore: 78,
      finalScore: 46,
      unpostedCurrentScore: 82,
      unpostedFinalScore: 58,
      currentLetter: "C",
      finalLetter: "F",
      unpostedCurrentLetter: "B",
      unpostedFinalLetter: "F",
    });
    const own = await call("GET", `/courses/${course}/gradebook`, undefined, student.cookie);
    expect(own.json().data[0].courseGrade).toMatchObject({ currentScore: 78, unpostedCurrentScore: null });
    expect(Object.keys(own.json().data[0].grades)).not.toContain(e1);

    // Posting E1 makes what the student sees what staff see.
    await call("POST", `/courses/${course}/grades/post`, { gradeItemIds: [e1] });
    const posted = await call("GET", `/courses/${course}/gradebook`);
    expect(posted.json().data[0].courseGrade).toMatchObject({ currentScore: 82, finalScore: 58 });
    // Without weights the course adds points: (80 + 50 + 35 + 9 + 10) of (100 + 100 + 50 + 10 + 10) counted,
    // exams still dropping their lowest (E2): (80 + 35 + 9 + 10) / (100 + 50 + 10 + 10) = 134 / 170 = 78.82%.
    await call("PATCH", `/grade-categories/${exams}`, { weight: null });
    await call("PATCH", `/grade-categories/${hw}`, { weight: null });
    const points = await call("GET", `/courses/${course}/gradebook`);
    expect(points.json().data[0].courseGrade).toMatchObject({
      currentScore: 78.82,
      unpostedCurrentScore: 78.82,
    });
  });
});
