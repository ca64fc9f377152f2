import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { enrollments, lessonCompletions, platformEvents } from "../../db/schema/index.js";
import { MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { enrollDirectly, type ModuleSpec, makeCourse } from "../../test-support/catalogue.js";
import {
  bearer,
  json,
  makeKey,
  makeTenant,
  makeUser,
  roleCookie,
  type TestTenant,
} from "../../test-support/harness.js";
import { recordCompletion } from "./completions.js";

const { h, tenants, call } = useApi({ env: MANY_STUDENTS, tenants: 1 });
const [a] = tenants;
let keyA: string;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["enrollments:read", "enrollments:write"]);
});

const complete = (userId: string, lessonId: string, body: object = {}) =>
  call(a, keyA, "PUT", `/lessons/${lessonId}/completions/${userId}`, body);

async function eventsOf(t: TestTenant, type: string, userId?: string) {
  const rows = await h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, type)));
  return rows.filter((e) => userId === undefined || (e.subject as { id: string } | null)?.id === userId);
}

async function enrollmentRow(id: string) {
  const rows = await h.database.db
    .select()
    .from(enrollments)
    .where(and(eq(enrollments.tenantId, a.id), eq(enrollments.id, id)));
  return rows[0];
}

/** A student enrolled in a fresh course of tenant A. */
async function learner(modules?: ModuleSpec[]) {
  const user = await makeUser(h, a, "student");
  const course = await makeCourse(h.database.db, a.id, modules);
  const enrollmentId = await enrollDirectly(h.database.db, a.id, user.id, course.courseId);
  return { user, course, enrollmentId };
}

