/**
 * A path enrollment's progress, kept on write: `required_completed` counts the required courses of the path the
 * user holds a completed enrollment in. Every change that can move it calls `refreshPathProgress` in its own
 * transaction (a course completion and its reset, a completed enrollment dropped or deleted, the path's courses
 * replaced, a course deleted), and the count is taken again for the path enrollments concerned, exactly (a
 * path has at most 50 courses), rather than incremented: a repeat or a concurrent change cannot skew it. The
 * completion that finishes a path emits `learning_path_completed` through the outbox in that same transaction,
 * and issues the certificate of the template the path names, if any (`certificate_issued`, and its mail).
 */
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { toIso } from "../../db/schema/columns.js";
import {
  enrollments,
  learningPathCourses,
  learningPathEnrollments,
  learningPaths,
} from "../../db/schema/index.js";
import { issueOnPathCompletion } from "../certificates/issue.js";
import { findUsers } from "../enrollments/lookups.js";
import { percentOf } from "../enrollments/schemas.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { type EventInput, emitEvents } from "../events/emit.js";
import type { PathEnrollmentRecord } from "./enrollment-schemas.js";

/** Whose path enrollments to count again: a learner's paths holding a course, a path's (or some of its users'), or several paths'. */
export type ProgressTarget =
  | { userId: string; courseId: string }
  | { pathId: string; userIds?: readonly string[] }
  | { pathIds: readonly string[] };

function targetSql(tenantId: string, target: ProgressTarget) {
  if ("courseId" in target) {
    return sql`pe.user_id = ${target.userId} AND pe.path_id IN (SELECT pc.path_id FROM ${learningPathCourses} pc
      WHERE pc.tenant_id = ${tenantId} AND pc.course_id = ${target.courseId})`;
  }
  if ("pathIds" in target) return sql`pe.path_id = ANY(${sql.param([...target.pathIds])}::uuid[])`;
  return target.userIds === undefined
    ? sql`pe.path_id = ${target.pathId}`
    : sql`pe.path_id = ${target.pathId} AND pe.user_id = ANY(${sql.param([...target.userIds])}::uuid[])`;
}

interface Changed {
  path_id: string;
  user_id: string;
  status: "active" | "completed";
  old_status: string;
  required_completed: number;
  total: number;
  title: string;
  enrolled_at: string | Date;
  completed_at: string | Date | null;
}

/**
 * Counts again the progress of the target's path enrollments, inside the caller's transaction, and emits
 * `learning_path_completed` for each that this change completes. The rows are locked first, in a statement of
 * their own, so that the count (a later statement, with a later snapshot) sees every completion committed by a
 * transaction this one waited for: two courses of a path completed at once cannot both miss each other.
 */
