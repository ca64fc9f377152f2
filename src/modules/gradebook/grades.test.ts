import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { gradeChanges, grades, platformEvents } from "../../db/schema/index.js";
import { callerFor, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import {
  makeKey,
  makeUser,
  signedInUser,
  type TestTenant,
  UNLIMITED_KEY,
} from "../../test-support/harness.js";
import { enrollAs, publishedCourse } from "./test-fixtures.js";

const { h, tenants } = useApi({ env: MANY_STUDENTS, tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
let adminA: { id: string; cookie: string };
const call = callerFor(h, () => ({ tenant: a, credential: keyA }));

beforeAll(async () => {
  keyA = await makeKey(h, a, ["grades:read", "grades:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["grades:read", "grades:write"], UNLIMITED_KEY);
  adminA = await signedInUser(h, a, "institution_admin");
});

async function eventsOf(t: TestTenant, type: string, userId?: string) {
  const rows = await h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, type)))
    .orderBy(platformEvents.occurredAt);
  return rows
    .map((r) => r.data as Record<string, unknown>)
    .filter((d) => userId === undefined || d.userId === userId);
}

/** A course with a student (signed in) and one item of the given post policy. */
async function setup(postPolicy: "automatic" | "manual" = "automatic", maxPoints = 10) {
  const course = await publishedCourse(h.database.db, a.id);
  const student = await signedInUser(h, a, "student");
  const enrollmentId = await enrollAs(h.database.db, a.id, student.id, course);
  const item = (
    await call("POST", `/courses/${course}/grade-items`, {
      title: "Prova",
      maxPoints,
      postPolicy,
      passPercent: 60,
    })
  ).json();
  return { course, student, enrollmentId, item };
}

describe("grades", () => {
  it("upserts with PUT: 201 then 200, posts on write under the automatic policy, logs and emits", async () => {
    const { course, student, enrollmentId, item } = await setup();
    const created = await call("PUT", `/grade-items/${item.id}/grades/${student.id}`, {
      score: 8,
      feedback: "Bom",
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      gradeItemId: item.id,
      courseId: course,
      userId: student.id,
      enrollmentId,
      score: 8,
      overrideScore: null,
      effectiveScore: 8,
      percent: 80,
      letter: "B",
      status: "graded",
      feedback: "Bom",
      gradedBy: { type: "api_key" },
      source: "import",
    });
    expect(created.json().postedAt).not.toBeNull();
    const posted = await eventsOf(a, "grade_posted", student.id);
    expect(posted).toEqual([
      expect.objectContaining({
        courseId: course,
        gradeItemId: item.id,
        score: 8,
        maxScore: 10,
        percent: 80,
        passed: true,
        previousScore: null,
        gradeId: created.json().id,
      }),
    ]);
    expect(await eventsOf(a, "course_grade_changed", student.id)).toEqual([
      expect.objectContaining({
        courseId: course,
        currentScore: 80,
        finalScore: 80,
        previousCurrentScore: null,
        letter: "B",
      }),
    ]);

    const updated = await call(
      "PUT",
      `/grade-items/${item.id}/grades/${student.id}`,
      { overrideScore: 5 },
      adminA.cookie,
    );
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      score: 8,
      overrideScore: 5,
      effectiveScore: 5,
      percent: 50,
      gradedBy: { type: "user", id: adminA.id },
      source: "manual",
    });
    expect(await eventsOf(a, "grade_updated", student.id)).toEqual([
      expect.objectContaining({ score: 5, previousScore: 8, passed: false }),
    ]);
    const same = await call("PUT", `/grade-items/${item.id}/grades/${student.id}`, { overrideScore: 5 });
    expect(same.statusCode).toBe(200);
    expect(await eventsOf(a, "grade_updated", student.id)).toHaveLength(1);

    const log = await call("GET", `/courses/${course}/grade-changes`);
    expect(log.statusCode).toBe(200);
    expect(log.json().pagination).toMatchObject({ total: 2, totalRelation: "eq" });
    expect(log.json().data).toEqual([
      expect.objectContaining({
        actor: { type: "user", id: adminA.id },
        via: "session",
        scoreBefore: 8,
        scoreAfter: 8,
        overrideBefore: null,
        overrideAfter: 5,
      }),
      expect.objectContaining({
        via: "key",
        actor: expect.objectContaining({ type: "api_key" }),
        scoreBefore: null,
        scoreAfter: 8,
        statusBefore: null,
        statusAfter: "graded",
        postedBefore: null,
      }),
    ]);
    expect(log.json().data[1].postedAfter).not.toBeNull();

    const list = await call("GET", `/grade-items/${item.id}/grades`);
    expect(list.json()).toMatchObject({
      data: [{ id: created.json().id, effectiveScore: 5 }],
      pagination: { total: 1 },
    });
  });

  it("answers 404 to a PUT for a user who is not a current student of the course, 400 above maxPoints × 1.5", async () => {
    const { course, item } = await setup();
    const outsider = await makeUser(h, a, "student");
    expect(
      (await call("PUT", `/grade-items/${item.id}/grades/${outsider.id}`, { score: 1 })).statusCode,
    ).toBe(404);
    const dropped = await makeUser(h, a, "student");
    await enrollAs(h.database.db, a.id, dropped.id, course, "student", "dropped");
    expect((await call("PUT", `/grade-items/${item.id}/grades/${dropped.id}`, { score: 1 })).statusCode).toBe(
      404,
    );
    const student = await makeUser(h, a, "student");
    await enrollAs(h.database.db, a.id, student.id, course);
    const high = await call("PUT", `/grade-items/${item.id}/grades/${student.id}`, { score: 15.01 });
    expect(high.statusCode).toBe(400);
    expect(high.json().details).toEqual([{ field: "score", message: expect.stringContaining("15") }]);
    expect(
      (await call("PUT", `/grade-items/${item.id}/grades/${student.id}`, { score: 15 })).statusCode,
    ).toBe(201);
    expect(
      (await call("PUT", `/grade-items/${item.id}/grades/${randomUUID()}`, { score: 1 })).statusCode,
    ).toBe(404);
  });

  it("keeps grades hidden under the manual policy until posted; the student sees only its posted grades", async () => {
    const { course, student, item } = await setup("manual");
    const other = await signedInUser(h, a, "student");
    await enrollAs(h.database.db, a.id, other.id, course);
    const res = await call("POST", `/courses/${course}/grades/bulk`, {
      items: [
        { gradeItemId: item.id, userId: student.id, score: 9 },
        { gradeItemId: item.id, userId: other.id, score: 3 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((r: { grade: { postedAt: unknown } }) => r.grade.postedAt)).toEqual([
      null,
      null,
    ]);
    expect(await eventsOf(a, "grade_posted", student.id)).toEqual([]);

    const before = await call("GET", `/courses/${course}/gradebook`, undefined, student.cookie);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().data).toHaveLength(1);
    expect(before.json().data[0]).toMatchObject({
      userId: student.id,
      grades: {},
      courseGrade: { currentScore: null, finalScore: 0, unpostedCurrentScore: null },
    });
    const ownGrades = await call("GET", `/grade-items/${item.id}/grades`, undefined, student.cookie);
    expect(ownGrades.json()).toMatchObject({ data: [], pagination: { total: 0 } });

    const post = await call("POST", `/courses/${course}/grades/post`, { gradeItemIds: [item.id] });
    expect(post.statusCode, post.body).toBe(200);
    expect(post.json().posted).toBe(2);
    expect(await eventsOf(a, "grade_posted", student.id)).toEqual([
      expect.objectContaining({ score: 9, percent: 90 }),
    ]);
    // (Writing the hidden grade made the student's visible final 0: the item counts, ungraded.)
    expect(await eventsOf(a, "course_grade_changed", student.id)).toEqual([
      expect.objectContaining({ currentScore: null, finalScore: 0, unpostedCurrentScore: 90 }),
      expect.objectContaining({
        currentScore: 90,
        finalScore: 90,
        previousCurrentScore: null,
        previousFinalScore: 0,
      }),
    ]);
    const after = await call("GET", `/courses/${course}/gradebook`, undefined, student.cookie);
    expect(after.json().data[0]).toMatchObject({
      grades: { [item.id]: { score: 9 } },
      courseGrade: { currentScore: 90, currentLetter: "A" },
    });
    const mine = await call("GET", `/grade-items/${item.id}/grades`, undefined, student.cookie);
    expect(mine.json().data.map((g: { userId: string }) => g.userId)).toEqual([student.id]);
    // Posting again posts nothing; the log has one posting row per grade.
    expect(
      (await call("POST", `/courses/${course}/grades/post`, { gradeItemIds: [item.id] })).json().posted,
    ).toBe(0);
    const changes = await h.database.db.select().from(gradeChanges).where(eq(gradeChanges.courseId, course));
    expect(changes).toHaveLength(4);
    expect(
      (await call("GET", `/courses/${course}/grade-changes`, undefined, student.cookie)).statusCode,
    ).toBe(403);
  });

  it("answers bulk items one by one: created, updated, unchanged and failed with the field named", async () => {
    const { course, student, item } = await setup();
    await call("PUT", `/grade-items/${item.id}/grades/${student.id}`, { score: 5 });
    const second = await makeUser(h, a, "student");
    await enrollAs(h.database.db, a.id, second.id, course);
    const outsider = await makeUser(h, a, "student");
    const foreign = await publishedCourse(h.database.db, b.id);
    const foreignItem = (
      await call("POST", `/courses/${foreign}/grade-items`, { title: "B", maxPoints: 1 }, keyB, b)
    ).json();
    const res = await call("POST", `/courses/${course}/grades/bulk`, {
      items: [
        { gradeItemId: item.id, userId: second.id, score: 7 },
        { gradeItemId: item.id, userId: student.id, score: 6 },
        { gradeItemId: item.id, userId: second.id, score: 1 },
        { gradeItemId: foreignItem.id, userId: student.id, score: 1 },
        { gradeItemId: item.id, userId: outsider.id, score: 1 },
        { gradeItemId: item.id, userId: randomUUID(), status: "excused" },
        { gradeItemId: item.id, userId: student.id, feedback: "only" },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().results as {
      index: number;
      status: string;
      error?: { details: { field: string }[] };
    }[];
    expect(results.map((r) => r.status)).toEqual([
      "created",
      "updated",
      "failed",
      "failed",
      "failed",
      "failed",
      "failed",
    ]);
    expect(results.map((r) => r.error?.details[0]?.field ?? null)).toEqual([
      null,
      null,
      "userId",
      "gradeItemId",
      "userId",
      "userId",
      "userId",
    ]);
    expect(res.json().summary).toEqual({ total: 7, created: 1, updated: 1, unchanged: 0, failed: 5 });
    const stored = await h.database.db.select().from(grades).where(eq(grades.gradeItemId, item.id));
    expect(stored.map((g) => g.score).sort()).toEqual([6, 7]);
    const again = await call("POST", `/courses/${course}/grades/bulk`, {
      items: [{ gradeItemId: item.id, userId: second.id, score: 7 }],
    });
    expect(again.json().results[0].status).toBe("unchanged");
    const tooMany = await call("POST", `/courses/${course}/grades/bulk`, {
      items: Array.from({ length: 1001 }, () => ({ gradeItemId: item.id, userId: second.id, score: 1 })),
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it("reads the gradebook: rows of students with course grades and grades keyed by item; a teacher of another course gets 403", async () => {
    const { course, student, item } = await setup();
    const second = await signedInUser(h, a, "student");
    await enrollAs(h.database.db, a.id, second.id, course);
    const teacherA = await signedInUser(h, a, "teacher");
    await enrollAs(h.database.db, a.id, teacherA.id, course, "teacher");
    const item2 = (
      await call("POST", `/courses/${course}/grade-items`, { title: "Trabalho", maxPoints: 20 })
    ).json();
    await call("POST", `/courses/${course}/grades/bulk`, {
      items: [
        { gradeItemId: item.id, userId: student.id, score: 10 },
        { gradeItemId: item2.id, userId: student.id, score: 5 },
        { gradeItemId: item.id, userId: second.id, status: "missing" },
      ],
    });
    const page = await call("GET", `/courses/${course}/gradebook?perPage=1`, undefined, teacherA.cookie);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().columns.map((c: { id: string }) => c.id)).toEqual([item.id, item2.id]);
    expect(page.json().pagination).toMatchObject({ total: 2, totalPages: 2, totalRelation: "eq" });
    // 15 of 30 points: 50% current and final.
    expect(page.json().data[0]).toMatchObject({
      userId: student.id,
      enrollmentStatus: "active",
      courseGrade: {
        currentScore: 50,
        finalScore: 50,
        unpostedCurrentScore: 50,
        unpostedFinalScore: 50,
        currentLetter: "F",
      },
      grades: { [item.id]: { score: 10, status: "graded" }, [item2.id]: { score: 5 } },
    });
    const next = await call("GET", `/courses/${course}/gradebook?perPage=1&page=2`);
    expect(next.json().data[0]).toMatchObject({
      userId: second.id,
      courseGrade: { currentScore: null, finalScore: 0 },
      grades: { [item.id]: { status: "missing", score: null } },
    });

    const stranger = await signedInUser(h, a, "teacher");
    expect((await call("GET", `/courses/${course}/gradebook`, undefined, stranger.cookie)).statusCode).toBe(
      403,
    );
    expect(
      (await call("PUT", `/grade-items/${item.id}/grades/${student.id}`, { score: 1 }, stranger.cookie))
        .statusCode,
    ).toBe(403);
    expect(
      (await call("GET", `/courses/${course}/grade-changes`, undefined, stranger.cookie)).statusCode,
    ).toBe(403);
  });

  it("answers 404 for another tenant's course, item and user on every grade path and body", async () => {
    const { course, student, item } = await setup();
    const foreignCourse = await publishedCourse(h.database.db, b.id);
    const foreignStudent = await makeUser(h, b, "student");
    await enrollAs(h.database.db, b.id, foreignStudent.id, foreignCourse);
    const foreignItem = (
      await call("POST", `/courses/${foreignCourse}/grade-items`, { title: "B", maxPoints: 1 }, keyB, b)
    ).json();
    await call("PUT", `/grade-items/${foreignItem.id}/grades/${foreignStudent.id}`, { score: 1 }, keyB, b);
    const requests: [string, string, object?][] = [
      ["GET", `/grade-items/${foreignItem.id}/grades`],
      ["PUT", `/grade-items/${foreignItem.id}/grades/${foreignStudent.id}`, { score: 0 }],
      ["PUT", `/grade-items/${item.id}/grades/${foreignStudent.id}`, { score: 0 }],
      [
        "POST",
        `/courses/${foreignCourse}/grades/bulk`,
        { items: [{ gradeItemId: foreignItem.id, userId: foreignStudent.id, score: 0 }] },
      ],
      ["POST", `/courses/${foreignCourse}/grades/post`, { gradeItemIds: [foreignItem.id] }],
      ["GET", `/courses/${foreignCourse}/gradebook`],
      ["GET", `/courses/${foreignCourse}/grade-changes`],
    ];
    for (const [method, url, body] of requests) {
      expect((await call(method as "GET", url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    const post = await call("POST", `/courses/${course}/grades/post`, { gradeItemIds: [foreignItem.id] });
    expect(post.statusCode).toBe(400);
    expect(post.json().details[0].field).toBe("gradeItemIds[0]");
    const bulk = await call("POST", `/courses/${course}/grades/bulk`, {
      items: [{ gradeItemId: item.id, userId: foreignStudent.id, score: 1 }],
    });
    expect(bulk.json().results[0]).toMatchObject({ status: "failed", error: { error: "validation_failed" } });
    const [theirs] = await h.database.db.select().from(grades).where(eq(grades.gradeItemId, foreignItem.id));
    expect(theirs?.score).toBe(1);
    expect(student.id).toBeDefined();
  });
});
