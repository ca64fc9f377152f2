import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  enrollments,
  learningPathEnrollments,
  platformEvents,
  webhookDeliveries,
} from "../../db/schema/index.js";
import { MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeCourse, type TestCourse } from "../../test-support/catalogue.js";
import { makeKey, type SignedInUser, signedInUser } from "../../test-support/harness.js";
import { automationDeps, createAutomation } from "../automations/service.js";

/**
 * Path progress is kept on write: a course enrollment that completes (its last required lesson), is reopened (a
 * completion reset) or leaves (a course deleted) moves the path enrollments holding it in the same transaction,
 * and the change that completes a path emits `learning_path_completed` through the outbox with it.
 */
const { h, tenants, call } = useApi({ env: MANY_STUDENTS, tenants: 1 });
const [t] = tenants;
let key: string;
let c1: TestCourse;
let c2: TestCourse;
let c3: TestCourse;
let pathId: string;
let student: SignedInUser;
let automationId: string;

beforeAll(async () => {
  key = await makeKey(h, t, []);
  const one = [{ lessons: [{}] }];
  c1 = await makeCourse(h.database.db, t.id, one, "Foundations");
  c2 = await makeCourse(h.database.db, t.id, one, "Applications");
  c3 = await makeCourse(h.database.db, t.id, one, "Extras");
  const res = await call(t, key, "POST", "/learning-paths", {
    title: "Track",
    status: "published",
    courses: [
      { courseId: c1.courseId },
      { courseId: c2.courseId, prerequisites: [c1.courseId] },
      { courseId: c3.courseId, required: false },
    ],
  });
  expect(res.statusCode, res.body).toBe(201);
  pathId = res.json().id;
  const automation = await createAutomation(
    automationDeps(h.ctx),
    t.id,
    {
      name: "Path done",
      trigger: { event: "learning_path_completed" },
      action: { type: "send_webhook", url: "https://93.184.215.14/hook" },
    },
    `http://${t.host}`,
  );
  automationId = automation.id;
  student = await signedInUser(h, t, "student");
  const enrolled = await call(t, key, "POST", `/learning-paths/${pathId}/enrollments`, {
    userIds: [student.id],
  });
  expect(enrolled.json().summary.created).toBe(1);
});

const complete = (course: TestCourse, userId = student.id) =>
  call(t, key, "PUT", `/lessons/${course.lessonIds[0]}/completions/${userId}`, {});

async function standing(userId = student.id) {
  const [row] = await h.database.db
    .select()
    .from(learningPathEnrollments)
    .where(
      and(
        eq(learningPathEnrollments.tenantId, t.id),
        eq(learningPathEnrollments.pathId, pathId),
        eq(learningPathEnrollments.userId, userId),
      ),
    );
  return row;
}

const completedEvents = () =>
  h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "learning_path_completed")));

const studentView = async () => (await call(t, student.cookie, "GET", `/learning-paths/${pathId}`)).json();

