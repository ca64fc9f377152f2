/**
 * A real term, end to end through the public API (issue 5): a course with modules and lessons, a quiz drawn from
 * a question bank, a class of students created and enrolled in bulk, lessons completed, quizzes submitted — then
 * enrollment progress, the events written, and the deliveries a webhook endpoint and an automation made to a local
 * receiver through the real delivery loop, signed per Standard Webhooks.
 */
import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformEvents } from "../src/db/schema/index.js";
import { type DeliveryLoop, startDeliveryLoop } from "../src/modules/outbox/worker.js";
import { callApi, type Method, useApi } from "../src/test-support/api.js";
import { makeKey } from "../src/test-support/harness.js";
import { type ReceivedRequest, type Receiver, startReceiver, until } from "../src/test-support/receiver.js";

const STUDENTS = 24;
/** Students 0..9 finish the course (half of them pass the quiz); 10..14 read the first lesson only. */
const FINISHERS = 10;
const STARTERS = 5;

let receiver: Receiver;
let loop: DeliveryLoop | undefined;
let received: ReceivedRequest[];

beforeAll(async () => {
  receiver = await startReceiver();
  received = receiver.received;
});
afterAll(() => receiver.close());
// Declared between the receiver and the delivery loop: the loop stops first, then the harness, then the receiver.
const { h, tenants } = useApi({
  env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32", PLAN_STUDENT_LIMITS: JSON.stringify({ free: 1000 }) },
  tenants: ["Colégio Horizonte"],
});
const [t] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, t, [], {
    rateTier: "custom",
    customLimits: { perHour: 100_000, perMinute: 10_000 },
  });
});
afterAll(async () => {
  await loop?.stop();
});

async function api(method: Method, url: string, payload?: unknown, expected?: number) {
  const res = await callApi(h, t, key, method, url, payload, { language: null });
  if (expected !== undefined) expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(expected);
  return res.json();
}

async function eventsOf(type: string) {
  return h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, type)));
}

