import type { Executor } from "../../db/client.js";
import { signedIn, staff } from "../../platform/auth/access.js";
import { AppError } from "../../platform/errors/app-error.js";
import type { Actor } from "../events/actor.js";
import { assertTeaches } from "../gradebook/service.js";

export const tags = ["rubrics"];
export const BASE = "/api/institution";

/** Keys with the scope, administrators' and teachers' sessions. */
export const read = staff("rubrics:read");
export const write = staff("rubrics:write");
/** The same, and students' sessions: a rubric they may read, their own self-assessments. */
export const learnerRead = signedIn("rubrics:read");
export const learnerWrite = signedIn("rubrics:write");

/** The student whose session this is, or undefined for staff, keys and the platform. */
export const learnerOf = (actor: Actor): string | undefined =>
  actor.kind === "session" && actor.role === "student" ? actor.userId : undefined;

export const TEACHER_RULE =
  "Teachers' sessions read every rubric and change institution rubrics; a course rubric only in a course they " +
  "teach (a current `teacher` or `assistant` enrollment), else 403 `forbidden`. Administrators' sessions and " +
  "API keys act on every rubric.";

/** 403 unless the actor may change this rubric (or assess in this course): see TEACHER_RULE. */
export async function assertCourseStaff(
  db: Executor,
  tenantId: string,
  actor: Actor,
  courseId: string | null,
): Promise<void> {
  if (courseId === null) return;
  try {
    await assertTeaches(db, tenantId, actor, courseId);
  } catch (err) {
    if (err instanceof AppError && err.code === "forbidden")
      throw new AppError("forbidden", { messageKey: "forbidden.rubric_teacher" });
    throw err;
  }
}
