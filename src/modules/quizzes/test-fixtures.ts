/**
 * Rows the quiz tests and the security matrix need from other groups (a course with a lesson, an enrollment),
 * written straight through Drizzle so these tests do not depend on those groups' routes. Test support only.
 */
import type { Executor } from "../../db/client.js";
import { courseModules, courses, lessons } from "../../db/schema/index.js";

export interface QuizLesson {
  courseId: string;
  moduleId: string;
  lessonId: string;
}

/** A course with one module holding one lesson of `type` (default `quiz`). */
export async function makeQuizLesson(db: Executor, tenantId: string, type = "quiz"): Promise<QuizLesson> {
  const [course] = await db
    .insert(courses)
    .values({ tenantId, title: "Quiz course", status: "published" })
    .returning({ id: courses.id });
  const courseId = (course as { id: string }).id;
  const [module] = await db
    .insert(courseModules)
    .values({ tenantId, courseId, title: "Module", position: 1, status: "published" })
    .returning({ id: courseModules.id });
  const moduleId = (module as { id: string }).id;
  const [lesson] = await db
    .insert(lessons)
    .values({ tenantId, courseId, moduleId, title: "Quiz", type, position: 1, status: "published" })
    .returning({ id: lessons.id });
  return { courseId, moduleId, lessonId: (lesson as { id: string }).id };
}

/** An enrollment written directly: the catalogue's helper, under the name these tests use. */
export { enrollDirectly as enroll } from "../../test-support/catalogue.js";
