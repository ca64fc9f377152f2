/**
 * A graded term, end to end through the public API (issue 23): weighted categories with a dropped-lowest rule, a
 * quiz, an assignment graded with a rubric, a late submission with its deduction, an excused student, hidden grades
 * posted later; the course grades and letters checked against a hand computation; an automation on `grade_posted`
 * that receives exactly the posted grades through the real delivery loop; and a learning path whose completion
 * issues a certificate whose PDF (read back by PDF.js) names the student and the path, and whose code resolves on
 * the public verification page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DeliveryLoop, startDeliveryLoop } from "../src/modules/outbox/worker.js";
import { callApi, type Method, useApi } from "../src/test-support/api.js";
import { makeKey } from "../src/test-support/harness.js";
import { pdfText } from "../src/test-support/pdf-text.js";
import { type Receiver, startReceiver, until } from "../src/test-support/receiver.js";

let receiver: Receiver;
let loop: DeliveryLoop | undefined;
/** What the SIS endpoint received: each grade_posted delivery's body, parsed. */
const received = () =>
  receiver.received.map((r) => JSON.parse(r.body) as { gradeItemId: string; userId: string; score: number });

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
// Between the receiver and the loop: the loop stops first, then the harness, then the receiver.
const { h, tenants } = useApi({
  env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32", PLAN_STUDENT_LIMITS: JSON.stringify({ free: 1000 }) },
  tenants: ["Instituto Aurora"],
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

const textOf = async (bytes: Buffer) => (await pdfText(bytes)).text;

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const NAMES = ["Ana Beatriz Löw", "Bruno Çelik", "Carla Núñez", "Diego Ørsted"];
const PATH = "Trilha de Cálculo Aplicado";

/** The exam scores (of 100) each student gets; Diego (3) is excused from the third exam. */
const EXAMS = [
  [90, 80, 70],
  [60, 100, 75],
  [50, 65, 80],
  [95, 85, null],
];
/** The quiz: right (2 of 2, 100 %) or half right (1 of 2, 50 %). */
const QUIZ_RIGHT = [true, false, true, false];
/** Rubric points per criterion (Argumentação of 10, Clareza of 5, in all 15). */
const RUBRIC = [
  [10, 5],
  [10, 2],
  [10, 5],
  [5, 4],
];
/** Carla (2) hands in late: 49 hours after the due date, 3 started days at 10 % of 10 points each. */
const LATE = 2;

/*
 * The hand computation. Exams (weight 60, drop lowest 1), each of 100:
 *   Ana   90, 80, 70 → drop 70 → 170/200 = 85 %
 *   Bruno 60,100, 75 → drop 60 → 175/200 = 87.5 %
 *   Carla 50, 65, 80 → drop 50 → 145/200 = 72.5 %
 *   Diego 95, 85, excused → two items, drop 85 → 95/100 = 95 %
 * Homework (weight 40): the assignment item (20 points) and the quiz item (10 points).
 *   Assignment: rubric total / 15 × the assignment's 10 points, minus the late deduction, as a percent of 20:
 *     Ana 15 → 10 → 20; Bruno 12 → 8 → 16; Carla 15 → 10 − 3 = 7 → 14 (late); Diego 9 → 6 → 12
 *   Quiz: 100 % → 10, 50 % → 5
 *   Ana (20+10)/30 = 100 %; Bruno (16+5)/30 = 70 %; Carla (14+10)/30 = 80 %; Diego (12+5)/30 = 56.667 %
 * Before the exams are posted the student's view holds homework only:
 *   current = homework alone; final = 0.6 × 0 (three exam items counting 0, one dropped) + 0.4 × homework
 *   Ana 100 / 40; Bruno 70 / 28; Carla 80 / 32; Diego 56.67 / 22.67
 * After posting, everything graded (current = final):
 *   Ana   0.6 × 85   + 0.4 × 100    = 51   + 40     = 91    → A
 *   Bruno 0.6 × 87.5 + 0.4 × 70     = 52.5 + 28     = 80.5  → B
 *   Carla 0.6 × 72.5 + 0.4 × 80     = 43.5 + 32     = 75.5  → C
 *   Diego 0.6 × 95   + 0.4 × 56.667 = 57   + 22.667 = 79.67 → C
 */
const BEFORE_POST = [
  { currentScore: 100, finalScore: 40 },
  { currentScore: 70, finalScore: 28 },
  { currentScore: 80, finalScore: 32 },
  { currentScore: 56.67, finalScore: 22.67 },
];
const AFTER_POST = [
  { score: 91, letter: "A" },
  { score: 80.5, letter: "B" },
  { score: 75.5, letter: "C" },
  { score: 79.67, letter: "C" },
];
const ASSIGNMENT_ITEM_SCORES = [20, 16, 14, 12];

describe("a graded term", () => {
  it("grades, posts, notifies and certifies as the hand computation says", async () => {
    const automation = await api(
      "POST",
      "/automations",
      {
        name: "Grades to the SIS",
        trigger: { event: "grade_posted" },
        action: {
          type: "send_webhook",
          url: receiver.url("/sis"),
          body: '{"gradeItemId": "{{event.gradeItemId}}", "userId": "{{event.userId}}", "score": {{event.score}}}',
        },
      },
      201,
    );
    expect(automation.id).toBeTypeOf("string");

    // Course 1: a reading, a quiz and an assignment. Course 2: one reading.
    const course = await api("POST", "/courses", { title: "Cálculo I" }, 201);
    const unit = await api("POST", `/courses/${course.id}/modules`, { title: "Limites" }, 201);
    const lesson = (title: string, type: string, extra: Record<string, unknown> = {}) =>
      api("POST", `/modules/${unit.id}/lessons`, { title, type, status: "published", ...extra }, 201);
    const reading = await lesson("Introdução", "text", { content: { bodyHtml: "<p>ε e δ</p>" } });
    const quizLesson = await lesson("Quiz de limites", "quiz");
    const essayLesson = await lesson("Ensaio", "assignment");
    const bank = await api("POST", "/question-banks", { title: "Limites", courseId: course.id }, 201);
    const questions = await api(
      "POST",
      `/question-banks/${bank.id}/questions`,
      {
        items: [
          {
            type: "single_choice",
            stem: "lim x→0 sin(x)/x?",
            options: [
              { id: "a", text: "1", isCorrect: true },
              { id: "b", text: "0", isCorrect: false },
            ],
          },
          { type: "numeric", stem: "lim x→2 x² = ?", numeric: { value: 4, tolerance: 0 } },
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
        passPercent: 50,
        sections: [{ source: { type: "fixed", questionIds: [choiceId, numericId] } }],
      },
      201,
    );
    const assignment = await api(
      "POST",
      "/assignments",
      {
        lessonId: essayLesson.id,
        dueAt: at(-49 * HOUR),
        allowedKinds: ["text"],
        pointsPossible: 10,
        latePolicy: { deductionPercent: 10, interval: "day", maxDeductionPercent: 50 },
      },
      201,
    );
    await api("POST", `/courses/${course.id}/publish`, {}, 200);
    const second = await api("POST", "/courses", { title: "Cálculo II" }, 201);
    const secondUnit = await api("POST", `/courses/${second.id}/modules`, { title: "Integrais" }, 201);
    const secondReading = await api(
      "POST",
      `/modules/${secondUnit.id}/lessons`,
      { title: "Área", type: "text", status: "published", content: { bodyHtml: "<p>∫</p>" } },
      201,
    );
    await api("POST", `/courses/${second.id}/publish`, {}, 200);

    // The path, its certificate template, and the class enrolled through the path (students of both courses).
    const path = await api(
      "POST",
      "/learning-paths",
      { title: PATH, status: "published", courses: [{ courseId: course.id }, { courseId: second.id }] },
      201,
    );
    await api(
      "POST",
      "/certificate-templates",
      {
        name: "Trilha",
        layout: {
          title: "Certificado",
          body: "concluiu a {{course.title}} em {{issuedAt}} ({{institution.name}}).",
          footer: "Código: {{serial}}",
          locale: "pt-BR",
        },
        learningPathIds: [path.id],
      },
      201,
    );
    const created = await api(
      "POST",
      "/users/bulk",
      {
        items: NAMES.map((name, i) => ({ name, email: `aluno${i}@aurora.edu.br`, role: "student" })),
      },
      200,
    );
    const students: { id: string; name: string }[] = created.results.map((r: { user: unknown }) => r.user);
    const enrolled = await api(
      "POST",
      `/learning-paths/${path.id}/enrollments`,
      { userIds: students.map((s) => s.id) },
      200,
    );
    expect(enrolled.results.map((r: { status: string }) => r.status)).toEqual(Array(4).fill("created"));

    // The gradebook: Exams 60 % dropping the lowest of three hidden items, Homework 40 % (assignment, quiz).
    const exams = await api(
      "POST",
      `/courses/${course.id}/grade-categories`,
      { name: "Provas", weight: 60, dropLowest: 1 },
      201,
    );
    const homework = await api(
      "POST",
      `/courses/${course.id}/grade-categories`,
      { name: "Trabalhos", weight: 40 },
      201,
    );
    const examItems: string[] = [];
    for (const n of [1, 2, 3]) {
      const item = await api(
        "POST",
        `/courses/${course.id}/grade-items`,
        { title: `Prova ${n}`, maxPoints: 100, categoryId: exams.id, postPolicy: "manual" },
        201,
      );
      examItems.push(item.id);
    }
    const essayItem = await api(
      "POST",
      `/courses/${course.id}/grade-items`,
      {
        title: "Ensaio",
        maxPoints: 20,
        categoryId: homework.id,
        sourceType: "assignment",
        sourceId: assignment.id,
        postPolicy: "automatic",
      },
      201,
    );
    const quizItem = await api(
      "POST",
      `/courses/${course.id}/grade-items`,
      {
        title: "Quiz",
        maxPoints: 10,
        categoryId: homework.id,
        sourceType: "quiz",
        sourceId: quiz.id,
        postPolicy: "automatic",
      },
      201,
    );

    // The quiz (its grade is written on submission).
    for (const [i, s] of students.entries()) {
      const attempt = await api(
        "POST",
        `/quizzes/${quiz.id}/attempts`,
        {
          userId: s.id,
          answers: [
            { questionId: choiceId, response: "a" },
            { questionId: numericId, response: QUIZ_RIGHT[i] ? 4 : 3 },
          ],
        },
        201,
      );
      expect(attempt).toMatchObject({ status: "graded", percent: QUIZ_RIGHT[i] ? 100 : 50 });
    }

    // The assignment: everyone but Carla has an extension; all hand in; each is graded with the course rubric.
    const rubric = await api(
      "POST",
      "/rubrics",
      {
        title: "Ensaio",
        courseId: course.id,
        criteria: [
          {
            description: "Argumentação",
            points: 10,
            ratings: [
              { description: "Completa", points: 10 },
              { description: "Parcial", points: 5 },
              { description: "Ausente", points: 0 },
            ],
          },
          {
            description: "Clareza",
            points: 5,
            useRange: true,
            ratings: [
              { description: "Clara", points: 5 },
              { description: "Confusa", points: 2 },
            ],
          },
        ],
      },
      201,
    );
    for (const [i, s] of students.entries()) {
      if (i !== LATE) {
        const extension = await callApi(
          h,
          t,
          key,
          "PUT",
          `/assignments/${assignment.id}/extensions/${s.id}`,
          {
            dueAt: at(7 * 24 * HOUR),
          },
        );
        expect(extension.statusCode, extension.body).toBeLessThan(300);
      }
      const submission = await api(
        "POST",
        `/lessons/${essayLesson.id}/submissions`,
        { userId: s.id, bodyText: `Ensaio de ${s.name}` },
        201,
      );
      expect(submission.late).toBe(i === LATE);
      const [first, clarity] = RUBRIC[i] as number[];
      const assessment = await api(
        "POST",
        `/rubrics/${rubric.id}/assessments`,
        {
          targetType: "submission",
          targetId: submission.id,
          criterionScores: [
            { criterionId: rubric.criteria[0].id, points: first },
            { criterionId: rubric.criteria[1].id, points: clarity },
          ],
        },
        201,
      );
      expect(assessment.gradeItemIds).toEqual([essayItem.id]);
      const graded = await api("GET", `/submissions/${submission.id}`, undefined, 200);
      expect(graded.rubricAssessmentId).toBe(assessment.id);
      expect(graded.deductedPoints).toBe(i === LATE ? 3 : 0);
    }
    const essayGrades = await api("GET", `/grade-items/${essayItem.id}/grades?perPage=100`, undefined, 200);
    const byUser = new Map(essayGrades.data.map((g: { userId: string }) => [g.userId, g]));
    students.forEach((s, i) => {
      expect(byUser.get(s.id)).toMatchObject({
        score: ASSIGNMENT_ITEM_SCORES[i],
        status: i === LATE ? "late" : "graded",
      });
    });

    // The exams, hidden by their manual post policy; Diego excused from the third.
    const bulk = await api(
      "POST",
      `/courses/${course.id}/grades/bulk`,
      {
        items: students.flatMap((s, i) =>
          examItems.map((gradeItemId, n) => {
            const score = (EXAMS[i] as (number | null)[])[n];
            return score === null || score === undefined
              ? { gradeItemId, userId: s.id, status: "excused" }
              : { gradeItemId, userId: s.id, score };
          }),
        ),
      },
      200,
    );
    expect(bulk.results.every((r: { status: string }) => r.status === "created")).toBe(true);

    // Delivered so far: the eight automatic grades (quiz, assignment), none of the hidden exams.
    loop = startDeliveryLoop(h.ctx, h.app.log, { pollMs: 20, tenantIds: [t.id] });
    await until(() => receiver.received.length >= 8, "8 deliveries");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(8);
    const pairs = (items: string[], users = students) =>
      items.flatMap((item) => users.map((s) => `${item}:${s.id}`)).sort();
    expect(
      received()
        .map((r) => `${r.gradeItemId}:${r.userId}`)
        .sort(),
    ).toEqual(pairs([essayItem.id, quizItem.id]));

    const gradebook = async () => {
      const book = await api("GET", `/courses/${course.id}/gradebook?perPage=100`, undefined, 200);
      const rows = new Map(
        book.data.map((r: { userId: string; courseGrade: unknown }) => [r.userId, r.courseGrade]),
      );
      return students.map((s) => rows.get(s.id) as Record<string, number | string | null>);
    };
    const before = await gradebook();
    students.forEach((_, i) => {
      expect(before[i]).toMatchObject(BEFORE_POST[i] as object);
    });

    // Posting: the eleven exam grades with a score reach the automation; the excuse is posted without an event.
    const posted = await api("POST", `/courses/${course.id}/grades/post`, { gradeItemIds: examItems }, 200);
    expect(posted.posted).toBe(12);
    await until(() => receiver.received.length >= 19, "19 deliveries");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(19);
    const examPairs = pairs(examItems).filter((p) => p !== `${examItems[2]}:${students[3]?.id}`);
    expect(
      received()
        .map((r) => `${r.gradeItemId}:${r.userId}`)
        .sort(),
    ).toEqual([...pairs([essayItem.id, quizItem.id]), ...examPairs].sort());
    const carlaExam = received().find((r) => r.gradeItemId === examItems[0] && r.userId === students[2]?.id);
    expect(carlaExam?.score).toBe(50);

    const after = await gradebook();
    students.forEach((_, i) => {
      const { score, letter } = AFTER_POST[i] as { score: number; letter: string };
      expect(after[i]).toEqual({
        currentScore: score,
        finalScore: score,
        unpostedCurrentScore: score,
        unpostedFinalScore: score,
        currentLetter: letter,
        finalLetter: letter,
        unpostedCurrentLetter: letter,
        unpostedFinalLetter: letter,
      });
    });
    await loop.stop();
    loop = undefined;

    // Completing the path: the reading of course 1 (the quiz and essay completed on submission) and course 2's;
    // Diego does not finish course 2, so he gets no certificate.
    for (const [i, s] of students.entries()) {
      await api("PUT", `/lessons/${reading.id}/completions/${s.id}`, {}, 201);
      if (i !== 3) await api("PUT", `/lessons/${secondReading.id}/completions/${s.id}`, {}, 201);
    }
    const certificates = await api(
      "GET",
      `/certificates?learningPathId=${path.id}&perPage=100`,
      undefined,
      200,
    );
    expect(certificates.data.map((c: { userId: string }) => c.userId).sort()).toEqual(
      students
        .slice(0, 3)
        .map((s) => s.id)
        .sort(),
    );
    for (const cert of certificates.data as { id: string; userId: string; serial: string }[]) {
      const student = students.find((s) => s.id === cert.userId) as { name: string };
      const pdf = await callApi(h, t, key, "GET", `/certificates/${cert.id}/pdf`, undefined, {
        language: null,
      });
      expect(pdf.statusCode).toBe(200);
      const text = await textOf(pdf.rawPayload);
      expect(text).toContain(student.name);
      expect(text).toContain(PATH);
      expect(text).toContain(cert.serial);
      const page = await callApi(h, t, {}, "GET", `/verify/${cert.serial}`, undefined, {
        prefix: "",
        language: "pt-BR",
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(student.name);
      expect(page.body).toContain(PATH);
      expect(page.body).toContain('data-status="valid"');
    }
  });
});
