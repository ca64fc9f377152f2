/**
 * Rows the assignment tests, the security matrix and the list plans need: an assignment lesson with its settings,
 * students enrolled in its course, a ready file. Written straight through Drizzle. Test support only.
 */
import type { Executor } from "../../db/client.js";
import { assignments, media } from "../../db/schema/index.js";
import { makeQuizLesson } from "../quizzes/test-fixtures.js";
import { DEFAULT_LATE_POLICY, type LatePolicyType, type SubmissionKind } from "./schemas.js";

export interface AssignmentLesson {
  courseId: string;
  lessonId: string;
  assignmentId: string;
}

export async function makeAssignment(
  db: Executor,
  tenantId: string,
  settings: {
    dueAt?: string | null;
    lockAt?: string | null;
    allowedKinds?: SubmissionKind[];
    allowedAttempts?: number | null;
    pointsPossible?: number;
    latePolicy?: LatePolicyType;
  } = {},
): Promise<AssignmentLesson> {
  const { courseId, lessonId } = await makeQuizLesson(db, tenantId, "assignment");
  const [row] = await db
    .insert(assignments)
    .values({
      tenantId,
      lessonId,
      courseId,
      dueAt: settings.dueAt ?? null,
      lockAt: settings.lockAt ?? null,
      allowedKinds: settings.allowedKinds ?? ["text", "file", "url"],
      allowedAttempts: settings.allowedAttempts ?? null,
      pointsPossible: settings.pointsPossible ?? 10,
      latePolicy: settings.latePolicy ?? DEFAULT_LATE_POLICY,
    })
    .returning({ id: assignments.id });
  return { courseId, lessonId, assignmentId: (row as { id: string }).id };
}

/** A ready file of the tenant (its bytes are never read by submissions). */
export async function readyFile(db: Executor, tenantId: string): Promise<string> {
  const [row] = await db
    .insert(media)
    .values({
      tenantId,
      kind: "document",
      filename: "report.pdf",
      contentType: "application/pdf",
      sizeBytes: 10,
      status: "ready",
      storage: "local",
      storageKey: `fixture/${crypto.randomUUID()}`,
      uploadExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    })
    .returning({ id: media.id });
  return (row as { id: string }).id;
}

export { enrollAs } from "../gradebook/test-fixtures.js";
