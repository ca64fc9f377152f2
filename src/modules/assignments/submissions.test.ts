import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { platformEvents } from "../../db/schema/index.js";
import { callerFor, fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { makeQuizLesson } from "../quizzes/test-fixtures.js";
import { enrollAs, makeAssignment, readyFile } from "./test-fixtures.js";

const { h, tenants } = useApi({ env: MANY_STUDENTS, tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
const call = callerFor(h, () => ({ tenant: a, credential: keyA }));
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

beforeAll(async () => {
  keyA = await makeKey(h, a, [], UNLIMITED_KEY);
  keyB = await makeKey(h, b, [], UNLIMITED_KEY);
});

async function student(courseId: string) {
  const s = await signedInUser(h, a, "student");
  await enrollAs(h.database.db, a.id, s.id, courseId);
  return s;
}

const eventsOf = async (type: string) =>
  (
    await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, type)))
  ).map((r) => r.data as Record<string, unknown>);

describe("assignment settings", () => {
  it("are 1:1 with a lesson of type assignment, check their dates and show the grade item fed", async () => {
    const quizLesson = await makeQuizLesson(h.database.db, a.id, "quiz");
    const wrong = await call("POST", "/assignments", { lessonId: quizLesson.lessonId });
    expect(wrong.statusCode).toBe(400);
    expect(fieldsOf(wrong)).toEqual(["lessonId"]);
    const { lessonId, courseId } = await makeQuizLesson(h.database.db, a.id, "assignment");
    const early = await call("POST", "/assignments", { lessonId, dueAt: at(HOUR), lockAt: at(0) });
    expect(fieldsOf(early)).toEqual(["lockAt"]);
    const created = await call("POST", "/assignments", {
      lessonId,
      dueAt: at(HOUR),
      allowedKinds: ["text", "url"],
      allowedAttempts: 2,
      pointsPossible: 10,
      latePolicy: { deductionPercent: 10, interval: "hour", maxDeductionPercent: 50 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      lessonId,
      courseId,
      allowedKinds: ["text", "url"],
      gradeItemId: null,
    });
    expect((await call("POST", "/assignments", { lessonId })).statusCode).toBe(409);
    const id = created.json().id;
    const item = await call("POST", `/courses/${courseId}/grade-items`, {
      title: "Trabalho",
      maxPoints: 20,
      sourceType: "assignment",
      sourceId: id,
    });
    expect((await call("GET", `/assignments/${id}`)).json().gradeItemId).toBe(item.json().id);
    expect((await call("GET", `/lessons/${lessonId}/assignment`)).json()).toMatchObject({ id, lessonId });
    expect((await call("GET", `/lessons/${quizLesson.lessonId}/assignment`)).statusCode).toBe(404);
    const patched = await call("PATCH", `/assignments/${id}`, { allowedKinds: [] });
    expect(patched.statusCode).toBe(400);
    expect((await call("PATCH", `/assignments/${id}`, { lockAt: at(-HOUR) })).statusCode).toBe(400);
    expect((await call("PATCH", `/assignments/${id}`, { allowedAttempts: 3 })).json().allowedAttempts).toBe(
      3,
    );
  });
});

describe("handing in", () => {
  it("takes the allowed kinds only, the student's own, and emits assignment_submitted", async () => {
    const made = await makeAssignment(h.database.db, a.id, { allowedKinds: ["text", "file"] });
    const s = await student(made.courseId);
    const other = await student(made.courseId);
    const url = `/lessons/${made.lessonId}/submissions`;
    expect(fieldsOf(await call("POST", url, { userId: s.id, url: "https://x.test/a" }))).toEqual(["url"]);
    expect(fieldsOf(await call("POST", url, { userId: s.id }))).toEqual(["bodyText"]);
    expect((await call("POST", url, { bodyText: "x" })).statusCode).toBe(400); // a key names the student
    expect((await call("POST", url, { bodyText: "x", userId: other.id }, s.cookie)).statusCode).toBe(403);
    const foreignFile = await readyFile(h.database.db, b.id);
    const refused = await call("POST", url, { attachmentMediaIds: [foreignFile] }, s.cookie);
    expect(fieldsOf(refused)).toEqual(["attachmentMediaIds[0]"]);
    const file = await readyFile(h.database.db, a.id);
    const res = await call("POST", url, { bodyText: "Meu trabalho", attachmentMediaIds: [file] }, s.cookie);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      userId: s.id,
      attempt: 1,
      status: "submitted",
      late: false,
      secondsLate: 0,
      attachmentMediaIds: [file],
      history: [],
      rubricAssessmentId: null,
    });
    const events = (await eventsOf("assignment_submitted")).filter((e) => e.submissionId === res.json().id);
    expect(events).toEqual([expect.objectContaining({ userId: s.id, attempt: 1, late: false })]);
    // Another student reads neither the submission nor it in the list.
    expect((await call("GET", `/submissions/${res.json().id}`, undefined, other.cookie)).statusCode).toBe(
      404,
    );
    const mine = await call("GET", url, undefined, other.cookie);
    expect(mine.json().pagination.total).toBe(0);
    expect((await call("GET", url, undefined, s.cookie)).json().data).toHaveLength(1);
    expect((await call("GET", `/submissions/${res.json().id}`, undefined, s.cookie)).statusCode).toBe(200);
    // A non-https URL is refused where URLs are allowed.
    const withUrl = await makeAssignment(h.database.db, a.id, { allowedKinds: ["url"] });
    const u = await student(withUrl.courseId);
    const http = await call(
      "POST",
      `/lessons/${withUrl.lessonId}/submissions`,
      { url: "http://x.test" },
      u.cookie,
    );
    expect(fieldsOf(http)).toEqual(["url"]);
  });

  it("enforces attempts (409) unless a resubmission is requested, keeping the history", async () => {
    const made = await makeAssignment(h.database.db, a.id, { allowedAttempts: 1 });
    const s = await student(made.courseId);
    const url = `/lessons/${made.lessonId}/submissions`;
    const first = await call("POST", url, { bodyText: "v1" }, s.cookie);
    expect((await call("POST", url, { bodyText: "v2" }, s.cookie)).statusCode).toBe(409);
    const id = first.json().id;
    expect((await call("PATCH", `/submissions/${id}`, { status: "returned" })).statusCode).toBe(400);
    const asked = await call("PATCH", `/submissions/${id}`, {
      status: "resubmission_requested",
      feedback: "Refaça",
    });
    expect(asked.json()).toMatchObject({ status: "resubmission_requested", feedback: "Refaça" });
    const second = await call("POST", url, { bodyText: "v2" }, s.cookie);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toMatchObject({
      id,
      attempt: 2,
      status: "submitted",
      bodyText: "v2",
      feedback: null,
    });
    expect(second.json().history).toEqual([
      expect.objectContaining({
        attempt: 1,
        bodyText: "v1",
        status: "resubmission_requested",
        feedback: "Refaça",
      }),
    ]);
    expect((await call("POST", url, { bodyText: "v3" }, s.cookie)).statusCode).toBe(409);
    const returned = await call("PATCH", `/submissions/${id}`, { score: 7, status: "returned" });
    expect(returned.json()).toMatchObject({ status: "returned", score: 7, finalScore: 7, deductedPoints: 0 });
  });

  it("measures lateness from the student's extension, and refuses after the lock date", async () => {
    const made = await makeAssignment(h.database.db, a.id, { dueAt: at(-2 * HOUR), lockAt: at(-HOUR) });
    const [s, t] = [await student(made.courseId), await student(made.courseId)];
    const url = `/lessons/${made.lessonId}/submissions`;
    expect((await call("POST", url, { bodyText: "late" }, s.cookie)).statusCode).toBe(409);
    const ext = `/assignments/${made.assignmentId}/extensions/${s.id}`;
    expect((await call("PUT", ext, { dueAt: at(HOUR) })).statusCode).toBe(400); // after the assignment's lock
    const put = await call("PUT", ext, { dueAt: at(HOUR), lockAt: at(2 * HOUR) });
    expect(put.statusCode, put.body).toBe(201);
    expect((await call("PUT", ext, { dueAt: at(-HOUR / 2), lockAt: at(2 * HOUR) })).statusCode).toBe(200);
    const res = await call("POST", url, { bodyText: "late" }, s.cookie);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().late).toBe(true);
    expect(res.json().secondsLate).toBeGreaterThanOrEqual(1799);
    expect(res.json().secondsLate).toBeLessThan(1900);
    expect((await call("POST", url, { bodyText: "no" }, t.cookie)).statusCode).toBe(409);
    const outsider = await signedInUser(h, a, "student");
    const none = `/assignments/${made.assignmentId}/extensions/${outsider.id}`;
    expect((await call("PUT", none, { dueAt: at(HOUR), lockAt: at(HOUR) })).statusCode).toBe(404);
    expect((await call("DELETE", ext)).statusCode).toBe(204);
    expect((await call("DELETE", ext)).statusCode).toBe(404);
  });
});

