import type { Executor } from "../../db/client.js";
import type { Principal } from "../../platform/auth/types.js";
import { notFound } from "../../platform/errors/app-error.js";
import { assertReadable } from "../courses/audience.js";
import { courseExists, lockCourseStructure } from "../courses/repo.js";
import type { Actor } from "../events/actor.js";
import { assertTeaches, type GradeReader, gradeReaderOf } from "./access.js";

/** 404 unless the course is the tenant's, then 403 unless the actor may act on its gradebook as staff. */
export async function staffCourse(db: Executor, tenantId: string, actor: Actor, courseId: string) {
  if (!(await courseExists(db, tenantId, courseId))) throw notFound();
  await assertTeaches(db, tenantId, actor, courseId);
}

/**
 * The same, taking the course's lock for the rest of the transaction: every change to a course's gradebook
 * (grades, items, categories) and the course grades it recomputes take turns, so no course grade is computed
 * from a state another transaction is changing.
 */
export async function lockStaffCourse(tx: Executor, tenantId: string, actor: Actor, courseId: string) {
  if (!(await lockCourseStructure(tx, tenantId, courseId))) throw notFound();
  await assertTeaches(tx, tenantId, actor, courseId);
}

/** Who reads this course's gradebook: staff as above, or a student of it (404 unless it may read the course). */
export async function readableCourse(
  db: Executor,
  tenantId: string,
  principal: Principal,
  courseId: string,
): Promise<GradeReader> {
  const reader = gradeReaderOf(principal);
  if (reader.kind === "learner") await assertReadable(db, tenantId, reader, { courseId });
  else await staffCourse(db, tenantId, principal, courseId);
  return reader;
}