export async function refreshPathProgress(
  tx: Executor,
  tenantId: string,
  target: ProgressTarget,
  actor: Actor,
): Promise<void> {
  const where = targetSql(tenantId, target);
  const locked = (await tx.execute(sql`SELECT pe.path_id FROM ${learningPathEnrollments} pe
    WHERE pe.tenant_id = ${tenantId} AND ${where} ORDER BY pe.path_id, pe.user_id FOR UPDATE`)) as unknown as {
    rows: unknown[];
  };
  if (locked.rows.length === 0) return;
  const complete = sql`c.total > 0 AND c.done >= c.total`;
  const result = (await tx.execute(sql`
    WITH c AS (
      SELECT pe.path_id, pe.user_id, pe.status AS old_status, p.required_count AS total, p.title,
        (SELECT count(*)::int FROM ${learningPathCourses} pc
           JOIN ${enrollments} e ON e.tenant_id = pc.tenant_id AND e.course_id = pc.course_id
             AND e.user_id = pe.user_id AND e.status = 'completed'
         WHERE pc.tenant_id = pe.tenant_id AND pc.path_id = pe.path_id AND pc.required) AS done
      FROM ${learningPathEnrollments} pe
      JOIN ${learningPaths} p ON p.tenant_id = pe.tenant_id AND p.id = pe.path_id
      WHERE pe.tenant_id = ${tenantId} AND ${where}
    )
    UPDATE ${learningPathEnrollments} AS t SET
      required_completed = c.done,
      status = CASE WHEN ${complete} THEN 'completed' ELSE 'active' END,
      completed_at = CASE WHEN ${complete} THEN coalesce(t.completed_at, now()) END,
      updated_at = now()
    FROM c
    WHERE t.tenant_id = ${tenantId} AND t.path_id = c.path_id AND t.user_id = c.user_id
      AND (t.required_completed <> c.done OR t.status <> CASE WHEN ${complete} THEN 'completed' ELSE 'active' END)
    RETURNING t.path_id, t.user_id, t.status, c.old_status, t.required_completed, c.total, c.title,
      t.enrolled_at, t.completed_at`)) as unknown as { rows: Changed[] };
  const finished = result.rows.filter((r) => r.status === "completed" && r.old_status !== "completed");
  if (finished.length === 0) return;
  const users = new Map(
    (await findUsers(tx, tenantId, [...new Set(finished.map((r) => r.user_id))], [])).map((u) => [u.id, u]),
  );
  const events: EventInput[] = finished.map((r) => {
    const enrollment = pathEnrollmentOf(r);
    const user = users.get(r.user_id);
    return {
      type: "learning_path_completed",
      data: {
        learningPathId: r.path_id,
        userId: r.user_id,
        title: r.title,
        completedAt: enrollment.completedAt as string,
        requiredCompleted: enrollment.requiredCompleted,
        requiredTotal: enrollment.requiredTotal,
        enrollment,
      },
      actor: eventActorOf(actor),
      subject: user === undefined ? null : subjectOf(user),
    };
  });
  // A path that names a certificate template issues its certificate (and queues its mail) in this transaction.
  for (const r of finished) {
    const user = users.get(r.user_id);
    if (user === undefined) continue;
    const issued = await issueOnPathCompletion(
      tx,
      tenantId,
      { pathId: r.path_id, userId: r.user_id },
      subjectOf(user),
      eventActorOf(actor),
    );
    if (issued !== undefined) events.push(issued);
  }
  await emitEvents(tx, tenantId, events);
}

function pathEnrollmentOf(r: Changed): PathEnrollmentRecord {
  return {
    learningPathId: r.path_id,
    userId: r.user_id,
    status: r.status,
    requiredCompleted: r.required_completed,
    requiredTotal: r.total,
    progressPercent: percentOf(r.required_completed, r.total),
    enrolledAt: toIso(r.enrolled_at),
    completedAt: r.completed_at === null ? null : toIso(r.completed_at),
  };
}

/**
 * A course about to be deleted leaves every path holding it, inside the deletion's transaction: its rows and the
 * prerequisites naming it go, each path's required count is taken again, and so is the progress of the users
 * enrolled in those paths (a path may thereby be complete: it emits `learning_path_completed`). A path can be left
 * with no course this way; it then completes no one until courses are given to it again.
 */
export async function dropCourseFromPaths(
  tx: Executor,
  tenantId: string,
  courseId: string,
  actor: Actor,
): Promise<void> {
  const held = (await tx.execute(sql`SELECT p.id FROM ${learningPaths} p
    WHERE p.tenant_id = ${tenantId} AND p.id IN (SELECT pc.path_id FROM ${learningPathCourses} pc
      WHERE pc.tenant_id = ${tenantId} AND pc.course_id = ${courseId})
    ORDER BY p.id FOR NO KEY UPDATE`)) as unknown as { rows: { id: string }[] };
  const pathIds = held.rows.map((r) => r.id);
  if (pathIds.length === 0) return;
  const paths = sql.param(pathIds);
  await tx.execute(sql`DELETE FROM ${learningPathCourses}
    WHERE tenant_id = ${tenantId} AND path_id = ANY(${paths}::uuid[]) AND course_id = ${courseId}`);
  await tx.execute(sql`UPDATE ${learningPathCourses} SET prerequisites = array_remove(prerequisites, ${courseId}::uuid)
    WHERE tenant_id = ${tenantId} AND path_id = ANY(${paths}::uuid[]) AND ${courseId}::uuid = ANY(prerequisites)`);
  await tx.execute(sql`UPDATE ${learningPaths} p SET updated_at = now(),
      required_count = (SELECT count(*)::int FROM ${learningPathCourses} pc
        WHERE pc.tenant_id = p.tenant_id AND pc.path_id = p.id AND pc.required)
    WHERE p.tenant_id = ${tenantId} AND p.id = ANY(${paths}::uuid[])`);
  await refreshPathProgress(tx, tenantId, { pathIds }, actor);
}