describe("another tenant", () => {
  it("gets 404 on every path id, and its ids in bodies are refused", async () => {
    const made = await makeAssignment(h.database.db, a.id);
    const s = await student(made.courseId);
    const sub = (
      await call("POST", `/lessons/${made.lessonId}/submissions`, { bodyText: "x", userId: s.id })
    ).json();
    const asB = (method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", url: string, body?: unknown) =>
      call(method, url, body, keyB, b);
    const paths: [Parameters<typeof asB>[0], string, unknown?][] = [
      ["GET", `/assignments/${made.assignmentId}`],
      ["GET", `/lessons/${made.lessonId}/assignment`],
      ["PATCH", `/assignments/${made.assignmentId}`, { allowedAttempts: 5 }],
      ["DELETE", `/assignments/${made.assignmentId}`],
      ["PUT", `/assignments/${made.assignmentId}/extensions/${s.id}`, { dueAt: at(HOUR) }],
      ["DELETE", `/assignments/${made.assignmentId}/extensions/${s.id}`],
      ["POST", `/lessons/${made.lessonId}/submissions`, { bodyText: "x", userId: s.id }],
      ["GET", `/lessons/${made.lessonId}/submissions`],
      ["GET", `/submissions/${sub.id}`],
      ["PATCH", `/submissions/${sub.id}`, { score: 1 }],
      ["GET", `/submissions/${sub.id}/comments`],
      ["POST", `/submissions/${sub.id}/comments`, { body: "x" }],
    ];
    for (const [method, url, body] of paths) {
      expect((await asB(method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call("GET", `/submissions/${sub.id}`)).json().score).toBeNull();
    const mine = await makeAssignment(h.database.db, b.id);
    expect(fieldsOf(await asB("POST", "/assignments", { lessonId: made.lessonId }))).toEqual(["lessonId"]);
    const unknown = await asB("POST", `/lessons/${mine.lessonId}/submissions`, {
      bodyText: "x",
      userId: s.id,
    });
    expect(fieldsOf(unknown)).toEqual(["userId"]);
  });
});
