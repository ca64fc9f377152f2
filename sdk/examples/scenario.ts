/**
 * A typed tour of the SDK as an integrator writes it, against the published package: list, create, an
 * automation, enroll, delete. sdk/test/package.test.ts installs the packed SDK beside this file, compiles it
 * with `tsc --strict` and runs it against a live server.
 */
import { type AulaOptions, createAula, type EventOf, isAulaError } from "@aula/sdk";

export interface ScenarioResult {
  /** Courses the institution had before the scenario, counted by iterating every page. */
  coursesBefore: number;
  courseId: string;
  studentId: string;
  enrollmentId: string;
  automationId: string;
  /** The enrollment as the automation's webhook announced it, verified with its secret. */
  announced: EventOf<"enrollment_created"> | undefined;
}

export interface ScenarioHooks {
  /** Called once the student is enrolled: returns the webhook event the automation's receiver verified, if any. */
  afterEnroll?: (signingSecret: string) => Promise<EventOf<"enrollment_created"> | undefined>;
}

export async function scenario(
  options: AulaOptions,
  hookUrl: string,
  hooks: ScenarioHooks = {},
): Promise<ScenarioResult> {
  const aula = createAula(options);

  // List: every course, page after page.
  let coursesBefore = 0;
  for await (const course of aula.courses.list({ query: { perPage: 100 } })) {
    if (course.status !== "archived") coursesBefore += 1;
  }

  // Create: a published course and a student.
  const course = await aula.courses.create({
    body: { title: "Introdução à Programação", status: "published" },
  });
  const student = await aula.users.create({
    body: { name: "Bruno Lima", email: `bruno.${Date.now()}@example.test`, role: "student" },
  });

  // Automation: each new enrollment is announced to our receiver, signed with the automation's secret.
  const automation = await aula.automations.create({
    body: {
      name: "Boas-vindas",
      trigger: { event: "enrollment_created" },
      action: { type: "send_webhook", url: hookUrl },
    },
  });

  // Enroll.
  const enrollment = await aula.enrollments.create({ body: { userId: student.id, courseId: course.id } });
  const announced = await hooks.afterEnroll?.(automation.signingSecret);

  // Delete, and see the course gone as a typed error.
  await aula.enrollments.delete({ path: { id: enrollment.id } });
  await aula.automations.delete({ path: { id: automation.id } });
  await aula.courses.delete({ path: { id: course.id } });
  try {
    await aula.courses.get({ path: { id: course.id } });
    throw new Error("the deleted course is still there");
  } catch (err) {
    if (!isAulaError(err) || err.code !== "not_found") throw err;
  }

  return {
    coursesBefore,
    courseId: course.id,
    studentId: student.id,
    enrollmentId: enrollment.id,
    automationId: automation.id,
    announced,
  };
}
