import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { gradeChanges, grades, platformEvents, submissions } from "../../db/schema/index.js";
import { callerFor, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { applyLatePolicy } from "./late.js";
import { markMissingSubmissions } from "./service.js";
import { enrollAs, makeAssignment } from "./test-fixtures.js";

const { h, tenants } = useApi({ env: MANY_STUDENTS, tenants: 1 });
const [a] = tenants;
let key: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

beforeAll(async () => {
  key = await makeKey(h, a, [], UNLIMITED_KEY);
});

async function student(courseId: string) {
  const s = await signedInUser(h, a, "student");
  await enrollAs(h.database.db, a.id, s.id, courseId);
  return s;
}

async function item(courseId: string, assignmentId: string, maxPoints = 20) {
  const res = await call("POST", `/courses/${courseId}/grade-items`, {
    title: "Trabalho",
    maxPoints,
    sourceType: "assignment",
    sourceId: assignmentId,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const gradeOf = async (gradeItemId: string, userId: string) =>
  (
    await h.database.db
      .select()
      .from(grades)
      .where(and(eq(grades.gradeItemId, gradeItemId), eq(grades.userId, userId)))
  )[0];

const eventsOf = async (type: string, userId: string) =>
  (
    await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, type)))
  )
    .map((r) => r.data as Record<string, unknown>)
    .filter((d) => d.userId === userId);

describe("the late policy", () => {
  it("deducts per started interval, up to its maximum, never below 0", () => {
    const policy = { deductionPercent: 10, interval: "day" as const, maxDeductionPercent: 25 };
    expect(applyLatePolicy(9, 0, 10, policy)).toEqual({ deductedPoints: 0, finalScore: 9 });
    expect(applyLatePolicy(9, 1, 10, policy)).toEqual({ deductedPoints: 1, finalScore: 8 });
    expect(applyLatePolicy(9, 86_401, 10, policy)).toEqual({ deductedPoints: 2, finalScore: 7 });
    expect(applyLatePolicy(9, 10 * 86_400, 10, policy)).toEqual({ deductedPoints: 2.5, finalScore: 6.5 });
    expect(applyLatePolicy(1, 10 * 86_400, 10, policy)).toEqual({ deductedPoints: 2.5, finalScore: 0 });
  });
});

describe("grading", () => {
  it("deducts for lateness and writes the gradebook grade in the same transaction, with its events", async () => {
    const made = await makeAssignment(h.database.db, a.id, {
      dueAt: at(-(49 * HOUR)),
      latePolicy: { deductionPercent: 10, interval: "day", maxDeductionPercent: 25 },
    });
    const gradeItemId = await item(made.courseId, made.assignmentId);
    const s = await student(made.courseId);
    const sub = await call("POST", `/lessons/${made.lessonId}/submissions`, { bodyText: "x" }, s.cookie);
    expect(sub.json()).toMatchObject({ late: true });
    expect(sub.json().secondsLate).toBeGreaterThan(49 * 3600 - 5);

    const teacher = await signedInUser(h, a, "teacher");
    const refused = await call("PATCH", `/submissions/${sub.json().id}`, { score: 9 }, teacher.cookie);
    expect(refused.statusCode).toBe(403);
    await enrollAs(h.database.db, a.id, teacher.id, made.courseId, "teacher");
    expect((await call("PATCH", `/submissions/${sub.json().id}`, { score: 16 })).statusCode).toBe(400);
    const graded = await call(
      "PATCH",
      `/submissions/${sub.json().id}`,
      { score: 9, feedback: "Bom" },
      teacher.cookie,
    );
    expect(graded.statusCode, graded.body).toBe(200);
    // Three started days late: 30%, capped at 25% of 10 points.
    expect(graded.json()).toMatchObject({ status: "graded", score: 9, deductedPoints: 2.5, finalScore: 6.5 });
    expect(graded.json().gradedBy).toEqual({ type: "user", id: teacher.id });
    expect(await gradeOf(gradeItemId, s.id)).toMatchObject({
      score: 13,
      status: "late",
      source: "auto",
      feedback: "Bom",
    });
    const log = await h.database.db
      .select()
      .from(gradeChanges)
      .where(eq(gradeChanges.gradeItemId, gradeItemId));
    expect(log).toHaveLength(1);
    expect(await eventsOf("assignment_graded", s.id)).toEqual([
      expect.objectContaining({ score: 6.5, rawScore: 9, deductedPoints: 2.5, maxScore: 10, percent: 65 }),
    ]);
    expect(await eventsOf("grade_posted", s.id)).toEqual([
      expect.objectContaining({ gradeItemId, score: 13 }),
    ]);
    const regraded = await call("PATCH", `/submissions/${sub.json().id}`, { score: 10 });
    expect(regraded.json().finalScore).toBe(7.5);
    expect((await gradeOf(gradeItemId, s.id))?.score).toBe(15);
    expect(await eventsOf("grade_updated", s.id)).toEqual([
      expect.objectContaining({ score: 15, previousScore: 13 }),
    ]);
  });
});

describe("the missing sweep", () => {
  it("marks students without a submission at their due date (an extension's), once, in the gradebook too", async () => {
    const made = await makeAssignment(h.database.db, a.id, { dueAt: at(HOUR) });
    const gradeItemId = await item(made.courseId, made.assignmentId);
    const [handed, idle, extended, excused] = [
      await student(made.courseId),
      await student(made.courseId),
      await student(made.courseId),
      await student(made.courseId),
    ];
    await call("POST", `/lessons/${made.lessonId}/submissions`, { bodyText: "x" }, handed.cookie);
    const ext = await call("PUT", `/assignments/${made.assignmentId}/extensions/${extended.id}`, {
      dueAt: at(3 * HOUR),
    });
    expect(ext.statusCode, ext.body).toBe(201);
    await call("PUT", `/grade-items/${gradeItemId}/grades/${excused.id}`, { status: "excused" });
    const statusOf = async (userId: string) =>
      (
        await h.database.db
          .select({ status: submissions.status, attempt: submissions.attempt })
          .from(submissions)
          .where(and(eq(submissions.lessonId, made.lessonId), eq(submissions.userId, userId)))
      )[0];

    await markMissingSubmissions(h.database.db, new Date());
    expect(await statusOf(idle.id)).toBeUndefined(); // not due yet
    await markMissingSubmissions(h.database.db, new Date(Date.now() + 2 * HOUR));
    expect(await statusOf(idle.id)).toEqual({ status: "missing", attempt: 0 });
    expect(await statusOf(handed.id)).toEqual({ status: "submitted", attempt: 1 });
    expect(await statusOf(extended.id)).toBeUndefined();
    expect(await gradeOf(gradeItemId, idle.id)).toMatchObject({ status: "missing", score: null });
    expect((await gradeOf(gradeItemId, excused.id))?.status).toBe("excused");
    expect(await gradeOf(gradeItemId, handed.id)).toBeUndefined();
    const list = await call("GET", `/lessons/${made.lessonId}/submissions?status=missing`);
    expect(list.json().pagination.total).toBe(2); // idle and excused: the submission is missing either way
    await markMissingSubmissions(h.database.db, new Date(Date.now() + 4 * HOUR));
    expect(await statusOf(extended.id)).toEqual({ status: "missing", attempt: 0 });
    const again = await markMissingSubmissions(h.database.db, new Date(Date.now() + 5 * HOUR));
    expect(again.marked).toBe(0);
    const all = await call("GET", `/lessons/${made.lessonId}/submissions`);
    expect(all.json().pagination.total).toBe(4);
  });

  it("marks a student whose extension is removed after the assignment's due date was swept without them", async () => {
    const made = await makeAssignment(h.database.db, a.id, { dueAt: at(HOUR) });
    const gradeItemId = await item(made.courseId, made.assignmentId);
    const extended = await student(made.courseId);
    const url = `/assignments/${made.assignmentId}/extensions/${extended.id}`;
    expect((await call("PUT", url, { dueAt: at(10 * HOUR) })).statusCode).toBe(201);
    await markMissingSubmissions(h.database.db, new Date(Date.now() + 2 * HOUR));
    expect(await gradeOf(gradeItemId, extended.id)).toBeUndefined();

    expect((await call("DELETE", url)).statusCode).toBe(204);
    const pass = await markMissingSubmissions(h.database.db, new Date(Date.now() + 3 * HOUR));
    expect(pass.marked).toBeGreaterThanOrEqual(1);
    const [row] = await h.database.db
      .select({ status: submissions.status })
      .from(submissions)
      .where(and(eq(submissions.lessonId, made.lessonId), eq(submissions.userId, extended.id)));
    expect(row?.status).toBe("missing");
    expect(await gradeOf(gradeItemId, extended.id)).toMatchObject({ status: "missing" });
  });
});

describe("comments", () => {
  it("are a conversation of the student and the course's staff, paged oldest first", async () => {
    const made = await makeAssignment(h.database.db, a.id);
    const s = await student(made.courseId);
    const other = await student(made.courseId);
    const sub = (
      await call("POST", `/lessons/${made.lessonId}/submissions`, { bodyText: "x" }, s.cookie)
    ).json();
    const url = `/submissions/${sub.id}/comments`;
    const mine = await call("POST", url, { body: "Pronto" }, s.cookie);
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json()).toMatchObject({
      submissionId: sub.id,
      author: { type: "user", id: s.id },
      body: "Pronto",
    });
    expect((await call("POST", url, { body: "Revise" })).json().author.type).toBe("api_key");
    expect((await call("POST", url, { body: "Oi" }, other.cookie)).statusCode).toBe(404);
    expect((await call("GET", url, undefined, other.cookie)).statusCode).toBe(404);
    expect((await call("POST", url, { body: "" })).statusCode).toBe(400);
    const page = await call("GET", `${url}?perPage=1&page=2`, undefined, s.cookie);
    expect(page.json().data.map((c: { body: string }) => c.body)).toEqual(["Revise"]);
    expect(page.json().pagination).toMatchObject({ total: 2, totalPages: 2 });
  });
});
