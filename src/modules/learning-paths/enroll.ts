import type { PlanConfig } from "../../config/plans.js";
import { inChunks } from "../../db/chunks.js";
import type { Executor } from "../../db/client.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import type { BulkStatus } from "../../platform/http/bulk.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { bulkEnroll } from "../enrollments/bulk-enroll.js";
import { findUsers, type UserBrief } from "../enrollments/lookups.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { type EventInput, emitEvents } from "../events/emit.js";
import * as enrollmentRepo from "./enrollment-repo.js";
import type { ListPathEnrollmentsQueryType, PathEnrollmentRecord } from "./enrollment-schemas.js";
import { refreshPathProgress } from "./progress.js";
import * as repo from "./repo.js";

export interface PathEnrollResult {
  index: number;
  userId: string;
  status: BulkStatus;
  enrollment?: PathEnrollmentRecord;
  courses?: { enrolled: number; alreadyEnrolled: number };
  reason?: "already_enrolled";
  error?: AppError;
}

/**
 * Enrolls up to 1,000 users in a path and, as students, in every course of it, in one transaction and a number of
 * statements that does not grow with the users (beyond the bulk insert's chunks of rows):
 *   1 the path (share-locked, so its courses cannot change meanwhile), 1 its courses, 1 the users;
 *   the course enrollments through `bulkEnroll` (users × courses items: the same student-limit seats, taken in one
 *   locked step for the request, the same skipping of current enrollments, `enrollment_created` per enrollment
 *   made, source `learning_path`); 1 insert of the path enrollments; the progress counted for the new ones (users
 *   may have completed some courses already: 2 statements, and `learning_path_completed` when that completes the
 *   path); 1 read of the enrollments; and `learning_path_enrolled` per user enrolled.
 * Per user: `created`; `skipped` (`already_enrolled`: enrolled in the path already, or named earlier in the
 * request), whose missing course enrollments are still made (a path's new courses reach its users this way);
 * `failed` for an unknown user (`validation_failed`) or a non-student past the plan's student limit
 * (`student_limit_reached`: such a user gets no seat, no course enrollment and no path enrollment).
 */
export async function enrollInPath(
  db: Executor,
  plans: PlanConfig,
  tenantId: string,
  actor: Actor,
  pathId: string,
  userIds: readonly string[],
): Promise<PathEnrollResult[]> {
  return db.transaction(async (tx) => {
    const path = await repo.findPath(tx, tenantId, pathId, "share");
    if (path === undefined) throw notFound();
    const courses = (await repo.coursesOf(tx, tenantId, [pathId])).get(pathId) ?? [];
    const ids = userIds.map((id) => id.toLowerCase());
    const users = new Map(
      (await findUsers(tx, tenantId, [...new Set(ids)], [], "share")).map((u) => [u.id, u] as const),
    );
    const results: PathEnrollResult[] = [];
    const named = new Set<string>();
    const candidates: { index: number; user: UserBrief }[] = [];
    ids.forEach((id, index) => {
      const user = users.get(id);
      if (named.has(id)) results.push({ index, userId: id, status: "skipped", reason: "already_enrolled" });
      else if (user === undefined) {
        const details = [{ field: `userIds[${index}]`, key: "field.unknown_user" as const, params: { id } }];
        results.push({
          index,
          userId: id,
          status: "failed",
          error: new AppError("validation_failed", { details }),
        });
      } else candidates.push({ index, user });
      named.add(id);
    });

    const items = candidates.flatMap(({ user }) =>
      courses.map((c) => ({ userId: user.id, courseId: c.courseId, role: "student" as const })),
    );
    const outcomes =
      items.length === 0
        ? []
        : await bulkEnroll(tx, plans, tenantId, actor, items, { source: "learning_path" });
    const admitted: { index: number; user: UserBrief; enrolled: number; already: number }[] = [];
    candidates.forEach(({ index, user }, c) => {
      const mine = outcomes.slice(c * courses.length, (c + 1) * courses.length);
      const failure = mine.find((o) => o.status === "failed")?.error;
      if (failure !== undefined) results.push({ index, userId: user.id, status: "failed", error: failure });
      else {
        const enrolled = mine.filter((o) => o.status === "created").length;
        admitted.push({ index, user, enrolled, already: mine.length - enrolled });
      }
    });

    const admittedIds = admitted.map((a) => a.user.id);
    const created = await enrollmentRepo.insertPathEnrollments(tx, tenantId, pathId, admittedIds);
    if (created.size > 0) await refreshPathProgress(tx, tenantId, { pathId, userIds: [...created] }, actor);
    const rows = await enrollmentRepo.findPathEnrollments(tx, tenantId, pathId, admittedIds);
    const events: EventInput[] = [];
    for (const a of admitted) {
      const row = rows.get(a.user.id);
      const enrollment = row === undefined ? undefined : enrollmentRepo.withTotal(row, path.requiredCount);
      const isNew = created.has(a.user.id);
      results.push({
        index: a.index,
        userId: a.user.id,
        status: isNew ? "created" : "skipped",
        ...(isNew ? {} : { reason: "already_enrolled" as const }),
        ...(enrollment === undefined ? {} : { enrollment }),
        courses: { enrolled: a.enrolled, alreadyEnrolled: a.already },
      });
      if (isNew && enrollment !== undefined) {
        events.push({
          type: "learning_path_enrolled",
          data: {
            learningPathId: pathId,
            userId: a.user.id,
            title: path.title,
            enrolledAt: enrollment.enrolledAt,
            enrollment,
          },
          actor: eventActorOf(actor),
          subject: subjectOf(a.user),
        });
      }
    }
    await inChunks(events, (chunk) => emitEvents(tx, tenantId, chunk).then(() => undefined));
    return results.sort((x, y) => x.index - y.index);
  });
}

/** A path's enrollments, newest first unless asked otherwise, with each user's progress as stored. */
export async function listPathEnrollments(
  db: Executor,
  tenantId: string,
  pathId: string,
  query: ListPathEnrollmentsQueryType,
) {
  const path = await repo.findPath(db, tenantId, pathId);
  if (path === undefined) throw notFound();
  const window = pageWindow(query);
  const filter = { pathId, status: query.status };
  const [rows, total] = await Promise.all([
    enrollmentRepo.listPathEnrollments(db, tenantId, filter, query.sort ?? "-enrolledAt", window),
    enrollmentRepo.countPathEnrollments(db, tenantId, filter),
  ]);
  return pageEnvelope(
    rows.map((r) => enrollmentRepo.withTotal(r, path.requiredCount)),
    total,
    window,
  );
}

/**
 * Takes a user out of the path (404 when not in it). Only the path enrollment goes: the user's course
 * enrollments, made by the path or not, stay as they are (drop them through `/enrollments` if wanted).
 */
export async function unenrollFromPath(
  db: Executor,
  tenantId: string,
  pathId: string,
  userId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await repo.findPath(tx, tenantId, pathId)) === undefined) throw notFound();
    if (!(await enrollmentRepo.deletePathEnrollment(tx, tenantId, pathId, userId))) throw notFound();
  });
}
