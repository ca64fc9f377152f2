import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { gradeChanges, grades, platformEvents, quizAttempts } from "../../db/schema/index.js";
import { callerFor, fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { enrollAs } from "../gradebook/test-fixtures.js";
import { rubricBody, submittedAttempt } from "./test-fixtures.js";

const { h, tenants } = useApi({ env: MANY_STUDENTS, tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
const call = callerFor(h, () => ({ tenant: a, credential: keyA }));
const SCOPES = ["rubrics:read", "rubrics:write", "grades:read", "grades:write"];

beforeAll(async () => {
  keyA = await makeKey(h, a, SCOPES, UNLIMITED_KEY);
  keyB = await makeKey(h, b, SCOPES, UNLIMITED_KEY);
});

interface Made {
  id: string;
  criteria: { id: string; ratings: { id: string; points: number }[] }[];
}

/** Scores: the first criterion's rating of `first` points, the second's `second` points (a range). */
const scores = (r: Made, first: number, second: number) => [
  { criterionId: r.criteria[0]?.id, points: first, comment: "ok" },
  { criterionId: r.criteria[1]?.id, points: second },
];

async function gradeOf(itemId: string, userId: string) {
  const [row] = await h.database.db
    .select()
    .from(grades)
    .where(and(eq(grades.gradeItemId, itemId), eq(grades.userId, userId)));
  return row;
}

const eventsOf = async (type: string, userId: string) =>
  (
    await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, type)))
  )
    .map((e) => e.data as Record<string, unknown>)
    .filter((d) => d.userId === userId);