describe("path progress", () => {
  it("counts a required course's completion, unlocks what waited for it, and ignores optional courses", async () => {
    const before = await studentView();
    expect(before.courses.map((c: { locked: boolean }) => c.locked)).toEqual([false, true, false]);
    expect((await complete(c1)).statusCode).toBe(201);
    expect(await standing()).toMatchObject({ requiredCompleted: 1, status: "active", completedAt: null });
    const view = await studentView();
    expect(view.progress).toMatchObject({ requiredCompleted: 1, requiredTotal: 2, progressPercent: 50 });
    expect(view.courses.map((c: { completed: boolean; locked: boolean }) => [c.completed, c.locked])).toEqual(
      [
        [true, false],
        [false, false],
        [false, false],
      ],
    );
    expect((await complete(c3)).statusCode).toBe(201);
    expect((await standing())?.requiredCompleted).toBe(1);
    expect(await completedEvents()).toEqual([]);
  });

  it("completes the path with its last required course and emits learning_path_completed through the outbox", async () => {
    expect((await complete(c2)).statusCode).toBe(201);
    const row = await standing();
    expect(row).toMatchObject({ requiredCompleted: 2, status: "completed", completedAt: expect.any(String) });
    const events = await completedEvents();
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({
      learningPathId: pathId,
      userId: student.id,
      title: "Track",
      completedAt: row?.completedAt,
      requiredCompleted: 2,
      requiredTotal: 2,
      enrollment: {
        learningPathId: pathId,
        userId: student.id,
        status: "completed",
        requiredCompleted: 2,
        requiredTotal: 2,
        progressPercent: 100,
        enrolledAt: row?.enrolledAt,
        completedAt: row?.completedAt,
      },
    });
    expect(events[0]?.subject).toMatchObject({ id: student.id, email: student.email });
    const deliveries = await h.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.tenantId, t.id), eq(webhookDeliveries.automationId, automationId)));
    expect(deliveries.map((d) => d.eventId)).toEqual([events[0]?.id]);
    // A repeated completion changes nothing.
    expect((await complete(c2)).statusCode).toBe(200);
    expect(await completedEvents()).toHaveLength(1);
    const list = await call(t, key, "GET", `/learning-paths/${pathId}/enrollments?status=completed`);
    expect(list.json().data).toEqual([expect.objectContaining({ userId: student.id, progressPercent: 100 })]);
    expect((await studentView()).progress.status).toBe("completed");
  });

  it("goes back to active when a completion is reset, and completes again after", async () => {
    const reset = await call(t, key, "DELETE", `/lessons/${c2.lessonIds[0]}/completions/${student.id}`);
    expect(reset.statusCode).toBe(204);
    expect(await standing()).toMatchObject({ requiredCompleted: 1, status: "active", completedAt: null });
    expect((await complete(c2)).statusCode).toBe(201);
    expect((await standing())?.status).toBe("completed");
    expect(await completedEvents()).toHaveLength(2);
  });

  it("counts courses completed before the user enrolled in the path", async () => {
    const late = await signedInUser(h, t, "student");
    const direct = await call(t, key, "POST", "/enrollments", { userId: late.id, courseId: c1.courseId });
    expect(direct.statusCode, direct.body).toBe(201);
    expect((await complete(c1, late.id)).statusCode).toBe(201);
    const res = await call(t, key, "POST", `/learning-paths/${pathId}/enrollments`, { userIds: [late.id] });
    expect(res.json().results[0]).toMatchObject({
      status: "created",
      enrollment: { requiredCompleted: 1, requiredTotal: 2, progressPercent: 50 },
      courses: { enrolled: 2, alreadyEnrolled: 1 },
    });
  });

  it("counts again when the path's courses change, and when one of its courses is deleted", async () => {
    const made = await call(t, key, "PATCH", `/learning-paths/${pathId}`, {
      courses: [
        { courseId: c1.courseId },
        { courseId: c2.courseId, prerequisites: [c1.courseId] },
        { courseId: c3.courseId, required: true },
      ],
    });
    expect(made.statusCode, made.body).toBe(200);
    // The student completed all three: still complete, now 3 of 3; the late student has 1 of 3.
    expect(await standing()).toMatchObject({ requiredCompleted: 3, status: "completed" });
    const extra = await makeCourse(h.database.db, t.id, [{ lessons: [{}] }], "New");
    await call(t, key, "PATCH", `/learning-paths/${pathId}`, {
      courses: [
        { courseId: c1.courseId },
        { courseId: c2.courseId, prerequisites: [c1.courseId] },
        { courseId: extra.courseId, prerequisites: [c2.courseId] },
      ],
    });
    expect(await standing()).toMatchObject({ requiredCompleted: 2, status: "active", completedAt: null });
    const events = (await completedEvents()).length;
    // Deleting the course not yet done leaves 2 of 2: the path completes again, with its event.
    const deleted = await call(t, key, "DELETE", `/courses/${extra.courseId}?force=true`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await standing()).toMatchObject({ requiredCompleted: 2, status: "completed" });
    expect(await completedEvents()).toHaveLength(events + 1);
    const path = (await call(t, key, "GET", `/learning-paths/${pathId}`)).json();
    expect(path.courses.map((c: { courseId: string }) => c.courseId)).toEqual([c1.courseId, c2.courseId]);
  });

  it("stops counting a completed course enrollment that is dropped or deleted", async () => {
    const idOf = async (course: TestCourse) =>
      (
        await h.database.db
          .select({ id: enrollments.id })
          .from(enrollments)
          .where(
            and(
              eq(enrollments.tenantId, t.id),
              eq(enrollments.userId, student.id),
              eq(enrollments.courseId, course.courseId),
            ),
          )
      )[0]?.id as string;
    const dropped = await call(t, key, "DELETE", `/enrollments/${await idOf(c2)}`);
    expect(dropped.statusCode).toBe(204);
    expect(await standing()).toMatchObject({ requiredCompleted: 1, status: "active", completedAt: null });
    const deleted = await call(t, key, "DELETE", `/enrollments/${await idOf(c1)}?mode=delete`);
    expect(deleted.statusCode).toBe(204);
    expect(await standing()).toMatchObject({ requiredCompleted: 0, status: "active" });
  });
});
