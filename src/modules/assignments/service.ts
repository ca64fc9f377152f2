import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { enrollments } from "../../db/schema/index.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { assertReadable, type Reader, STAFF } from "../courses/audience.js";
import type { Actor } from "../events/actor.js";
import { assertTeaches } from "../gradebook/service.js";
import * as repo from "./repo.js";
import type {
  AssignmentRecord,
  CreateAssignmentInput,
  ExtensionRecord,
  PutExtensionInput,
  UpdateAssignmentInput,
} from "./schemas.js";

// What other modules (and the worker) may call.
export { gradeSubmissionByRubric, submissionBrief } from "./grade.js";
export { markMissingSubmissions } from "./missing.js";

async function toRecord(db: Executor, tenantId: string, row: repo.AssignmentRow): Promise<AssignmentRecord> {
  return { ...row, gradeItemId: await repo.gradeItemOf(db, tenantId, row) };
}

/** `lockAt` may not come before `dueAt`. */
function assertDates(dueAt: string | null, lockAt: string | null, field = "lockAt"): void {
  if (dueAt !== null && lockAt !== null && Date.parse(lockAt) < Date.parse(dueAt)) {
    throw validationError(field, "field.lock_before_due");
  }
}

/** Staff read the settings of any lesson (a teacher of its course for changes); a learner those it may read. */
export async function getAssignment(
  db: Executor,
  tenantId: string,
  id: string,
  reader: Reader = STAFF,
): Promise<AssignmentRecord> {
  const row = await repo.findAssignment(db, tenantId, id);
  if (row === undefined) throw notFound();
  await assertReadable(db, tenantId, reader, { courseId: row.courseId, lessonId: row.lessonId });
  return toRecord(db, tenantId, row);
}

/** The settings of a lesson, found by the lesson: 404 when it has none (or the reader may not read it). */
export async function getLessonAssignment(
  db: Executor,
  tenantId: string,
  lessonId: string,
  reader: Reader = STAFF,
): Promise<AssignmentRecord> {
  const row = await repo.assignmentOfLesson(db, tenantId, lessonId);
  if (row === undefined) throw notFound();
  await assertReadable(db, tenantId, reader, { courseId: row.courseId, lessonId: row.lessonId });
  return toRecord(db, tenantId, row);
}

function lessonTaken(err: unknown): never {
  if (isUniqueViolation(err, "assignments_lesson_key")) {
    throw new AppError("conflict", { messageKey: "conflict.assignment_exists" });
  }
  throw err;
}

/** The settings of a lesson of type `assignment` (400 otherwise): one per lesson (409). */
export async function createAssignment(
  db: Executor,
  tenantId: string,
  actor: Actor,
  input: CreateAssignmentInput,
): Promise<AssignmentRecord> {
  const row = await db.transaction(async (tx) => {
    const lesson = await repo.findLesson(tx, tenantId, input.lessonId);
    if (lesson === undefined) {
      throw validationError("lessonId", "field.unknown_lesson", { id: input.lessonId });
    }
    if (lesson.type !== "assignment") throw validationError("lessonId", "field.lesson_not_assignment");
    await assertTeaches(tx, tenantId, actor, lesson.courseId);
    assertDates(input.dueAt ?? null, input.lockAt ?? null);
    // A savepoint, so a second assignment for the lesson is a 409 and not an aborted transaction.
    return tx
      .transaction((inner) => repo.insertAssignment(inner, tenantId, lesson.courseId, input))
      .catch(lessonTaken);
  });
  return toRecord(db, tenantId, row);
}

/** 404 unless the assignment is the tenant's, 403 unless the actor teaches its course; locked for the change. */
async function staffAssignment(tx: Executor, tenantId: string, actor: Actor, id: string) {
  const row = await repo.findAssignment(tx, tenantId, id, "update");
  if (row === undefined) throw notFound();
  await assertTeaches(tx, tenantId, actor, row.courseId);
  return row;
}

export async function updateAssignment(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  input: UpdateAssignmentInput,
): Promise<AssignmentRecord> {
  const row = await db.transaction(async (tx) => {
    const before = await staffAssignment(tx, tenantId, actor, id);
    assertDates(
      input.dueAt === undefined ? before.dueAt : input.dueAt,
      input.lockAt === undefined ? before.lockAt : input.lockAt,
    );
    return repo.updateAssignment(tx, tenantId, id, input);
  });
  return toRecord(db, tenantId, row);
}

/** Deletes the settings and, with them, every submission: 409 once anything was submitted, unless `force`. */
export async function deleteAssignment(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  force: boolean,
): Promise<void> {
  await db.transaction(async (tx) => {
    await staffAssignment(tx, tenantId, actor, id);
    const rows = (await tx.execute(
      sql`SELECT EXISTS (SELECT 1 FROM submissions WHERE tenant_id = ${tenantId} AND assignment_id = ${id}
          AND attempt > 0) AS used`,
    )) as unknown as { rows: { used: boolean }[] };
    if (rows.rows[0]?.used === true && !force) {
      throw new AppError("conflict", { messageKey: "conflict.assignment_has_submissions" });
    }
    await repo.deleteAssignment(tx, tenantId, id);
  });
}

/** The user must hold a current (not dropped) student enrollment in the course: anyone else is 404. */
async function assertStudent(db: Executor, tenantId: string, userId: string, courseId: string) {
  const rows = await db
    .select({ id: enrollments.id })
    .from(enrollments)
    .where(
      and(
        eq(enrollments.tenantId, tenantId),
        eq(enrollments.userId, userId),
        eq(enrollments.courseId, courseId),
        eq(enrollments.role, "student"),
        sql`${enrollments.status} <> 'dropped'`,
      ),
    )
    .limit(1);
  if (rows.length === 0) throw notFound();
}

/** Sets a student's own due date (and lock date): 201 when new, 200 when replaced. */
export async function putExtension(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  userId: string,
  input: PutExtensionInput,
): Promise<{ extension: ExtensionRecord; created: boolean }> {
  return db.transaction(async (tx) => {
    const assignment = await staffAssignment(tx, tenantId, actor, id);
    await assertStudent(tx, tenantId, userId, assignment.courseId);
    // Without its own lock date the student keeps the assignment's, which must not come before the new due date.
    const own = input.lockAt ?? null;
    assertDates(input.dueAt, own ?? assignment.lockAt, own === null ? "dueAt" : "lockAt");
    return repo.upsertExtension(tx, tenantId, id, userId, input.dueAt, own);
  });
}

/** Removes a student's extension: they are due (and, once past it, missing) at the assignment's date again. */
export async function deleteExtension(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  userId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await staffAssignment(tx, tenantId, actor, id);
    if (!(await repo.deleteExtension(tx, tenantId, id, userId))) throw notFound();
    // The student's due date is the assignment's again; if that has passed and was swept without them (they had
    // the extension then), the next pass sweeps it again. It marks only those still without a submission.
    await repo.reopenMissingSweep(tx, tenantId, id);
  });
}
