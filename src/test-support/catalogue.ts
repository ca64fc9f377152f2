import type { Executor } from "../db/client.js";
import { courseModules, courses, enrollments, lessons } from "../db/schema/index.js";

/**
 * Courses, modules and lessons written straight through Drizzle, so tests of enrollments and completions do not
 * depend on the course-content routes (built and tested on their own).
 */
export interface LessonSpec {
  title?: string;
  /** Default `published`. */
  status?: "draft" | "published";
  /** Default true. */
  required?: boolean;
}

export interface ModuleSpec {
  title?: string;
  completionRequirement?: "all" | "any";
  lessons: LessonSpec[];
}

export interface TestCourse {
  courseId: string;
  modules: { id: string; lessonIds: string[] }[];
  /** Every lesson id in outline order. */
  lessonIds: string[];
}

export async function makeCourse(
  db: Executor,
  tenantId: string,
  modules: ModuleSpec[] = [{ lessons: [{}, {}] }],
  title = "Test course",
): Promise<TestCourse> {
  const [course] = await db
    .insert(courses)
    .values({ tenantId, title, status: "published" })
    .returning({ id: courses.id });
  const courseId = (course as { id: string }).id;
  const out: TestCourse = { courseId, modules: [], lessonIds: [] };
  for (const [m, spec] of modules.entries()) {
    const [module] = await db
      .insert(courseModules)
      .values({
        tenantId,
        courseId,
        title: spec.title ?? `Module ${m + 1}`,
        position: m + 1,
        status: "published",
        completionRequirement: spec.completionRequirement ?? "all",
      })
      .returning({ id: courseModules.id });
    const moduleId = (module as { id: string }).id;
    const lessonIds: string[] = [];
    if (spec.lessons.length > 0) {
      const rows = await db
        .insert(lessons)
        .values(
          spec.lessons.map((lesson, l) => ({
            tenantId,
            courseId,
            moduleId,
            title: lesson.title ?? `Lesson ${m + 1}.${l + 1}`,
            type: "text",
            position: l + 1,
            status: lesson.status ?? "published",
            requiredForCompletion: lesson.required ?? true,
          })),
        )
        .returning({ id: lessons.id, position: lessons.position });
      rows.sort((a, b) => a.position - b.position);
      lessonIds.push(...rows.map((r) => r.id));
    }
    out.modules.push({ id: moduleId, lessonIds });
    out.lessonIds.push(...lessonIds);
  }
  return out;
}

/** An active enrollment written directly; returns its id. */
export async function enrollDirectly(
  db: Executor,
  tenantId: string,
  userId: string,
  courseId: string,
  status = "active",
): Promise<string> {
  const [row] = await db
    .insert(enrollments)
    .values({ tenantId, userId, courseId, status })
    .returning({ id: enrollments.id });
  return (row as { id: string }).id;
}