describe("marking a lesson complete", () => {
  it("is 201 with the completion and one lesson_completed the first time, 200 and nothing after", async () => {
    const { user, course, enrollmentId } = await learner([{ lessons: [{}, {}] }]);
    const lessonId = course.lessonIds[0] as string;
    const first = await complete(user.id, lessonId, { timeSpentSeconds: 300, scorePercent: 87.456 });
    expect(first.statusCode, first.body).toBe(201);
    const completion = first.json();
    expect(completion).toEqual({
      lessonId,
      userId: user.id,
      courseId: course.courseId,
      moduleId: course.modules[0]?.id,
      enrollmentId,
      completedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      timeSpentSeconds: 300,
      scorePercent: 87.46,
      source: "api",
    });
    const events = await eventsOf(a, "lesson_completed", user.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({
      courseId: course.courseId,
      userId: user.id,
      lessonId,
      moduleId: course.modules[0]?.id,
      enrollmentId,
      completedAt: completion.completedAt,
      timeSpentSeconds: 300,
      scorePercent: 87.46,
      progressPercent: 50,
      courseCompleted: false,
      // The completion as this answer gave it.
      completion,
    });
    const enrollment = await enrollmentRow(enrollmentId);
    expect(enrollment?.startedAt).toBe(completion.completedAt);
    expect(enrollment?.lastActivityAt).toBe(completion.completedAt);

    const repeat = await complete(user.id, lessonId, { timeSpentSeconds: 999 });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual(completion);
    expect(await eventsOf(a, "lesson_completed", user.id)).toHaveLength(1);
    expect((await enrollmentRow(enrollmentId))?.updatedAt).toBe(enrollment?.updatedAt);
  });

  it("accepts a PUT without a body, and records source teacher for a session", async () => {
    const { user, course } = await learner();
    const noBody = await h.inject({
      method: "PUT",
      url: `/api/institution/lessons/${course.lessonIds[0]}/completions/${user.id}`,
      headers: { host: a.host, ...bearer(keyA) },
    });
    expect(noBody.statusCode, noBody.body).toBe(201);
    expect(noBody.json()).toMatchObject({ timeSpentSeconds: null, scorePercent: null, source: "api" });
    const teacher = await roleCookie(h, a, "teacher");
    const bySession = await h.inject({
      method: "PUT",
      url: `/api/institution/lessons/${course.lessonIds[1]}/completions/${user.id}`,
      headers: { host: a.host, cookie: teacher, ...json },
      payload: {},
    });
    expect(bySession.statusCode, bySession.body).toBe(201);
    expect(bySession.json().source).toBe("teacher");
    const [event] = (await eventsOf(a, "lesson_completed", user.id)).filter(
      (e) => (e.data as { lessonId: string }).lessonId === course.lessonIds[1],
    );
    expect(event?.actor).toMatchObject({ type: "user" });
  });

  it("is 409 without an active or completed enrollment, and writes nothing", async () => {
    const user = await makeUser(h, a, "student");
    const course = await makeCourse(h.database.db, a.id);
    const lessonId = course.lessonIds[0] as string;
    const none = await complete(user.id, lessonId);
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({
      error: "conflict",
      message: "This user has no active or completed enrollment in the lesson's course.",
    });
    const suspendedId = await enrollDirectly(h.database.db, a.id, user.id, course.courseId, "suspended");
    expect((await complete(user.id, lessonId)).statusCode).toBe(409);
    await h.database.db
      .update(enrollments)
      .set({ status: "dropped" })
      .where(and(eq(enrollments.tenantId, a.id), eq(enrollments.id, suspendedId)));
    expect((await complete(user.id, lessonId)).statusCode).toBe(409);
    const rows = await h.database.db
      .select()
      .from(lessonCompletions)
      .where(and(eq(lessonCompletions.tenantId, a.id), eq(lessonCompletions.userId, user.id)));
    expect(rows).toEqual([]);
    expect(await eventsOf(a, "lesson_completed", user.id)).toEqual([]);
  });

  it("is 404 for an unknown, malformed or foreign lesson or user, and 400 for bad input", async () => {
    const { user, course } = await learner();
    const b = await makeTenant(h);
    const foreign = await makeCourse(h.database.db, b.id);
    const foreignUser = await makeUser(h, b, "student");
    for (const [lesson, userId] of [
      [randomUUID(), user.id],
      ["nope", user.id],
      [foreign.lessonIds[0], user.id],
      [course.lessonIds[0], randomUUID()],
      [course.lessonIds[0], foreignUser.id],
      [course.lessonIds[0], "x"],
    ]) {
      const r = await complete(userId as string, lesson as string);
      expect(r.statusCode, `${lesson} ${userId}`).toBe(404);
      expect(r.json().error).toBe("not_found");
    }
    for (const body of [
      { scorePercent: 101 },
      { timeSpentSeconds: -1 },
      { timeSpentSeconds: 1.5 },
      { other: 1 },
    ]) {
      const r = await complete(user.id, course.lessonIds[0] as string, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().error).toBe("validation_failed");
    }
  });
});

describe("module and course completion", () => {
  it("emits module_completed per module and enrollment_completed once, and completes the enrollment", async () => {
    const { user, course, enrollmentId } = await learner([
      { completionRequirement: "all", lessons: [{}, {}, { required: false }] },
      { completionRequirement: "any", lessons: [{}, {}] },
    ]);
    const [m1a, m1b, m1optional, m2a, m2b] = course.lessonIds as string[];
    const moduleEvents = async () =>
      (await eventsOf(a, "module_completed", user.id)).map((e) => (e.data as { moduleId: string }).moduleId);

    await complete(user.id, m1a as string);
    await complete(user.id, m1optional as string);
    expect(await moduleEvents()).toEqual([]);
    await complete(user.id, m1b as string);
    expect(await moduleEvents()).toEqual([course.modules[0]?.id]);
    const [moduleEvent] = await eventsOf(a, "module_completed", user.id);
    expect(moduleEvent?.data).toMatchObject({ courseId: course.courseId, enrollmentId, progressPercent: 50 });

    // `any`: the first required lesson finishes the module; the course still needs the other.
    await complete(user.id, m2a as string);
    expect(await moduleEvents()).toEqual([course.modules[0]?.id, course.modules[1]?.id]);
    expect(await eventsOf(a, "enrollment_completed", user.id)).toEqual([]);
    expect((await enrollmentRow(enrollmentId))?.status).toBe("active");

    const last = await complete(user.id, m2b as string);
    expect(await moduleEvents()).toHaveLength(2);
    const completedEvents = await eventsOf(a, "enrollment_completed", user.id);
    const completedEnrollment = await call(a, keyA, "GET", `/enrollments/${enrollmentId}`);
    expect(completedEvents.map((e) => e.data)).toEqual([
      {
        enrollmentId,
        courseId: course.courseId,
        userId: user.id,
        completedAt: last.json().completedAt,
        progressPercent: 100,
        finalScore: null,
        // The enrollment as GET /enrollments/:id answers it, completed.
        enrollment: completedEnrollment.json(),
      },
    ]);
    expect(completedEnrollment.json()).toMatchObject({ status: "completed", progressPercent: 100 });
    const lessonEvent = (await eventsOf(a, "lesson_completed", user.id)).find(
      (e) => (e.data as { lessonId: string }).lessonId === m2b,
    );
    expect(lessonEvent?.data).toMatchObject({ progressPercent: 100, courseCompleted: true });
    const row = await enrollmentRow(enrollmentId);
    expect(row).toMatchObject({ status: "completed", completedAt: last.json().completedAt });
    const record = (await call(a, keyA, "GET", `/enrollments/${enrollmentId}`)).json();
    expect(record).toMatchObject({
      status: "completed",
      progressPercent: 100,
      lessonsCompleted: 4,
      lessonsTotal: 4,
    });

    // A completed enrollment still takes completions, without completing again.
    const course2 = course.lessonIds.length;
    expect(course2).toBe(5);
    expect((await complete(user.id, m1optional as string)).statusCode).toBe(200);
    expect(await eventsOf(a, "enrollment_completed", user.id)).toHaveLength(1);
  });

  it("under simultaneous completions of the last lessons, completes the enrollment exactly once", async () => {
    const { user, course, enrollmentId } = await learner([{ lessons: [{}, {}, {}, {}, {}, {}] }]);
    const [first, ...rest] = course.lessonIds as string[];
    await complete(user.id, first as string);
    const responses = await Promise.all([...rest, ...rest].map((lesson) => complete(user.id, lesson)));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([
      ...rest.map(() => 200),
      ...rest.map(() => 201),
    ]);
    expect(await eventsOf(a, "enrollment_completed", user.id)).toHaveLength(1);
    expect(await eventsOf(a, "module_completed", user.id)).toHaveLength(1);
    expect(await eventsOf(a, "lesson_completed", user.id)).toHaveLength(6);
    expect((await enrollmentRow(enrollmentId))?.status).toBe("completed");
  });
});

describe("enrollment_progressed", () => {
  it("is written with the progress grown, at most once a minute per enrollment", async () => {
    const { user, course, enrollmentId } = await learner([{ lessons: [{}, {}, {}, {}] }]);
    const [l1, l2, l3] = course.lessonIds as [string, string, string];
    expect((await complete(user.id, l1)).statusCode).toBe(201);
    expect((await complete(user.id, l2)).statusCode).toBe(201);
    const first = await eventsOf(a, "enrollment_progressed", user.id);
    expect(first.map((e) => e.data)).toEqual([
      {
        enrollmentId,
        courseId: course.courseId,
        userId: user.id,
        enrollment: expect.objectContaining({ id: enrollmentId, progressPercent: 25, lessonsCompleted: 1 }),
        progressPercent: 25,
        previousProgressPercent: 0,
        lessonsCompleted: 1,
        lessonsTotal: 4,
      },
    ]);
    // A minute later the next completion is announced again, with the progress then.
    await h.database.db
      .update(enrollments)
      .set({ progressEventAt: new Date(Date.now() - 61_000).toISOString() })
      .where(eq(enrollments.id, enrollmentId));
    expect((await complete(user.id, l3)).statusCode).toBe(201);
    const later = await eventsOf(a, "enrollment_progressed", user.id);
    expect(later.map((e) => (e.data as { progressPercent: number }).progressPercent).sort()).toEqual([
      25, 75,
    ]);
  });
});

describe("resetting a completion", () => {
  it("removes it, emits lesson_completion_reset, and reopens a completed enrollment", async () => {
    const { user, course, enrollmentId } = await learner([{ lessons: [{}] }]);
    const lessonId = course.lessonIds[0] as string;
    await complete(user.id, lessonId);
    expect((await enrollmentRow(enrollmentId))?.status).toBe("completed");

    const reset = await call(a, keyA, "DELETE", `/lessons/${lessonId}/completions/${user.id}`);
    expect(reset.statusCode).toBe(204);
    expect(reset.body).toBe("");
    expect(await enrollmentRow(enrollmentId)).toMatchObject({ status: "active", completedAt: null });
    const events = await eventsOf(a, "lesson_completion_reset", user.id);
    expect(events.map((e) => e.data)).toEqual([
      {
        courseId: course.courseId,
        userId: user.id,
        lessonId,
        moduleId: course.modules[0]?.id,
        enrollmentId,
        progressPercent: 0,
      },
    ]);
    const again = await call(a, keyA, "DELETE", `/lessons/${lessonId}/completions/${user.id}`);
    expect(again.statusCode).toBe(404);

    // Completing it again completes the course again.
    expect((await complete(user.id, lessonId)).statusCode).toBe(201);
    expect(await eventsOf(a, "enrollment_completed", user.id)).toHaveLength(2);
  });
});

describe("listing a lesson's completions", () => {
  it("filters by user and since, sorts both ways, and counts exactly", async () => {
    const course = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }]);
    const lessonId = course.lessonIds[0] as string;
    const users = [];
    for (let i = 0; i < 3; i++) {
      const user = await makeUser(h, a, "student");
      await enrollDirectly(h.database.db, a.id, user.id, course.courseId);
      const r = await complete(user.id, lessonId);
      users.push({ id: user.id, completedAt: r.json().completedAt as string });
    }
    const list = async (q = "") =>
      (await call(a, keyA, "GET", `/lessons/${lessonId}/completions${q}`)).json();
    const all = await list();
    expect(all.data.map((c: { userId: string }) => c.userId)).toEqual([
      users[2]?.id,
      users[1]?.id,
      users[0]?.id,
    ]);
    expect(all.pagination).toEqual({ page: 1, perPage: 20, total: 3, totalPages: 1, totalRelation: "eq" });
    expect((await list("?sort=completedAt")).data[0].userId).toBe(users[0]?.id);
    const mine = await list(`?userId=${users[1]?.id}`);
    expect(mine.data).toHaveLength(1);
    expect(mine.pagination.total).toBe(1);
    const since = await list(`?since=${encodeURIComponent(users[1]?.completedAt as string)}`);
    expect(since.pagination.total).toBe(2);
    // Full pages (perPage 1) cannot tell their total: it is the counter less the completions before the date, on
    // the first page and on a later one, and 0 past the end.
    for (const [q, total] of [
      [`since=${encodeURIComponent(users[1]?.completedAt as string)}&perPage=1`, 2],
      [`since=${encodeURIComponent(users[1]?.completedAt as string)}&perPage=1&page=2`, 2],
      ["since=2020-01-01T00:00:00Z&perPage=1", 3],
      ["since=2020-01-01T00:00:00Z&perPage=2&page=2", 3],
      ["since=2999-01-01T00:00:00Z", 0],
      [`since=${encodeURIComponent(users[1]?.completedAt as string)}&page=3`, 2],
    ] as const) {
      expect((await list(`?${q}`)).pagination, q).toMatchObject({ total, totalRelation: "eq" });
    }
    expect((await call(a, keyA, "GET", `/lessons/${randomUUID()}/completions`)).statusCode).toBe(404);
    expect((await call(a, keyA, "GET", `/lessons/${lessonId}/completions?since=yesterday`)).statusCode).toBe(
      400,
    );
  });
});

