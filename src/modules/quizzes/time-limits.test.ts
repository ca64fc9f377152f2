import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { grades, platformEvents, quizAttempts } from "../../db/schema/index.js";
import { AS_WRITTEN, fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import type { TestTenant } from "../../test-support/harness.js";
import { makeKey, makeUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { JOBS } from "../../worker/runner.js";
import { enroll, makeQuizLesson } from "./test-fixtures.js";
import { claimDue, closeOverdueAttempts, GRACE_SECONDS } from "./time-limit.js";

const { h, tenants, call } = useApi({ env: MANY_STUDENTS, tenants: 2, call: AS_WRITTEN });
const [a, b] = tenants;
const keys = new Map<string, string>();

beforeAll(async () => {
  keys.set(a.id, await makeKey(h, a, [], UNLIMITED_KEY));
  keys.set(b.id, await makeKey(h, b, [], UNLIMITED_KEY));
});

const as = (t: TestTenant) => (method: "GET" | "POST" | "PATCH", url: string, payload?: unknown) =>
  call(t, keys.get(t.id) as string, method, `/api/institution${url}`, payload);
const A = as(a);

const options = [
  { id: "t", text: "V", isCorrect: true },
  { id: "f", text: "F", isCorrect: false },
];

interface Quiz {
  quizId: string;
  courseId: string;
  ids: string[];
}

/** A quiz of two true/false questions (1 point each) with `settings`, in tenant `t`. */
async function quiz(t: TestTenant, settings: object = { timeLimitSeconds: 600 }): Promise<Quiz> {
  const api = as(t);
  const lesson = await makeQuizLesson(h.database.db, t.id);
  const bank = (await api("POST", "/question-banks", { title: "Bank" })).json();
  const created = await api("POST", `/question-banks/${bank.id}/questions`, {
    items: [
      { type: "true_false", stem: "1", options },
      { type: "true_false", stem: "2", options },
    ],
  });
  const ids = created.json().data.map((q: { id: string }) => q.id) as string[];
  const res = await api("POST", "/quizzes", {
    lessonId: lesson.lessonId,
    sections: [{ source: { type: "fixed", questionIds: ids } }],
    ...settings,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { quizId: res.json().id, courseId: lesson.courseId, ids };
}

async function student(t: TestTenant, q: Quiz): Promise<string> {
  const user = await makeUser(h, t, "student");
  await enroll(h.database.db, t.id, user.id, q.courseId);
  return user.id;
}

async function startFor(t: TestTenant, q: Quiz, userId?: string) {
  const res = await as(t)("POST", `/quizzes/${q.quizId}/attempts`, {
    userId: userId ?? (await student(t, q)),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; userId: string; startedAt: string; endsAt: string | null };
}

/** Moves an attempt `seconds` into the past, as if it had started that much earlier: its end moves with it. */
const age = (t: TestTenant, attemptId: string, seconds: number) =>
  h.database.db
    .update(quizAttempts)
    .set({
      startedAt: sql`started_at - make_interval(secs => ${seconds})`,
      endsAt: sql`ends_at - make_interval(secs => ${seconds})`,
    })
    .where(and(eq(quizAttempts.tenantId, t.id), eq(quizAttempts.id, attemptId)));

const row = async (t: TestTenant, id: string) =>
  (
    await h.database.db
      .select()
      .from(quizAttempts)
      .where(and(eq(quizAttempts.tenantId, t.id), eq(quizAttempts.id, id)))
  )[0];

const submittedEvents = async (attemptId: string) =>
  (await h.database.db.select().from(platformEvents).where(eq(platformEvents.type, "quiz_submitted"))).filter(
    (e) => (e.data as { attemptId: string }).attemptId === attemptId,
  );

const right = (q: Quiz) => q.ids.map((questionId) => ({ questionId, response: "t" }));

describe("a timed attempt", () => {
  it("ends its time limit after its start, and is submitted within it", async () => {
    const q = await quiz(a);
    const attempt = await startFor(a, q);
    expect(Date.parse(attempt.endsAt as string) - Date.parse(attempt.startedAt)).toBe(600_000);
    expect(attempt).toMatchObject({ extraTimeSeconds: 0 });
    const done = await A("POST", `/quiz-attempts/${attempt.id}/submit`, { answers: right(q) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: "graded", percent: 100, endsAt: attempt.endsAt });

    // The limit is pinned at the start: a change to the quiz moves no open attempt's end, only later ones'.
    const open = await startFor(a, q);
    expect((await A("PATCH", `/quizzes/${q.quizId}`, { timeLimitSeconds: 60 })).statusCode).toBe(200);
    expect((await row(a, open.id))?.endsAt).toBe(open.endsAt);
    const later = await startFor(a, q);
    expect(Date.parse(later.endsAt as string) - Date.parse(later.startedAt)).toBe(60_000);

    // An untimed quiz's attempts have no end.
    const untimed = await quiz(a, {});
    expect((await startFor(a, untimed)).endsAt).toBeNull();
  });

  it("takes a submission within the grace after its end, and refuses a later one with 409", async () => {
    const q = await quiz(a, { timeLimitSeconds: 600, allowedAttempts: 3 });
    const late = await startFor(a, q);
    await age(a, late.id, 600 + GRACE_SECONDS + 5);
    const refused = await A("POST", `/quiz-attempts/${late.id}/submit`, { answers: right(q) });
    expect(refused.statusCode, refused.body).toBe(409);
    const endsAt = (await row(a, late.id))?.endsAt as string;
    expect(refused.json()).toMatchObject({ error: "conflict" });
    expect(refused.json().message).toContain(endsAt);
    expect(await row(a, late.id)).toMatchObject({ status: "in_progress", submittedAt: null, score: null });
    expect(await submittedEvents(late.id)).toHaveLength(0);
    // The message in every language.
    for (const language of ["en-US", "es-ES", "fr-FR", "pt-BR"]) {
      const res = await h.inject({
        method: "POST",
        url: `/api/institution/quiz-attempts/${late.id}/submit`,
        headers: {
          host: a.host,
          authorization: `Bearer ${keys.get(a.id)}`,
          "content-type": "application/json",
          "accept-language": language,
        },
        payload: { answers: [] },
      });
      expect(res.statusCode).toBe(409);
      expect(res.headers["content-language"]).toBe(language);
      expect(res.json().message).toContain(endsAt);
    }

    // A new start closes it first, as the worker would: no answers, at its end, by the system.
    const another = await A("POST", `/quizzes/${q.quizId}/attempts`, { userId: late.userId });
    expect(another.statusCode, another.body).toBe(201);
    expect(another.json()).toMatchObject({ attemptNumber: 2, status: "in_progress" });
    expect(await row(a, late.id)).toMatchObject({ status: "graded", score: 0, submittedAt: endsAt });
    const events = await submittedEvents(late.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.actor).toMatchObject({ type: "system" });
  });

  it("takes a submission a few seconds after the end, inside the grace", async () => {
    const q = await quiz(a);
    const attempt = await startFor(a, q);
    await age(a, attempt.id, 600 + 10);
    const done = await A("POST", `/quiz-attempts/${attempt.id}/submit`, { answers: right(q) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: "graded", percent: 100 });
    expect(done.json().timeSpentSeconds).toBeGreaterThanOrEqual(610);
  });

  it("refuses a reported time spent beyond the limit and grace, on submit and on a one-call record", async () => {
    const q = await quiz(a);
    const attempt = await startFor(a, q);
    const over = await A("POST", `/quiz-attempts/${attempt.id}/submit`, {
      answers: right(q),
      timeSpentSeconds: 600 + GRACE_SECONDS + 1,
    });
    expect(over.statusCode, over.body).toBe(400);
    expect(fieldsOf(over)).toEqual(["timeSpentSeconds"]);
    expect((await row(a, attempt.id))?.status).toBe("in_progress");
    const within = await A("POST", `/quiz-attempts/${attempt.id}/submit`, {
      answers: right(q),
      timeSpentSeconds: 600 + GRACE_SECONDS,
    });
    expect(within.statusCode, within.body).toBe(200);

    // An attempt taken elsewhere and recorded in one call: over the limit, nothing is recorded.
    const userId = await student(a, q);
    const external = (timeSpentSeconds: number) =>
      A("POST", `/quizzes/${q.quizId}/attempts`, { userId, answers: right(q), timeSpentSeconds });
    const refused = await external(700);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(fieldsOf(refused)).toEqual(["timeSpentSeconds"]);
    const none = await h.database.db.select().from(quizAttempts).where(eq(quizAttempts.userId, userId));
    expect(none).toEqual([]);
    const recorded = await external(590);
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(recorded.json()).toMatchObject({ status: "graded", timeSpentSeconds: 590 });
  });

  it("moves its end by the extra time a teacher gives, while it is open", async () => {
    const q = await quiz(a);
    const attempt = await startFor(a, q);
    await age(a, attempt.id, 600 + GRACE_SECONDS + 60);
    const url = `/quiz-attempts/${attempt.id}`;
    const extended = await A("PATCH", url, { extraTimeSeconds: 300 });
    expect(extended.statusCode, extended.body).toBe(200);
    const { startedAt, endsAt } = extended.json();
    expect(extended.json()).toMatchObject({ status: "in_progress", extraTimeSeconds: 300 });
    expect(Date.parse(endsAt) - Date.parse(startedAt)).toBe(900_000);
    // The extra time replaces what was given before; it is not added to it.
    const less = await A("PATCH", url, { extraTimeSeconds: 240 });
    expect(Date.parse(less.json().endsAt) - Date.parse(startedAt)).toBe(840_000);
    expect(await A("PATCH", url, { extraTimeSeconds: 604_801 })).toMatchObject({ statusCode: 400 });
    expect(await A("PATCH", url, {})).toMatchObject({ statusCode: 400 });

    const done = await A("POST", `/quiz-attempts/${attempt.id}/submit`, { answers: right(q) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().timeSpentSeconds).toBeLessThanOrEqual(840);
    const closed = await A("PATCH", url, { extraTimeSeconds: 600 });
    expect(closed.statusCode).toBe(409);
    expect((await row(a, attempt.id))?.extraTimeSeconds).toBe(240);

    // Untimed: recorded, and still no end.
    const untimed = await startFor(a, await quiz(a, {}));
    const noLimit = await A("PATCH", `/quiz-attempts/${untimed.id}`, { extraTimeSeconds: 120 });
    expect(noLimit.json()).toMatchObject({ extraTimeSeconds: 120, endsAt: null });
  });

  it("is another tenant's business: its attempt and extra time are 404 elsewhere", async () => {
    const q = await quiz(a);
    const attempt = await startFor(a, q);
    const foreign = await as(b)("PATCH", `/quiz-attempts/${attempt.id}`, { extraTimeSeconds: 600 });
    expect(foreign.statusCode).toBe(404);
    expect(await row(a, attempt.id)).toMatchObject({ extraTimeSeconds: 0, endsAt: attempt.endsAt });
  });
});

describe("the worker's time-up pass", () => {
  it("runs every minute, and finds what is due through the index of open timed attempts", async () => {
    expect(JOBS.find((j) => j.name === "quiz-attempts-time-up")?.everyMs).toBe(60_000);
    // With sequential scans priced out, a plan on the partial index shows its predicate covers the claim's.
    const plan = await h.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const res = (await tx.execute(sql`EXPLAIN ${claimDue(100)}`)) as unknown as {
        rows: Record<string, string>[];
      };
      return res.rows.map((r) => Object.values(r).join(" ")).join("\n");
    });
    expect(plan).toContain("quiz_attempts_open_ends_idx");
  });

  it("closes overdue attempts of every tenant once, a bounded batch at a time, and nothing else", async () => {
    await closeOverdueAttempts(h.database.db); // what earlier tests left overdue
    const qa = await quiz(a, { timeLimitSeconds: 600, allowedAttempts: 1 });
    const item = await A("POST", `/courses/${qa.courseId}/grade-items`, {
      title: "Timed quiz",
      maxPoints: 20,
      sourceType: "quiz",
      sourceId: qa.quizId,
    });
    expect(item.statusCode, item.body).toBe(201);
    const overdueA = await startFor(a, qa);
    await age(a, overdueA.id, 600 + GRACE_SECONDS + 200);
    const notDue = await startFor(a, qa);
    const inGrace = await startFor(a, qa);
    await age(a, inGrace.id, 600 + 10);
    const untimed = await startFor(a, await quiz(a, {}));
    await age(a, untimed.id, 100_000);
    const qb = await quiz(b);
    const overdueB = await startFor(b, qb);
    await age(b, overdueB.id, 600 + GRACE_SECONDS + 100);

    // One attempt per batch, one batch: the attempt longest overdue goes first, the rest wait for the next pass.
    const first = await closeOverdueAttempts(h.database.db, 1, 1);
    expect(first).toEqual({ closed: 1, failed: [] });
    expect((await row(a, overdueA.id))?.status).toBe("graded");
    expect((await row(b, overdueB.id))?.status).toBe("in_progress");
    // (Counts from here on may include another file's attempts on a shared PostgreSQL: the rows tell.)
    expect((await closeOverdueAttempts(h.database.db)).failed).toEqual([]);
    expect((await closeOverdueAttempts(h.database.db)).closed).toBe(0);

    const closedA = await row(a, overdueA.id);
    expect(closedA).toMatchObject({
      status: "graded",
      score: 0,
      maxScore: 2,
      percent: 0,
      passed: false,
      submittedAt: closedA?.endsAt,
      timeSpentSeconds: 600,
    });
    expect(closedA?.answers).toEqual(
      qa.ids.map((questionId) => expect.objectContaining({ questionId, response: null, pointsAwarded: 0 })),
    );
    for (const [t, id] of [
      [a, overdueA.id],
      [b, overdueB.id],
    ] as const) {
      const events = await submittedEvents(id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ tenantId: t.id, actor: { type: "system" } });
      expect(events[0]?.data).toMatchObject({ score: 0, percent: 0, gradingStatus: "graded" });
    }
    expect((await row(b, overdueB.id))?.status).toBe("graded");
    // The grade item fed by the quiz has its grade, as for any submission.
    const [grade] = await h.database.db
      .select()
      .from(grades)
      .where(and(eq(grades.tenantId, a.id), eq(grades.userId, overdueA.userId)));
    expect(grade).toMatchObject({ gradeItemId: item.json().id, score: 0, status: "graded", source: "auto" });
    // Not yet due, within the grace, untimed: left open.
    const open = await h.database.db
      .select({ id: quizAttempts.id, status: quizAttempts.status })
      .from(quizAttempts)
      .where(inArray(quizAttempts.id, [notDue.id, inGrace.id, untimed.id]));
    expect(open.map((r) => r.status)).toEqual(["in_progress", "in_progress", "in_progress"]);

    // The closed attempt used the quiz's only allowed attempt.
    const again = await A("POST", `/quizzes/${qa.quizId}/attempts`, { userId: overdueA.userId });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("conflict");
  });

  it("reports an attempt it cannot close and still closes the others of the batch", async () => {
    await closeOverdueAttempts(h.database.db);
    const q = await quiz(a);
    const broken = await startFor(a, q);
    const fine = await startFor(a, q);
    await age(a, broken.id, 600 + GRACE_SECONDS + 300);
    await age(a, fine.id, 600 + GRACE_SECONDS + 100);
    // Questions that are not a list cannot be scored: the attempt's savepoint rolls back, not the batch.
    await h.database.db
      .update(quizAttempts)
      .set({ questions: sql`'{"not": "a list"}'::jsonb` })
      .where(and(eq(quizAttempts.tenantId, a.id), eq(quizAttempts.id, broken.id)));
    const pass = await closeOverdueAttempts(h.database.db);
    expect(pass.failed).toEqual([{ tenantId: a.id, id: broken.id, error: expect.any(String) }]);
    expect(await row(a, broken.id)).toMatchObject({ status: "in_progress", submittedAt: null });
    expect(await submittedEvents(broken.id)).toHaveLength(0);
    expect((await row(a, fine.id))?.status).toBe("graded");
    expect(await submittedEvents(fine.id)).toHaveLength(1);
    // Gone, so no later pass (or file on a shared database) meets it.
    await h.database.db
      .delete(quizAttempts)
      .where(and(eq(quizAttempts.tenantId, a.id), eq(quizAttempts.id, broken.id)));
  });
});
