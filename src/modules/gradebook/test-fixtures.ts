/**
 * Rows the gradebook tests and the security matrix need from other groups (a published course, students and
 * teachers enrolled in it), written straight through Drizzle. Test support only.
 */
import type { Executor } from "../../db/client.js";
import { courses, enrollments } from "../../db/schema/index.js";

export async function publishedCourse(
  db: Executor,
  tenantId: string,
  title = "Gradebook course",
): Promise<string> {
  const [row] = await db
    .insert(courses)
    .values({ tenantId, title, status: "published" })
    .returning({ id: courses.id });
  return (row as { id: string }).id;
}

export async function enrollAs(
  db: Executor,
  tenantId: string,
  userId: string,
  courseId: string,
  role: "student" | "teacher" = "student",
  status = "active",
): Promise<string> {
  const [row] = await db
    .insert(enrollments)
    .values({ tenantId, userId, courseId, role, status })
    .returning({ id: enrollments.id });
  return (row as { id: string }).id;
}