describe("recordCompletion, for other modules", () => {
  it("works inside the caller's transaction and leaves nothing behind when it rolls back", async () => {
    const { user, course } = await learner([{ lessons: [{}, {}] }]);
    const [l1, l2] = course.lessonIds as [string, string];
    const result = await h.database.db.transaction((tx) =>
      recordCompletion(tx, {
        tenantId: a.id,
        lessonId: l1,
        userId: user.id,
        source: "quiz",
        scorePercent: 90,
        actor: { kind: "system" },
      }),
    );
    expect(result.created).toBe(true);
    expect(result.completion).toMatchObject({ lessonId: l1, source: "quiz", scorePercent: 90 });

    await expect(
      h.database.db.transaction(async (tx) => {
        await recordCompletion(tx, {
          tenantId: a.id,
          lessonId: l2,
          userId: user.id,
          source: "quiz",
          actor: { kind: "system" },
        });
        throw new Error("the quiz submission failed afterwards");
      }),
    ).rejects.toThrow("afterwards");
    const rows = await h.database.db
      .select()
      .from(lessonCompletions)
      .where(and(eq(lessonCompletions.tenantId, a.id), eq(lessonCompletions.userId, user.id)));
    expect(rows.map((r) => r.lessonId)).toEqual([l1]);
    expect(await eventsOf(a, "lesson_completed", user.id)).toHaveLength(1);
  });
});
