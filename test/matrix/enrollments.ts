import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { enrollments, lessonCompletions, lessons, users } from "../../src/db/schema/index.js";
import { enrollDirectly, makeCourse } from "../../src/test-support/catalogue.js";
import { type Harness, makeUser, type TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;
const idOf = (params: Params) => (typeof params === "string" ? params : (params.id as string));

/** A learner (a teacher account: students count against the plan's limit) enrolled in a fresh course. */
async function enrolled(h: Harness, t: TestTenant) {
  const user = await makeUser(h, t, "teacher");
  const course = await makeCourse(h.database.db, t.id);
  const enrollmentId = await enrollDirectly(h.database.db, t.id, user.id, course.courseId);
  return { userId: user.id, lessonId: course.lessonIds[0] as string, enrollmentId };
}

const enrollment = async (h: Harness, t: TestTenant) => (await enrolled(h, t)).enrollmentId;
const enrollmentRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    await h.database.db
      .select()
      .from(enrollments)
      .where(and(eq(enrollments.tenantId, t.id), eq(enrollments.id, idOf(params))))
  )[0];

const user = async (h: Harness, t: TestTenant) => (await makeUser(h, t, "teacher")).id;
const userRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    await h.database.db
      .select()
      .from(users)
      .where(and(eq(users.tenantId, t.id), eq(users.id, idOf(params))))
  )[0];

const lesson = async (h: Harness, t: TestTenant) =>
  (await makeCourse(h.database.db, t.id)).lessonIds[0] as string;
const lessonRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    await h.database.db
      .select()
      .from(lessons)
      .where(and(eq(lessons.tenantId, t.id), eq(lessons.id, idOf(params))))
  )[0];

/** An enrolled learner and a lesson of the course, as the `:id` and `:userId` of the completion routes. */
const learnerAndLesson = async (h: Harness, t: TestTenant) => {
  const { userId, lessonId } = await enrolled(h, t);
  return { id: lessonId, userId };
};
/** The same, with the lesson already completed. */
const completedLesson = async (h: Harness, t: TestTenant) => {
  const { userId, lessonId, enrollmentId } = await enrolled(h, t);
  const [row] = await h.database.db
    .select({ courseId: lessons.courseId, moduleId: lessons.moduleId })
    .from(lessons)
    .where(and(eq(lessons.tenantId, t.id), eq(lessons.id, lessonId)));
  await h.database.db.insert(lessonCompletions).values({
    tenantId: t.id,
    lessonId,
    userId,
    courseId: row?.courseId as string,
    moduleId: row?.moduleId as string,
    enrollmentId,
  });
  return { id: lessonId, userId };
};
/** The learner's completions of the lesson and their enrollments: what a refused request must leave alone. */
const completionState = async (h: Harness, t: TestTenant, params: Params) => {
  const { id, userId } = params as Record<string, string>;
  const completions = await h.database.db
    .select()
    .from(lessonCompletions)
    .where(
      and(
        eq(lessonCompletions.tenantId, t.id),
        eq(lessonCompletions.lessonId, id as string),
        eq(lessonCompletions.userId, userId as string),
      ),
    );
  const enrollmentRows = await h.database.db
    .select()
    .from(enrollments)
    .where(and(eq(enrollments.tenantId, t.id), eq(enrollments.userId, userId as string)));
  return { completions, enrollments: enrollmentRows };
};

export const fixtures: Fixtures = {
  "GET /api/institution/enrollments": {},
  "POST /api/institution/enrollments": { body: { userId: randomUUID(), courseId: randomUUID() } },
  "POST /api/institution/enrollments/bulk": {
    body: { items: [{ userId: randomUUID(), courseId: randomUUID() }] },
  },
  "GET /api/institution/enrollments/:id": { makeObject: enrollment, snapshot: enrollmentRow },
  "PATCH /api/institution/enrollments/:id": {
    body: { status: "suspended" },
    makeObject: enrollment,
    snapshot: enrollmentRow,
  },
  "DELETE /api/institution/enrollments/:id": { makeObject: enrollment, snapshot: enrollmentRow },
  "GET /api/institution/enrollments/:id/progress": { makeObject: enrollment, snapshot: enrollmentRow },
  "GET /api/institution/users/:id/enrollments": { makeObject: user, snapshot: userRow },
  "GET /api/institution/lessons/:id/completions": { makeObject: lesson, snapshot: lessonRow },
  "PUT /api/institution/lessons/:id/completions/:userId": {
    body: { timeSpentSeconds: 60 },
    makeObject: learnerAndLesson,
    snapshot: completionState,
  },
  "DELETE /api/institution/lessons/:id/completions/:userId": {
    makeObject: completedLesson,
    snapshot: completionState,
  },
};
