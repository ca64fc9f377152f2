import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { parentValueCounter, readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { submissions, submissionVersions, users } from "../../db/schema/index.js";
import { type CappedTotal, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import {
  HISTORY_LIMIT,
  type SubmissionRecord,
  type SubmissionStatus,
  SubmissionVersion,
} from "./submission-schemas.js";

export const submissionColumns = {
  id: submissions.id,
  assignmentId: submissions.assignmentId,
  lessonId: submissions.lessonId,
  courseId: submissions.courseId,
  userId: submissions.userId,
  enrollmentId: submissions.enrollmentId,
  attempt: submissions.attempt,
  status: submissions.status,
  bodyText: submissions.bodyText,
  attachmentMediaIds: submissions.attachmentMediaIds,
  url: submissions.url,
  submittedAt: submissions.submittedAt,
  late: submissions.late,
  secondsLate: submissions.secondsLate,
  score: submissions.score,
  deductedPoints: submissions.deductedPoints,
  finalScore: submissions.finalScore,
  feedback: submissions.feedback,
  rubricAssessmentId: submissions.rubricAssessmentId,
  gradedAt: submissions.gradedAt,
  gradedBy: submissions.gradedBy,
  createdAt: submissions.createdAt,
  updatedAt: submissions.updatedAt,
};

export type SubmissionRow = SubmissionRecord;

export interface SubmissionFilter {
  userId?: string;
  status?: string;
}

function where(tenantId: Bindable, lessonId: Bindable, f: { user?: Bindable; status?: Bindable }): SQL {
  return and(
    eq(submissions.tenantId, tenantId),
    eq(submissions.lessonId, lessonId),
    f.user === undefined ? undefined : eq(submissions.userId, f.user),
    f.status === undefined ? undefined : eq(submissions.status, f.status),
  ) as SQL;
}

/** Oldest first (the order students handed in their first attempt), ties by id. */
const ORDER = [asc(submissions.createdAt), asc(submissions.id)];

export async function listSubmissions(
  db: Executor,
  tenantId: string,
  lessonId: string,
  filter: SubmissionFilter,
  window: PageWindow,
): Promise<SubmissionRow[]> {
  const rows = await runPageQuery(
    db,
    "submission",
    tenantId,
    { lesson: lessonId, user: filter.userId, status: filter.status },
    window,
    (p, name) =>
      db
        .select(submissionColumns)
        .from(submissions)
        .where(where(p.tenantId, p.lesson as Bindable, p))
        .orderBy(...ORDER)
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
  );
  return rows as SubmissionRow[];
}

/**
 * Exact totals: a lesson's submissions, or those of one status, from the counters the triggers keep; a student
 * has at most one submission per lesson, so a `userId` filter counts its one row through the unique index.
 */
export async function countSubmissions(
  db: Executor,
  tenantId: string,
  lessonId: string,
  filter: SubmissionFilter,
): Promise<CappedTotal> {
  if (filter.userId !== undefined) {
    const rows = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(submissions)
      .where(where(tenantId, lessonId, { user: filter.userId, status: filter.status }));
    return exactTotal(rows[0]?.n ?? 0);
  }
  const counter =
    filter.status === undefined
      ? `submissions:lesson_id:${lessonId.toLowerCase()}`
      : parentValueCounter("submissions", { column: "lesson_id", id: lessonId }, "status", filter.status);
  return exactTotal(await readCounter(db, tenantId, counter));
}

export async function findSubmission(
  db: Executor,
  tenantId: string,
  id: string,
  lock?: "update",
): Promise<SubmissionRow | undefined> {
  const query = db
    .select(submissionColumns)
    .from(submissions)
    .where(and(eq(submissions.tenantId, tenantId), eq(submissions.id, id)));
  const rows = await (lock === undefined ? query : query.for(lock));
  return rows[0] as SubmissionRow | undefined;
}

export async function submissionOf(
  tx: Executor,
  tenantId: string,
  lessonId: string,
  userId: string,
): Promise<SubmissionRow | undefined> {
  const rows = await tx
    .select(submissionColumns)
    .from(submissions)
    .where(where(tenantId, lessonId, { user: userId }))
    .for("update");
  return rows[0] as SubmissionRow | undefined;
}

const versionColumns = Object.fromEntries(
  Object.keys(SubmissionVersion.properties).map((key) => [
    key,
    submissionVersions[key as keyof typeof SubmissionVersion.properties],
  ]),
) as { [K in keyof typeof SubmissionVersion.properties]: (typeof submissionVersions)[K] };

export async function historyOf(db: Executor, tenantId: string, submissionId: string) {
  return db
    .select(versionColumns)
    .from(submissionVersions)
    .where(and(eq(submissionVersions.tenantId, tenantId), eq(submissionVersions.submissionId, submissionId)))
    .orderBy(desc(submissionVersions.attempt))
    .limit(HISTORY_LIMIT);
}

/** Copies the submission's current attempt into its history before a new attempt replaces it. */
export async function archiveAttempt(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.execute(sql`
    INSERT INTO ${submissionVersions} (tenant_id, submission_id, attempt, status, body_text, attachment_media_ids,
      url, submitted_at, late, seconds_late, score, deducted_points, final_score, feedback, graded_at, graded_by)
    SELECT tenant_id, id, attempt, status, body_text, attachment_media_ids, url, submitted_at, late, seconds_late,
           score, deducted_points, final_score, feedback, graded_at, graded_by
    FROM ${submissions} WHERE tenant_id = ${tenantId} AND id = ${id} AND attempt > 0`);
}

export interface AttemptValues {
  assignmentId: string;
  lessonId: string;
  courseId: string;
  userId: string;
  enrollmentId: string;
  attempt: number;
  bodyText: string | null;
  attachmentMediaIds: string[];
  url: string | null;
  late: boolean;
  secondsLate: number;
  submittedAt: string;
}

/** Writes a new attempt: a new row, or the student's row (its last attempt archived first) with the grade cleared. */
export async function writeAttempt(
  tx: Executor,
  tenantId: string,
  existingId: string | undefined,
  values: AttemptValues,
): Promise<SubmissionRow> {
  const fresh = {
    ...values,
    status: "submitted",
    score: null,
    deductedPoints: null,
    finalScore: null,
    feedback: null,
    gradedAt: null,
    gradedBy: null,
    rubricAssessmentId: null,
  };
  if (existingId === undefined) {
    const rows = await tx
      .insert(submissions)
      .values({ tenantId, ...fresh })
      .returning(submissionColumns);
    return rows[0] as SubmissionRow;
  }
  const rows = await tx
    .update(submissions)
    .set({ ...fresh, updatedAt: sql`now()` })
    .where(and(eq(submissions.tenantId, tenantId), eq(submissions.id, existingId)))
    .returning(submissionColumns);
  return rows[0] as SubmissionRow;
}

export async function updateSubmission(
  tx: Executor,
  tenantId: string,
  id: string,
  set: Partial<{
    status: SubmissionStatus;
    score: number | null;
    deductedPoints: number | null;
    finalScore: number | null;
    feedback: string | null;
    gradedAt: SQL;
    gradedBy: unknown;
    rubricAssessmentId: string | null;
  }>,
): Promise<SubmissionRow> {
  const rows = await tx
    .update(submissions)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(submissions.tenantId, tenantId), eq(submissions.id, id)))
    .returning(submissionColumns);
  return rows[0] as SubmissionRow;
}

export async function findUser(db: Executor, tenantId: string, id: string) {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return rows[0];
}
