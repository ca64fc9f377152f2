import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { enrollments } from "../../db/schema/index.js";
import { signedIn, staff } from "../../platform/auth/access.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import type { Actor } from "../events/actor.js";

export const tags = ["gradebook"];
export const BASE = "/api/institution";

/** Keys with `grades:read`, and every session: a student's sees its own posted grades only. */
export const read = signedIn("grades:read");
/** Keys with `grades:read`, and teachers' and administrators' sessions (the change log). */
export const staffRead = staff("grades:read");
export const write = staff("grades:write");

export const TEACHER_RULE =
  "A teacher's session acts only on the courses it teaches (a current `teacher` or `assistant` enrollment): " +
  "another course's gradebook is 403 `forbidden`. Administrators' sessions and API keys act on every course.";
export const LEARNER_RULE =
  "A student's session sees the published course it is enrolled in (active or completed; 404 otherwise), and " +
  "in it only its own grades that are posted, on items visible to students.";

/** Who reads: staff (keys, administrators, teachers of the course) or the student themself. */
export type GradeReader = { kind: "staff" } | { kind: "learner"; userId: string };

export function gradeReaderOf(principal: Principal): GradeReader {
  return principal.kind === "session" && principal.role === "student"
    ? { kind: "learner", userId: principal.userId }
    : { kind: "staff" };
}

/** Whether this user teaches the course: a current teacher or assistant enrollment. */
async function teaches(db: Executor, tenantId: string, userId: string, courseId: string): Promise<boolean> {
  const rows = await db
    .select({ id: enrollments.id })
    .from(enrollments)
    .where(
      and(
        eq(enrollments.tenantId, tenantId),
        eq(enrollments.userId, userId),
        eq(enrollments.courseId, courseId),
        sql`${enrollments.role} IN ('teacher', 'assistant')`,
        sql`${enrollments.status} IN ('active', 'completed')`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * 403 unless the actor may read or change this course's gradebook as staff: keys, administrators and the system
 * may; a teacher only for a course it teaches. The course must already be known to exist (404 comes first).
 */
export async function assertTeaches(
  db: Executor,
  tenantId: string,
  actor: Actor,
  courseId: string,
): Promise<void> {
  if (actor.kind !== "session" || actor.role === "institution_admin") return;
  if (actor.role === "teacher" && (await teaches(db, tenantId, actor.userId, courseId))) return;
  if (actor.role === "student") throw notFound();
  throw new AppError("forbidden", { messageKey: "forbidden.gradebook_teacher" });
}
