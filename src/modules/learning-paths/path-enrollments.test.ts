import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { enrollments, learningPathEnrollments, platformEvents } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { makeKey, makeTenant, makeUser, type TestTenant } from "../../test-support/harness.js";

/** Five seats on the free plan: every student made, and every non-student enrolled as a student, takes one. */
const LIMIT = 5;
const { h, call } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: LIMIT }) } });

interface Setup {
  t: TestTenant;
  key: string;
  courseIds: string[];
  pathId: string;
}

async function setup(courseCount = 2): Promise<Setup> {
  const t = await makeTenant(h);
  const key = await makeKey(h, t, ["courses:write", "enrollments:read", "enrollments:write"]);
  const courseIds: string[] = [];
  for (let i = 0; i < courseCount; i++) courseIds.push((await makeCourse(h.database.db, t.id)).courseId);
  const res = await call(t, key, "POST", "/learning-paths", {
    title: "Path",
    courses: courseIds.map((courseId) => ({ courseId })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return { t, key, courseIds, pathId: res.json().id };
}

const enroll = (s: Setup, userIds: string[]) =>
  call(s.t, s.key, "POST", `/learning-paths/${s.pathId}/enrollments`, { userIds });

const courseEnrollmentsOf = (s: Setup, userId: string) =>
  h.database.db
    .select()
    .from(enrollments)
    .where(and(eq(enrollments.tenantId, s.t.id), eq(enrollments.userId, userId)));

const pathEnrollmentsOf = (s: Setup) =>
  h.database.db
    .select()
    .from(learningPathEnrollments)
    .where(and(eq(learningPathEnrollments.tenantId, s.t.id), eq(learningPathEnrollments.pathId, s.pathId)));

const eventsOf = (s: Setup, type: string) =>
  h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, s.t.id), eq(platformEvents.type, type)));