describe("assessments", () => {
  it("writes the grade of the item naming the rubric (scaled to maxPoints) with its log and events; peer does not", async () => {
    const t = await submittedAttempt(h.database.db, a);
    const r: Made = (await call("POST", "/rubrics", rubricBody())).json();
    const item = await call("POST", `/courses/${t.courseId}/grade-items`, {
      title: "Redação",
      maxPoints: 30,
      rubricId: r.id,
    });
    expect(item.statusCode, item.body).toBe(201);
    expect(item.json().rubricId).toBe(r.id);
    const other = await call("POST", `/courses/${t.courseId}/grade-items`, { title: "Outro", maxPoints: 10 });

    const peer = await call("POST", `/rubrics/${r.id}/assessments`, {
      targetType: "quiz_attempt",
      targetId: t.attemptId,
      type: "peer_review",
      criterionScores: scores(r, 10, 5),
    });
    expect(peer.statusCode, peer.body).toBe(201);
    expect(peer.json()).toMatchObject({ type: "peer_review", totalPoints: 15, gradeItemIds: [] });
    expect(await gradeOf(item.json().id, t.userId)).toBeUndefined();

    const res = await call("POST", `/rubrics/${r.id}/assessments`, {
      targetType: "quiz_attempt",
      targetId: t.attemptId,
      criterionScores: scores(r, 5, 3.5),
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json();
    expect(made).toMatchObject({
      rubricId: r.id,
      rubricVersion: 1,
      targetType: "quiz_attempt",
      targetId: t.attemptId,
      courseId: t.courseId,
      userId: t.userId,
      assessedBy: { type: "api_key" },
      type: "grading",
      totalPoints: 8.5,
      pointsPossible: 15,
      gradeItemIds: [item.json().id],
    });
    expect(made.criterionScores).toEqual([
      { criterionId: r.criteria[0]?.id, ratingId: r.criteria[0]?.ratings[1]?.id, points: 5, comment: "ok" },
      // 3.5 lies in the range of the 5-point rating (above 2, up to 5).
      { criterionId: r.criteria[1]?.id, ratingId: r.criteria[1]?.ratings[0]?.id, points: 3.5, comment: null },
    ]);
    expect(await gradeOf(item.json().id, t.userId)).toMatchObject({
      score: 17,
      status: "graded",
      source: "manual",
    });
    expect(await gradeOf(other.json().id, t.userId)).toBeUndefined();
    const log = await h.database.db
      .select()
      .from(gradeChanges)
      .where(eq(gradeChanges.gradeItemId, item.json().id));
    expect(log.map((l) => [l.scoreBefore, l.scoreAfter])).toEqual([[null, 17]]);
    expect(await eventsOf("grade_posted", t.userId)).toEqual([
      expect.objectContaining({ gradeItemId: item.json().id, score: 17, maxScore: 30 }),
    ]);

    // A second grading assessment replaces the grade: grade_updated.
    await call("POST", `/rubrics/${r.id}/assessments`, {
      targetType: "quiz_attempt",
      targetId: t.attemptId,
      criterionScores: scores(r, 10, 5),
    });
    expect((await gradeOf(item.json().id, t.userId))?.score).toBe(30);
    expect(await eventsOf("grade_updated", t.userId)).toEqual([
      expect.objectContaining({ gradeItemId: item.json().id, score: 30, previousScore: 17 }),
    ]);
    const book = await call("GET", `/courses/${t.courseId}/gradebook`);
    expect(book.json().data[0].courseGrade.currentScore).toBe(100);
    const list = (await call("GET", `/rubrics/${r.id}/assessments`)).json();
    expect(list.pagination).toMatchObject({ total: 3, totalRelation: "eq" });
    expect(list.data.map((x: { type: string }) => x.type)).toEqual(["grading", "grading", "peer_review"]);
  });

  it("versions the criteria once assessed: the old assessment keeps version 1 and its criteria", async () => {
    const t = await submittedAttempt(h.database.db, a);
    const r: Made = (await call("POST", "/rubrics", rubricBody())).json();
    // Not assessed yet: edits stay in version 1.
    const edited = await call("PATCH", `/rubrics/${r.id}`, { title: "Redação final" });
    expect(edited.json()).toMatchObject({ version: 1, inUse: false });
    const first = (
      await call("POST", `/rubrics/${r.id}/assessments`, {
        targetType: "quiz_attempt",
        targetId: t.attemptId,
        criterionScores: scores(r, 10, 5),
      })
    ).json();
    expect((await call("GET", `/rubrics/${r.id}`)).json()).toMatchObject({
      inUse: true,
      version: 1,
      assessmentCount: 1,
    });
    const put = await call("PUT", `/rubrics/${r.id}/criteria/${randomUUID()}`, {
      description: "Fontes",
      points: 5,
      ratings: [
        { description: "Sim", points: 5 },
        { description: "Não", points: 0 },
      ],
    });
    expect(put.json()).toMatchObject({ version: 2, pointsPossible: 20, inUse: true });
    // Version 2 has no assessment yet: a second edit stays in it.
    const patched = await call("PATCH", `/rubrics/${r.id}`, { criteria: put.json().criteria.slice(1) });
    expect(patched.json()).toMatchObject({ version: 2, pointsPossible: 10 });
    const old = await call("GET", `/rubrics/${r.id}/assessments/${first.id}`);
    expect(old.statusCode).toBe(200);
    expect(old.json()).toMatchObject({ rubricVersion: 1, pointsPossible: 15, totalPoints: 15 });
    expect(old.json().criteria.map((c: { id: string }) => c.id)).toEqual(r.criteria.map((c) => c.id));
    // Scores for version 1's first criterion no longer fit version 2.
    const stale = await call("POST", `/rubrics/${r.id}/assessments`, {
      targetType: "quiz_attempt",
      targetId: t.attemptId,
      criterionScores: scores(r, 10, 5),
    });
    expect(stale.statusCode).toBe(400);
    expect(fieldsOf(stale)).toContain("criterionScores[0].criterionId");
    const second = await call("POST", `/rubrics/${r.id}/assessments`, {
      targetType: "quiz_attempt",
      targetId: t.attemptId,
      criterionScores: put
        .json()
        .criteria.slice(1)
        .map((c: { id: string; points: number }) => ({
          criterionId: c.id,
          points: c.points,
        })),
    });
    expect(second.json()).toMatchObject({ rubricVersion: 2, totalPoints: 10 });
    // Deleting a rubric in use archives it.
    const deleted = await call("DELETE", `/rubrics/${r.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ id: r.id, status: "archived" });
    const archived = await call("POST", `/rubrics/${r.id}/assessments`, {
      targetType: "quiz_attempt",
      targetId: t.attemptId,
      criterionScores: scores(r, 10, 5),
    });
    expect(archived.statusCode).toBe(409);
  });

  it("refuses scores that do not fit, unknown or foreign targets, submissions, and attempts in progress", async () => {
    const t = await submittedAttempt(h.database.db, a);
    const r: Made = (await call("POST", "/rubrics", rubricBody())).json();
    const post = (body: Record<string, unknown>) =>
      call("POST", `/rubrics/${r.id}/assessments`, {
        targetType: "quiz_attempt",
        targetId: t.attemptId,
        ...body,
      });
    const off = await post({ criterionScores: scores(r, 7, 6) });
    expect(fieldsOf(off)).toEqual(["criterionScores[0].points", "criterionScores[1].points"]);
    const wrongRating = await post({
      criterionScores: [
        { criterionId: r.criteria[0]?.id, ratingId: r.criteria[0]?.ratings[0]?.id, points: 5 },
        { criterionId: r.criteria[1]?.id, ratingId: r.criteria[1]?.ratings[1]?.id, points: 3 },
      ],
    });
    expect(fieldsOf(wrongRating)).toEqual(["criterionScores[0].points", "criterionScores[1].points"]);
    const missing = await post({ criterionScores: scores(r, 10, 5).slice(0, 1) });
    expect(fieldsOf(missing)).toEqual(["criterionScores"]);
    const twice = await post({ criterionScores: [...scores(r, 10, 5), scores(r, 10, 5)[0]] });
    expect(fieldsOf(twice)).toEqual(["criterionScores[2].criterionId"]);
    // An attempt's id is no submission's.
    const submission = await post({ targetType: "submission", criterionScores: scores(r, 10, 5) });
    expect(submission.statusCode).toBe(400);
    expect(fieldsOf(submission)).toEqual(["targetId"]);
    const foreign = await submittedAttempt(h.database.db, b);
    const other = await post({ targetId: foreign.attemptId, criterionScores: scores(r, 10, 5) });
    const unknown = await post({ targetId: randomUUID(), criterionScores: scores(r, 10, 5) });
    expect(other.statusCode).toBe(400);
    expect(fieldsOf(other)).toEqual(["targetId"]);
    expect(unknown.statusCode).toBe(400);
    const open = await submittedAttempt(h.database.db, a, "in_progress");
    expect((await post({ targetId: open.attemptId, criterionScores: scores(r, 10, 5) })).statusCode).toBe(
      409,
    );
    // B's key cannot assess with A's rubric, nor read its assessments.
    const fromB = await call(
      "POST",
      `/rubrics/${r.id}/assessments`,
      { targetType: "quiz_attempt", targetId: foreign.attemptId, criterionScores: scores(r, 10, 5) },
      keyB,
      b,
    );
    expect(fromB.statusCode).toBe(404);
  });

  it("keeps course rubrics to their course, and teachers to the courses they teach", async () => {
    const t = await submittedAttempt(h.database.db, a);
    const elsewhere = await submittedAttempt(h.database.db, a);
    const r: Made = (await call("POST", "/rubrics", rubricBody({ courseId: t.courseId }))).json();
    const wrong = await call("POST", `/rubrics/${r.id}/assessments`, {
      targetType: "quiz_attempt",
      targetId: elsewhere.attemptId,
      criterionScores: scores(r, 10, 5),
    });
    expect(fieldsOf(wrong)).toEqual(["targetId"]);
    const item = await call("POST", `/courses/${elsewhere.courseId}/grade-items`, {
      title: "X",
      maxPoints: 5,
      rubricId: r.id,
    });
    expect(fieldsOf(item)).toEqual(["rubricId"]);
    const teacher = await signedInUser(h, a, "teacher");
    const institution: Made = (await call("POST", "/rubrics", rubricBody())).json();
    const assess = (attemptId: string) =>
      call(
        "POST",
        `/rubrics/${institution.id}/assessments`,
        { targetType: "quiz_attempt", targetId: attemptId, criterionScores: scores(institution, 10, 5) },
        { cookie: teacher.cookie },
      );
    expect((await assess(t.attemptId)).statusCode).toBe(403);
    await enrollAs(h.database.db, a.id, teacher.id, t.courseId, "teacher");
    const made = await assess(t.attemptId);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().assessedBy).toEqual({ type: "user", id: teacher.id });
    const read = await call("GET", `/rubrics/${institution.id}/assessments/${made.json().id}`, undefined, {
      cookie: teacher.cookie,
    });
    expect(read.statusCode).toBe(200);
    const list = await call("GET", `/rubrics/${institution.id}/assessments`, undefined, {
      cookie: teacher.cookie,
    });
    expect(list.statusCode).toBe(403);
  });

  it("lets a student self-assess its own attempt, never grading, and read only its own assessments", async () => {
    const t = await submittedAttempt(h.database.db, a);
    const mine = await signedInUser(h, a, "student");
    await enrollAs(h.database.db, a.id, mine.id, t.courseId);
    const [own] = await h.database.db
      .insert(quizAttempts)
      .values({ tenantId: a.id, quizId: t.quizId, userId: mine.id, attemptNumber: 1, status: "submitted" })
      .returning({ id: quizAttempts.id });
    const r: Made = (await call("POST", "/rubrics", rubricBody({ courseId: t.courseId }))).json();
    const item = await call("POST", `/courses/${t.courseId}/grade-items`, {
      title: "R",
      maxPoints: 10,
      rubricId: r.id,
    });
    const asStudent = (method: "GET" | "POST", url: string, body?: unknown) =>
      call(method, url, body, { cookie: mine.cookie });
    expect((await asStudent("GET", `/rubrics/${r.id}`)).statusCode).toBe(200);
    const post = (targetId: string, type?: string) =>
      asStudent("POST", `/rubrics/${r.id}/assessments`, {
        targetType: "quiz_attempt",
        targetId,
        ...(type === undefined ? {} : { type }),
        criterionScores: scores(r, 10, 5),
      });
    expect(fieldsOf(await post(own?.id as string))).toEqual(["type"]);
    expect(fieldsOf(await post(t.attemptId, "self"))).toEqual(["targetId"]);
    const self = await post(own?.id as string, "self");
    expect(self.statusCode, self.body).toBe(201);
    expect(self.json()).toMatchObject({ type: "self", userId: mine.id, gradeItemIds: [] });
    expect(await gradeOf(item.json().id, mine.id)).toBeUndefined();
    expect((await asStudent("GET", `/rubrics/${r.id}/assessments/${self.json().id}`)).statusCode).toBe(200);
    const other = (
      await call("POST", `/rubrics/${r.id}/assessments`, {
        targetType: "quiz_attempt",
        targetId: t.attemptId,
        criterionScores: scores(r, 10, 5),
      })
    ).json();
    expect((await asStudent("GET", `/rubrics/${r.id}/assessments/${other.id}`)).statusCode).toBe(404);
    expect((await asStudent("GET", `/rubrics/${r.id}/assessments`)).statusCode).toBe(403);
    // A course rubric of a course the student does not take is 404 to it.
    const elsewhere = await submittedAttempt(h.database.db, a);
    const hidden = (await call("POST", "/rubrics", rubricBody({ courseId: elsewhere.courseId }))).json();
    expect((await asStudent("GET", `/rubrics/${hidden.id}`)).statusCode).toBe(404);
  });

  it("attaches and detaches a rubric with PATCH on the grade item; deleting an unused rubric detaches it", async () => {
    const t = await submittedAttempt(h.database.db, a);
    const r: Made = (await call("POST", "/rubrics", rubricBody())).json();
    const item = (
      await call("POST", `/courses/${t.courseId}/grade-items`, { title: "R", maxPoints: 10 })
    ).json();
    const attached = await call("PATCH", `/grade-items/${item.id}`, { rubricId: r.id });
    expect(attached.json().rubricId).toBe(r.id);
    expect((await call("PATCH", `/grade-items/${item.id}`, { rubricId: randomUUID() })).statusCode).toBe(400);
    const detached = await call("PATCH", `/grade-items/${item.id}`, { rubricId: null });
    expect(detached.json().rubricId).toBeNull();
    const made = await call("POST", `/rubrics/${r.id}/assessments`, {
      targetType: "quiz_attempt",
      targetId: t.attemptId,
      criterionScores: scores(r, 10, 5),
    });
    expect(made.json().gradeItemIds).toEqual([]);
    expect(await gradeOf(item.id, t.userId)).toBeUndefined();
    const unused: Made = (await call("POST", "/rubrics", rubricBody())).json();
    await call("PATCH", `/grade-items/${item.id}`, { rubricId: unused.id });
    expect((await call("DELETE", `/rubrics/${unused.id}`)).statusCode).toBe(204);
    expect((await call("GET", `/grade-items/${item.id}`)).json().rubricId).toBeNull();
  });
});