describe("a term", () => {
  it("runs from an empty institution to graded, completed enrollments and delivered webhooks", async () => {
    // Integrations first, so every event of the term fans out to them.
    const endpoint = await api(
      "POST",
      "/webhooks",
      { url: receiver.url("/erp"), eventTypes: ["enrollment_completed", "quiz_submitted"] },
      201,
    );
    const automation = await api(
      "POST",
      "/automations",
      {
        name: "Passed the quiz",
        trigger: { event: "quiz_submitted" },
        condition: { all: [{ field: "event.passed", op: "eq", value: true }] },
        action: {
          type: "send_webhook",
          url: receiver.url("/crm"),
          body: '{"student": "{{user.email}}", "percent": {{event.percent}}}',
        },
      },
      201,
    );

    // The course: two modules, a text and a video lesson, then a quiz lesson.
    const course = await api("POST", "/courses", { title: "Álgebra Linear", description: "Turma 2027" }, 201);
    const basics = await api("POST", `/courses/${course.id}/modules`, { title: "Vetores" }, 201);
    const exam = await api("POST", `/courses/${course.id}/modules`, { title: "Avaliação" }, 201);
    const reading = await api(
      "POST",
      `/modules/${basics.id}/lessons`,
      { title: "O que é um vetor", type: "text", status: "published", content: { bodyHtml: "<p>Setas</p>" } },
      201,
    );
    const video = await api(
      "POST",
      `/modules/${basics.id}/lessons`,
      {
        title: "Soma de vetores",
        type: "video",
        status: "published",
        content: { url: "https://videos.example.com/soma.mp4" },
      },
      201,
    );
    const quizLesson = await api(
      "POST",
      `/modules/${exam.id}/lessons`,
      { title: "Prova", type: "quiz", status: "published" },
      201,
    );
    expect(quizLesson.completionCriteria).toEqual({ type: "submit" });
    const outline = await api("GET", `/courses/${course.id}/outline`, undefined, 200);
    expect(
      outline.modules.map((m: { lessons: { title: string }[] }) => m.lessons.map((l) => l.title)),
    ).toEqual([["O que é um vetor", "Soma de vetores"], ["Prova"]]);

    const bank = await api("POST", "/question-banks", { title: "Álgebra", courseId: course.id }, 201);
    const questions = await api(
      "POST",
      `/question-banks/${bank.id}/questions`,
      {
        items: [
          {
            type: "single_choice",
            stem: "Qual vetor é nulo?",
            options: [
              { id: "a", text: "(0, 0)", isCorrect: true },
              { id: "b", text: "(1, 0)", isCorrect: false },
            ],
          },
          { type: "numeric", stem: "|(3, 4)| = ?", numeric: { value: 5, tolerance: 0 } },
        ],
      },
      201,
    );
    const [choiceId, numericId] = questions.data.map((q: { id: string }) => q.id);
    const quiz = await api(
      "POST",
      "/quizzes",
      {
        lessonId: quizLesson.id,
        passPercent: 100,
        sections: [{ source: { type: "fixed", questionIds: [choiceId, numericId] } }],
      },
      201,
    );
    expect(quiz.pointsPossible).toBe(2);
    expect((await api("POST", `/courses/${course.id}/publish`, {}, 200)).status).toBe("published");

    // A class of students, created and enrolled in bulk; the repeats are skipped, not duplicated.
    const klass = await api(
      "POST",
      "/classes",
      { name: "Turma A", code: "ALG-A", courseIds: [course.id] },
      201,
    );
    const people = Array.from({ length: STUDENTS }, (_, i) => ({
      name: `Estudante ${i}`,
      email: `estudante${i}@horizonte.edu.br`,
      role: "student",
      classGroupIds: [klass.id],
    }));
    const created = await api("POST", "/users/bulk", { items: [...people, people[0]] }, 200);
    expect(created.summary).toMatchObject({ created: STUDENTS, skipped: 1, failed: 0 });
    const students = created.results
      .filter((r: { status: string }) => r.status === "created")
      .map((r: { user: { id: string; email: string } }) => r.user);
    expect((await api("GET", `/classes/${klass.id}`, undefined, 200)).memberCount).toBe(STUDENTS);

    const enrolled = await api(
      "POST",
      "/enrollments/bulk",
      {
        items: [
          ...students.map((s: { id: string }) => ({
            userId: s.id,
            courseId: course.id,
            classGroupId: klass.id,
          })),
          { email: students[0].email.toUpperCase(), courseId: course.id },
        ],
      },
      200,
    );
    expect(enrolled.summary).toMatchObject({ created: STUDENTS, skipped: 1, failed: 0 });

    // The term: finishers read both lessons and take the quiz; the even ones answer everything right.
    for (let i = 0; i < FINISHERS; i++) {
      const student = students[i] as { id: string };
      for (const lesson of [reading, video]) {
        await api("PUT", `/lessons/${lesson.id}/completions/${student.id}`, { timeSpentSeconds: 300 }, 201);
      }
      const right = i % 2 === 0;
      const attempt = await api(
        "POST",
        `/quizzes/${quiz.id}/attempts`,
        {
          userId: student.id,
          answers: [
            { questionId: choiceId, response: "a" },
            { questionId: numericId, response: right ? 5 : 4 },
          ],
        },
        201,
      );
      expect(attempt).toMatchObject({ status: "graded", percent: right ? 100 : 50, passed: right });
    }
    for (let i = FINISHERS; i < FINISHERS + STARTERS; i++) {
      await api("PUT", `/lessons/${reading.id}/completions/${(students[i] as { id: string }).id}`, {}, 201);
    }
    // A repeated completion changes nothing.
    await api("PUT", `/lessons/${reading.id}/completions/${(students[0] as { id: string }).id}`, {}, 200);

    // Progress, computed from the completions.
    const page = await api("GET", `/enrollments?courseId=${course.id}&perPage=100`, undefined, 200);
    expect(page.pagination.total).toBe(STUDENTS);
    const byUser = new Map(page.data.map((e: { userId: string }) => [e.userId, e] as const)) as Map<
      string,
      { status: string; progressPercent: number; lessonsCompleted: number; lessonsTotal: number }
    >;
    students.forEach((s: { id: string }, i: number) => {
      const e = byUser.get(s.id);
      if (i < FINISHERS) {
        expect(e).toMatchObject({ status: "completed", progressPercent: 100, lessonsCompleted: 3 });
      } else if (i < FINISHERS + STARTERS) {
        expect(e).toMatchObject({ status: "active", progressPercent: 33.33, lessonsCompleted: 1 });
      } else {
        expect(e).toMatchObject({ status: "active", progressPercent: 0, lessonsCompleted: 0 });
      }
      expect(e?.lessonsTotal).toBe(3);
    });

    // The events, each written with its change.
    const count = async (type: string) => (await eventsOf(type)).length;
    const createdStudents = (await eventsOf("user_created")).filter(
      (e) => (e.data as { role: string }).role === "student",
    );
    expect(createdStudents).toHaveLength(STUDENTS);
    expect(await count("class_member_added")).toBe(STUDENTS);
    expect(await count("enrollment_created")).toBe(STUDENTS);
    expect(await count("lesson_completed")).toBe(FINISHERS * 3 + STARTERS);
    expect(await count("module_completed")).toBe(FINISHERS * 2);
    expect(await count("quiz_submitted")).toBe(FINISHERS);
    expect(await count("enrollment_completed")).toBe(FINISHERS);
    expect(await count("course_published")).toBe(1);

    // The deliveries, through the real loop: the endpoint gets every completion and submission; the automation
    // only the passing submissions, with its own body.
    const passing = FINISHERS / 2;
    const expected = FINISHERS + FINISHERS + passing;
    loop = startDeliveryLoop(h.ctx, h.app.log, { pollMs: 20, tenantIds: [t.id] });
    await until(() => received.length >= expected, `${expected} deliveries`);
    await loop.stop();
    loop = undefined;
    expect(received).toHaveLength(expected);

    const erp = received.filter((r) => r.url === "/erp");
    const crm = received.filter((r) => r.url === "/crm");
    const verify = (secret: string, r: (typeof received)[number]) =>
      new Webhook(secret).verify(r.body, {
        "webhook-id": r.headers["webhook-id"] as string,
        "webhook-timestamp": r.headers["webhook-timestamp"] as string,
        "webhook-signature": r.headers["webhook-signature"] as string,
      });
    for (const r of erp) verify(endpoint.signingSecret, r);
    for (const r of crm) verify(automation.signingSecret, r);
    expect(new Set(received.map((r) => r.headers["webhook-id"])).size).toBe(expected);

    const erpTypes = erp.map((r) => JSON.parse(r.body).type as string).sort();
    expect(erpTypes).toEqual([
      ...Array(FINISHERS).fill("enrollment_completed"),
      ...Array(FINISHERS).fill("quiz_submitted"),
    ]);
    const completedIds = new Set(
      erp
        .map((r) => JSON.parse(r.body))
        .filter((b) => b.type === "enrollment_completed")
        .map((b) => b.data.enrollmentId),
    );
    expect(completedIds.size).toBe(FINISHERS);

    const passers = students.filter((_: unknown, i: number) => i < FINISHERS && i % 2 === 0);
    expect(crm.map((r) => JSON.parse(r.body)).sort((x, y) => x.student.localeCompare(y.student))).toEqual(
      passers
        .map((s: { email: string }) => ({ student: s.email, percent: 100 }))
        .sort((x: { student: string }, y: { student: string }) => x.student.localeCompare(y.student)),
    );

    // The integrator can read the log of what was sent.
    const log = await api("GET", `/automations/${automation.id}/deliveries`, undefined, 200);
    expect(log.pagination.total).toBe(passing);
    expect(log.data.every((d: { status: string }) => d.status === "succeeded")).toBe(true);
  });
});