describe("enrolling users in a path", () => {
  it("enrolls each user in the path and every course, per user, and skips or fails the others", async () => {
    const s = await setup();
    const other = await makeTenant(h);
    const [u1, u2] = [await makeUser(h, s.t, "student"), await makeUser(h, s.t, "student")];
    const foreign = await makeUser(h, other, "student");
    // u2 already takes the first course: that enrollment is left as it is.
    const existing = await enrollDirectly(h.database.db, s.t.id, u2.id, s.courseIds[0] as string);
    const unknown = randomUUID();
    const res = await enroll(s, [u1.id, u2.id.toUpperCase(), foreign.id, unknown, u1.id]);
    expect(res.statusCode, res.body).toBe(200);
    const { results, summary } = res.json();
    expect(summary).toEqual({ total: 5, created: 2, skipped: 1, failed: 2 });
    expect(results[0]).toEqual({
      index: 0,
      userId: u1.id,
      status: "created",
      enrollment: {
        learningPathId: s.pathId,
        userId: u1.id,
        status: "active",
        requiredCompleted: 0,
        requiredTotal: 2,
        progressPercent: 0,
        enrolledAt: expect.any(String),
        completedAt: null,
      },
      courses: { enrolled: 2, alreadyEnrolled: 0 },
    });
    expect(results[1]).toMatchObject({ index: 1, userId: u2.id, status: "created" });
    expect(results[1].courses).toEqual({ enrolled: 1, alreadyEnrolled: 1 });
    for (const [i, id] of [
      [2, foreign.id],
      [3, unknown],
    ] as const) {
      expect(results[i]).toEqual({
        index: i,
        userId: id,
        status: "failed",
        error: {
          error: "validation_failed",
          message: expect.any(String),
          details: [{ field: `userIds[${i}]`, message: `Unknown user: ${id}.` }],
        },
      });
    }
    expect(results[4]).toEqual({ index: 4, userId: u1.id, status: "skipped", reason: "already_enrolled" });

    const mine = await courseEnrollmentsOf(s, u1.id);
    expect(mine.map((e) => e.courseId).sort()).toEqual([...s.courseIds].sort());
    expect(mine.every((e) => e.role === "student" && e.source === "learning_path")).toBe(true);
    const theirs = await courseEnrollmentsOf(s, u2.id);
    expect(theirs.find((e) => e.id === existing)?.source).toBe("api");
    expect(await courseEnrollmentsOf(s, foreign.id)).toEqual([]);
    expect((await pathEnrollmentsOf(s)).map((e) => e.userId).sort()).toEqual([u1.id, u2.id].sort());
    expect(await eventsOf(s, "enrollment_created")).toHaveLength(3);
    const enrolled = await eventsOf(s, "learning_path_enrolled");
    expect(enrolled.map((e) => (e.data as { userId: string }).userId).sort()).toEqual([u1.id, u2.id].sort());
    expect(enrolled[0]?.subject).toMatchObject({ id: expect.any(String), email: expect.any(String) });

    // Again: everyone is skipped, nothing new is made; the path's enrolled count is the counter's.
    const again = await enroll(s, [u1.id, u2.id]);
    expect(again.json().summary).toEqual({ total: 2, created: 0, skipped: 2, failed: 0 });
    expect(again.json().results[0].courses).toEqual({ enrolled: 0, alreadyEnrolled: 2 });
    expect(await eventsOf(s, "enrollment_created")).toHaveLength(3);
    const path = await call(
      s.t,
      await makeKey(h, s.t, ["courses:read"]),
      "GET",
      `/learning-paths/${s.pathId}`,
    );
    expect(path.json().enrolledCount).toBe(2);
  });

  it("takes seats under the student limit for non-students, and a user past it gets nothing", async () => {
    const s = await setup();
    await makeUser(h, s.t, "student");
    await makeUser(h, s.t, "student");
    const teachers: string[] = [];
    for (let i = 0; i < 4; i++) teachers.push((await makeUser(h, s.t, "teacher")).id);
    // 2 students + 3 teachers enrolled as students fill the 5 seats; the fourth teacher finds none.
    const res = await enroll(s, teachers);
    expect(res.statusCode, res.body).toBe(200);
    const { results, summary } = res.json();
    expect(summary).toEqual({ total: 4, created: 3, skipped: 0, failed: 1 });
    expect(results[3]).toMatchObject({
      index: 3,
      status: "failed",
      error: { error: "student_limit_reached" },
    });
    expect(await courseEnrollmentsOf(s, teachers[3] as string)).toEqual([]);
    expect((await pathEnrollmentsOf(s)).map((e) => e.userId)).not.toContain(teachers[3]);
    // The seats taken through the path are seats: a new student is refused too.
    const student = await call(s.t, await makeKey(h, s.t, ["users:write"]), "POST", "/users", {
      name: "One too many",
      email: `late@${s.t.slug}.test`,
      role: "student",
    });
    expect(student.statusCode).toBe(422);
  });

  it("refuses more than 1,000 users, an empty list and a bad id before doing anything", async () => {
    const s = await setup(1);
    const many = Array.from({ length: 1001 }, () => randomUUID());
    expect((await enroll(s, many)).statusCode).toBe(400);
    expect((await enroll(s, [])).statusCode).toBe(400);
    expect((await enroll(s, ["not-a-uuid"])).statusCode).toBe(400);
    expect(
      (
        await call(s.t, s.key, "POST", `/learning-paths/${randomUUID()}/enrollments`, {
          userIds: [randomUUID()],
        })
      ).statusCode,
    ).toBe(404);
    expect(await pathEnrollmentsOf(s)).toEqual([]);
  });

  it("needs enrollments:write, as bulk enrollment does", async () => {
    const s = await setup(1);
    const user = await makeUser(h, s.t, "student");
    const courses = await makeKey(h, s.t, ["courses:read", "courses:write"]);
    const res = await call(s.t, courses, "POST", `/learning-paths/${s.pathId}/enrollments`, {
      userIds: [user.id],
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("insufficient_scope");
  });
});

describe("a path's enrollments", () => {
  it("lists them newest first with progress and exact totals, and removes one from the path only", async () => {
    const s = await setup();
    const users = [await makeUser(h, s.t, "student"), await makeUser(h, s.t, "student")];
    await enroll(
      s,
      users.map((u) => u.id),
    );
    const list = await call(s.t, s.key, "GET", `/learning-paths/${s.pathId}/enrollments`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().pagination).toEqual({ page: 1, perPage: 20, total: 2, totalPages: 1 });
    expect(
      list
        .json()
        .data.map((e: { userId: string }) => e.userId)
        .sort(),
    ).toEqual(users.map((u) => u.id).sort());
    expect(list.json().data[0]).toMatchObject({ requiredTotal: 2, requiredCompleted: 0, status: "active" });
    const done = await call(s.t, s.key, "GET", `/learning-paths/${s.pathId}/enrollments?status=completed`);
    expect(done.json()).toEqual({ data: [], pagination: { page: 1, perPage: 20, total: 0, totalPages: 0 } });

    const gone = users[0]?.id as string;
    const res = await call(s.t, s.key, "DELETE", `/learning-paths/${s.pathId}/enrollments/${gone}`);
    expect(res.statusCode).toBe(204);
    expect((await pathEnrollmentsOf(s)).map((e) => e.userId)).toEqual([users[1]?.id]);
    // The course enrollments stay.
    expect(await courseEnrollmentsOf(s, gone)).toHaveLength(2);
    expect(
      (await call(s.t, s.key, "DELETE", `/learning-paths/${s.pathId}/enrollments/${gone}`)).statusCode,
    ).toBe(404);
    const after = await call(s.t, s.key, "GET", `/learning-paths/${s.pathId}/enrollments`);
    expect(after.json().pagination.total).toBe(1);
  });

  it("answers 404 for another tenant's user in the path", async () => {
    const s = await setup(1);
    const other = await setup(1);
    const theirs = await makeUser(h, other.t, "teacher");
    await enroll(other, [theirs.id]);
    const res = await call(s.t, s.key, "DELETE", `/learning-paths/${s.pathId}/enrollments/${theirs.id}`);
    expect(res.statusCode).toBe(404);
    expect(await pathEnrollmentsOf(other)).toHaveLength(1);
  });
});
