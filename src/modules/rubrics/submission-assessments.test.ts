import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { grades, platformEvents } from "../../db/schema/index.js";
import { callerFor, fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { enrollAs, makeAssignment } from "../assignments/test-fixtures.js";
import { rubricBody } from "./test-fixtures.js";

const { h, tenants } = useApi({ env: MANY_STUDENTS, tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
const call = callerFor(h, () => ({ tenant: a, credential: keyA }));
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const POLICY = { deductionPercent: 10, interval: "day" as const, maxDeductionPercent: 25 };

beforeAll(async () => {
  keyA = await makeKey(h, a, [], UNLIMITED_KEY);
  keyB = await makeKey(h, b, [], UNLIMITED_KEY);
});

interface Made {
  id: string;
  criteria: { id: string }[];
}
const scores = (r: Made, first: number, second: number) => [
  { criterionId: r.criteria[0]?.id, points: first },
  { criterionId: r.criteria[1]?.id, points: second },
];

/** An assignment (10 points, due 49 hours ago) with its grade item of 20 points, and a student's late submission. */
async function lateSubmission(tenant = a, key = keyA) {
  const made = await makeAssignment(h.database.db, tenant.id, {
    dueAt: at(-(49 * HOUR)),
    latePolicy: POLICY,
  });
  const item = await call(
    "POST",
    `/courses/${made.courseId}/grade-items`,
    { title: "Ensaio", maxPoints: 20, sourceType: "assignment", sourceId: made.assignmentId },
    key,
    tenant,
  );
  expect(item.statusCode, item.body).toBe(201);
  const student = await signedInUser(h, tenant, "student");
  await enrollAs(h.database.db, tenant.id, student.id, made.courseId);
  const sub = await call(
    "POST",
    `/lessons/${made.lessonId}/submissions`,
    { bodyText: "x" },
    student.cookie,
    tenant,
  );
  expect(sub.statusCode, sub.body).toBe(201);
  return { ...made, gradeItemId: item.json().id as string, student, submissionId: sub.json().id as string };
}

const gradesOf = (gradeItemId: string) =>
  h.database.db.select().from(grades).where(eq(grades.gradeItemId, gradeItemId));

const eventsOf = async (type: string, userId: string) =>
  (
    await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, type)))
  )
    .map((e) => e.data as Record<string, unknown>)
    .filter((d) => d.userId === userId);

describe("rubric assessments of submissions", () => {
  it("grades a late submission through the assignment's grading path: deduction, grade item, event, link", async () => {
    const s = await lateSubmission();
    const r: Made = (await call("POST", "/rubrics", rubricBody({ courseId: s.courseId }))).json();
    const teacher = await signedInUser(h, a, "teacher");
    const body = { targetType: "submission", targetId: s.submissionId, criterionScores: scores(r, 10, 2) };
    // Not the teacher's course yet: 403, and nothing written.
    expect((await call("POST", `/rubrics/${r.id}/assessments`, body, teacher.cookie)).statusCode).toBe(403);
    await enrollAs(h.database.db, a.id, teacher.id, s.courseId, "teacher");
    const res = await call("POST", `/rubrics/${r.id}/assessments`, body, teacher.cookie);
    expect(res.statusCode, res.body).toBe(201);
    // 12 of 15 points = 0.8 × the assignment's 10 = 8; three started days late: 30 %, capped at 25 % of 10 = 2.5.
    expect(res.json()).toMatchObject({
      targetType: "submission",
      targetId: s.submissionId,
      userId: s.student.id,
      courseId: s.courseId,
      totalPoints: 12,
      gradeItemIds: [s.gradeItemId],
    });
    const sub = (await call("GET", `/submissions/${s.submissionId}`)).json();
    expect(sub).toMatchObject({
      status: "graded",
      score: 8,
      deductedPoints: 2.5,
      finalScore: 5.5,
      rubricAssessmentId: res.json().id,
      gradedBy: { type: "user", id: teacher.id },
    });
    // 5.5 of 10 = 55 % of the item's 20 points, marked late, written by the assignment's path (source auto).
    expect(await gradesOf(s.gradeItemId)).toEqual([
      expect.objectContaining({ userId: s.student.id, score: 11, status: "late", source: "auto" }),
    ]);
    expect(await eventsOf("assignment_graded", s.student.id)).toEqual([
      expect.objectContaining({ submissionId: s.submissionId, score: 5.5, rawScore: 8, deductedPoints: 2.5 }),
    ]);
    // A later score by hand is no rubric's: the link goes.
    const patched = await call("PATCH", `/submissions/${s.submissionId}`, { score: 9 });
    expect(patched.json()).toMatchObject({ finalScore: 6.5, rubricAssessmentId: null });
  });

  it("writes nothing for peer and self assessments; a student assesses only its own, only as self", async () => {
    const s = await lateSubmission();
    const r: Made = (await call("POST", "/rubrics", rubricBody())).json();
    const post = (body: Record<string, unknown>, credential?: string) =>
      call(
        "POST",
        `/rubrics/${r.id}/assessments`,
        { targetType: "submission", targetId: s.submissionId, criterionScores: scores(r, 10, 5), ...body },
        credential,
      );
    const peer = await post({ type: "peer_review" });
    expect(peer.statusCode, peer.body).toBe(201);
    expect(peer.json()).toMatchObject({ type: "peer_review", userId: s.student.id, gradeItemIds: [] });
    const self = await post({ type: "self" }, s.student.cookie);
    expect(self.statusCode, self.body).toBe(201);
    expect(self.json().gradeItemIds).toEqual([]);
    const grading = await post({}, s.student.cookie);
    expect(grading.statusCode).toBe(400);
    expect(fieldsOf(grading)).toEqual(["type"]);
    const other = await signedInUser(h, a, "student");
    await enrollAs(h.database.db, a.id, other.id, s.courseId);
    const foreign = await post({ type: "self" }, other.cookie);
    expect(foreign.statusCode).toBe(400);
    expect(fieldsOf(foreign)).toEqual(["targetId"]);
    expect(await gradesOf(s.gradeItemId)).toEqual([]);
    expect(await eventsOf("assignment_graded", s.student.id)).toEqual([]);
    expect((await call("GET", `/submissions/${s.submissionId}`)).json()).toMatchObject({
      status: "submitted",
      score: null,
      rubricAssessmentId: null,
    });
  });

  it("answers 400 naming targetId for another institution's submission or an unknown one; 404 for its rubric", async () => {
    const theirs = await lateSubmission(b, keyB);
    const r: Made = (await call("POST", "/rubrics", rubricBody())).json();
    for (const targetId of [theirs.submissionId, randomUUID()]) {
      const res = await call("POST", `/rubrics/${r.id}/assessments`, {
        targetType: "submission",
        targetId,
        criterionScores: scores(r, 10, 5),
      });
      expect(res.statusCode).toBe(400);
      expect(fieldsOf(res)).toEqual(["targetId"]);
    }
    const own = await lateSubmission();
    const cross = await call(
      "POST",
      `/rubrics/${r.id}/assessments`,
      { targetType: "submission", targetId: own.submissionId, criterionScores: scores(r, 10, 5) },
      keyB,
      b,
    );
    expect(cross.statusCode).toBe(404);
    expect(await gradesOf(theirs.gradeItemId)).toEqual([]);
    expect((await call("GET", `/submissions/${theirs.submissionId}`)).statusCode).toBe(404);
  });
});
