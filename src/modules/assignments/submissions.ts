import type { Executor } from "../../db/client.js";
import type { Principal } from "../../platform/auth/types.js";
import { notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { assertReadable } from "../courses/audience.js";
import { assertTeaches } from "../gradebook/service.js";
import { assignmentOfLesson } from "./repo.js";
import * as repo from "./submission-repo.js";
import type { ListSubmissionsQueryType, SubmissionDetailRecord } from "./submission-schemas.js";

/** A student's own session: it reads and submits its own submissions only. */
export const learnerOf = (principal: Principal): string | undefined =>
  principal.kind === "session" && principal.role === "student" ? principal.userId : undefined;

export async function detailOf(
  db: Executor,
  tenantId: string,
  row: repo.SubmissionRow,
): Promise<SubmissionDetailRecord> {
  const history = row.attempt > 1 ? await repo.historyOf(db, tenantId, row.id) : [];
  return { ...row, history } as SubmissionDetailRecord;
}

/**
 * 404 unless the lesson has assignment settings in the tenant; then a learner must be able to read the lesson
 * (404 otherwise) and staff must teach its course (403).
 */
export async function lessonAssignment(
  db: Executor,
  tenantId: string,
  principal: Principal,
  lessonId: string,
  lock?: "share",
) {
  const assignment = await assignmentOfLesson(db, tenantId, lessonId, lock);
  if (assignment === undefined) throw notFound();
  const learner = learnerOf(principal);
  if (learner === undefined) await assertTeaches(db, tenantId, principal, assignment.courseId);
  else
    await assertReadable(
      db,
      tenantId,
      { kind: "learner", userId: learner },
      { courseId: assignment.courseId, lessonId },
    );
  return assignment;
}

/** A lesson's submissions, oldest first; a student's list holds its own alone. */
export async function listSubmissions(
  db: Executor,
  tenantId: string,
  principal: Principal,
  lessonId: string,
  query: ListSubmissionsQueryType,
) {
  await lessonAssignment(db, tenantId, principal, lessonId);
  const learner = learnerOf(principal);
  const userId = learner ?? query.userId?.toLowerCase();
  if (learner !== undefined && query.userId !== undefined && query.userId.toLowerCase() !== learner) {
    return cappedPageEnvelope([], { total: 0, relation: "eq" }, pageWindow(query));
  }
  const window = pageWindow(query);
  const filter = { userId, status: query.status };
  const [rows, total] = await Promise.all([
    repo.listSubmissions(db, tenantId, lessonId, filter, window),
    repo.countSubmissions(db, tenantId, lessonId, filter),
  ]);
  return cappedPageEnvelope(rows, total, window);
}

/** One submission with its earlier attempts: a student's own only (another's is 404), staff of its course. */
export async function getSubmission(
  db: Executor,
  tenantId: string,
  principal: Principal,
  id: string,
): Promise<SubmissionDetailRecord> {
  const row = await repo.findSubmission(db, tenantId, id);
  if (row === undefined) throw notFound();
  const learner = learnerOf(principal);
  if (learner !== undefined && row.userId !== learner) throw notFound();
  if (learner === undefined) await assertTeaches(db, tenantId, principal, row.courseId);
  return detailOf(db, tenantId, row);
}
