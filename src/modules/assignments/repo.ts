import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { assignmentExtensions, assignments, gradeItems, lessons } from "../../db/schema/index.js";
import type {
  AssignmentRecord,
  CreateAssignmentInput,
  ExtensionRecord,
  LatePolicyType,
  SubmissionKind,
  UpdateAssignmentInput,
} from "./schemas.js";
import { DEFAULT_LATE_POLICY } from "./schemas.js";

const columns = {
  id: assignments.id,
  lessonId: assignments.lessonId,
  courseId: assignments.courseId,
  instructions: assignments.instructions,
  dueAt: assignments.dueAt,
  lockAt: assignments.lockAt,
  allowedKinds: assignments.allowedKinds,
  allowedAttempts: assignments.allowedAttempts,
  pointsPossible: assignments.pointsPossible,
  latePolicy: assignments.latePolicy,
  createdAt: assignments.createdAt,
  updatedAt: assignments.updatedAt,
};

export type AssignmentRow = Omit<AssignmentRecord, "gradeItemId"> & {
  allowedKinds: SubmissionKind[];
  latePolicy: LatePolicyType;
};

export async function findAssignment(
  db: Executor,
  tenantId: string,
  id: string,
  lock?: "update" | "share",
): Promise<AssignmentRow | undefined> {
  const query = db
    .select(columns)
    .from(assignments)
    .where(and(eq(assignments.tenantId, tenantId), eq(assignments.id, id)));
  const rows = await (lock === undefined ? query : query.for(lock));
  return rows[0] as AssignmentRow | undefined;
}

/** The assignment of a lesson (share-locked when asked: its settings stay as read until the caller commits). */
export async function assignmentOfLesson(
  db: Executor,
  tenantId: string,
  lessonId: string,
  lock?: "share",
): Promise<AssignmentRow | undefined> {
  const query = db
    .select(columns)
    .from(assignments)
    .where(and(eq(assignments.tenantId, tenantId), eq(assignments.lessonId, lessonId)));
  const rows = await (lock === undefined ? query : query.for(lock));
  return rows[0] as AssignmentRow | undefined;
}

/** The grade item of the course fed by this assignment (at most one per course and source). */
export async function gradeItemOf(
  db: Executor,
  tenantId: string,
  row: AssignmentRow,
): Promise<string | null> {
  const rows = await db
    .select({ id: gradeItems.id })
    .from(gradeItems)
    .where(
      and(
        eq(gradeItems.tenantId, tenantId),
        eq(gradeItems.courseId, row.courseId),
        eq(gradeItems.sourceType, "assignment"),
        eq(gradeItems.sourceId, row.id),
      ),
    );
  return rows[0]?.id ?? null;
}

export async function findLesson(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<{ courseId: string; type: string } | undefined> {
  const rows = await db
    .select({ courseId: lessons.courseId, type: lessons.type })
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.id, id)))
    .for("share");
  return rows[0];
}

export async function insertAssignment(
  tx: Executor,
  tenantId: string,
  courseId: string,
  input: CreateAssignmentInput,
): Promise<AssignmentRow> {
  const rows = await tx
    .insert(assignments)
    .values({
      tenantId,
      lessonId: input.lessonId.toLowerCase(),
      courseId,
      instructions: input.instructions ?? null,
      dueAt: input.dueAt ?? null,
      lockAt: input.lockAt ?? null,
      allowedKinds: input.allowedKinds ?? ["text"],
      allowedAttempts: input.allowedAttempts ?? null,
      pointsPossible: input.pointsPossible ?? 100,
      latePolicy: input.latePolicy ?? DEFAULT_LATE_POLICY,
    })
    .returning(columns);
  return rows[0] as AssignmentRow;
}

/** A new due date is swept for missing submissions again when it passes. */
export async function updateAssignment(
  tx: Executor,
  tenantId: string,
  id: string,
  input: UpdateAssignmentInput,
): Promise<AssignmentRow> {
  const rows = await tx
    .update(assignments)
    .set({
      ...input,
      ...(input.dueAt === undefined ? {} : { missingSweptAt: null }),
      updatedAt: sql`now()`,
    })
    .where(and(eq(assignments.tenantId, tenantId), eq(assignments.id, id)))
    .returning(columns);
  return rows[0] as AssignmentRow;
}

export async function deleteAssignment(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.delete(assignments).where(and(eq(assignments.tenantId, tenantId), eq(assignments.id, id)));
}

const extensionColumns = {
  assignmentId: assignmentExtensions.assignmentId,
  userId: assignmentExtensions.userId,
  dueAt: assignmentExtensions.dueAt,
  lockAt: assignmentExtensions.lockAt,
  createdAt: assignmentExtensions.createdAt,
  updatedAt: assignmentExtensions.updatedAt,
};

const extensionKey = (tenantId: string, assignmentId: string, userId: string) =>
  and(
    eq(assignmentExtensions.tenantId, tenantId),
    eq(assignmentExtensions.assignmentId, assignmentId),
    eq(assignmentExtensions.userId, userId),
  );

export async function findExtension(
  db: Executor,
  tenantId: string,
  assignmentId: string,
  userId: string,
): Promise<ExtensionRecord | undefined> {
  const rows = await db
    .select(extensionColumns)
    .from(assignmentExtensions)
    .where(extensionKey(tenantId, assignmentId, userId));
  return rows[0];
}

/** Creates or replaces; a new due date is swept for a missing submission again when it passes. */
export async function upsertExtension(
  tx: Executor,
  tenantId: string,
  assignmentId: string,
  userId: string,
  dueAt: string,
  lockAt: string | null,
): Promise<{ extension: ExtensionRecord; created: boolean }> {
  const rows = await tx
    .insert(assignmentExtensions)
    .values({ tenantId, assignmentId, userId, dueAt, lockAt })
    .onConflictDoUpdate({
      target: [assignmentExtensions.tenantId, assignmentExtensions.assignmentId, assignmentExtensions.userId],
      set: { dueAt, lockAt, missingSweptAt: null, updatedAt: sql`now()` },
    })
    .returning({ ...extensionColumns, created: sql<boolean>`(xmax = 0)` });
  const { created, ...extension } = rows[0] as ExtensionRecord & { created: boolean };
  return { extension, created };
}

export async function deleteExtension(
  tx: Executor,
  tenantId: string,
  assignmentId: string,
  userId: string,
): Promise<boolean> {
  const rows = await tx
    .delete(assignmentExtensions)
    .where(extensionKey(tenantId, assignmentId, userId))
    .returning({ userId: assignmentExtensions.userId });
  return rows.length > 0;
}

/** Has the missing pass sweep the assignment's due date again (it marks only students still without a submission). */
export async function reopenMissingSweep(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx
    .update(assignments)
    .set({ missingSweptAt: null })
    .where(
      and(
        eq(assignments.tenantId, tenantId),
        eq(assignments.id, id),
        sql`${assignments.missingSweptAt} IS NOT NULL`,
      ),
    );
}
