/**
 * Issuing inside the caller's transaction: shared by `POST /certificates`, by the lesson completion that
 * completes an enrollment (src/modules/enrollments/completions.ts), which adds the event this answers to the
 * ones it emits, and by the progress that completes a learning path (src/modules/learning-paths/progress.ts), so
 * the certificate, and its mail, exist exactly when the completion does. Imports nothing of either module.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import {
  certificateTemplateCourses,
  certificateTemplatePaths,
  certificateTemplates,
  courses,
  learningPaths,
} from "../../db/schema/index.js";
import type { EventActor, EventSubject } from "../events/catalogue.js";
import type { EventInput } from "../events/emit.js";
import { certificateAbout } from "./events.js";
import { enqueueCertificateMail } from "./mail.js";
import { insertCertificate, type NewCertificate, type StoredCertificate } from "./repo.js";
import { newSerial } from "./serial.js";

export type { StoredCertificate };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Inserts with a fresh code; a collision of two 80-bit codes is retried rather than assumed impossible. */
export async function insertIssued(
  tx: Executor,
  tenantId: string,
  row: DistributiveOmit<NewCertificate, "serial">,
): Promise<StoredCertificate | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await insertCertificate(tx, tenantId, { ...row, serial: newSerial() });
    if (inserted !== undefined) return inserted;
    // Nothing inserted: the enrollment's valid certificate exists (the usual case), or the code was taken.
    const held =
      "enrollmentId" in row
        ? sql`enrollment_id = ${row.enrollmentId}`
        : sql`learning_path_id = ${row.learningPathId} AND user_id = ${row.userId}`;
    const taken = (await tx.execute(
      sql`SELECT 1 FROM certificates WHERE tenant_id = ${tenantId} AND ${held} AND status = 'valid'`,
    )) as unknown as { rows: unknown[] };
    if (taken.rows.length > 0) return undefined;
  }
  return undefined;
}

export function issuedEvent(certificate: StoredCertificate, actor: EventActor, subject: EventSubject | null) {
  return {
    type: "certificate_issued" as const,
    data: certificateAbout(certificate),
    actor,
    subject,
  } satisfies EventInput;
}

/** The active template the course names, if any, and the course's title. */
async function templateOfCourse(tx: Executor, tenantId: string, courseId: string) {
  const rows = await tx
    .select({
      templateId: certificateTemplates.id,
      expiresAfterDays: certificateTemplates.expiresAfterDays,
      courseTitle: courses.title,
    })
    .from(certificateTemplateCourses)
    .innerJoin(
      certificateTemplates,
      and(
        eq(certificateTemplates.tenantId, certificateTemplateCourses.tenantId),
        eq(certificateTemplates.id, certificateTemplateCourses.templateId),
      ),
    )
    .innerJoin(
      courses,
      and(
        eq(courses.tenantId, certificateTemplateCourses.tenantId),
        eq(courses.id, certificateTemplateCourses.courseId),
      ),
    )
    .where(
      and(
        eq(certificateTemplateCourses.tenantId, tenantId),
        eq(certificateTemplateCourses.courseId, courseId),
        eq(certificateTemplates.status, "active"),
      ),
    );
  return rows[0];
}

/**
 * The certificate of an enrollment that just completed, when its course names an active template and the
 * enrollment holds no valid certificate yet; answers its `certificate_issued` event for the caller to emit with
 * its own, or nothing, and queues the certificate's mail to the student. The caller holds the enrollment's row
 * lock.
 */
export async function issueOnCompletion(
  tx: Executor,
  tenantId: string,
  enrollment: { id: string; userId: string; courseId: string },
  student: EventSubject,
  actor: EventActor,
): Promise<EventInput | undefined> {
  const template = await templateOfCourse(tx, tenantId, enrollment.courseId);
  if (template === undefined) return undefined;
  const issued = await insertIssued(tx, tenantId, {
    templateId: template.templateId,
    userId: enrollment.userId,
    courseId: enrollment.courseId,
    enrollmentId: enrollment.id,
    source: "completion",
    studentName: student.name,
    courseTitle: template.courseTitle,
    expiresAfterDays: template.expiresAfterDays,
  });
  if (issued === undefined) return undefined;
  await enqueueCertificateMail(tx, tenantId, issued, student);
  return issuedEvent(issued, actor, student);
}

/** The active template the path names, if any, and the path's title. */
async function templateOfPath(tx: Executor, tenantId: string, pathId: string) {
  const rows = await tx
    .select({
      templateId: certificateTemplates.id,
      expiresAfterDays: certificateTemplates.expiresAfterDays,
      pathTitle: learningPaths.title,
    })
    .from(certificateTemplatePaths)
    .innerJoin(
      certificateTemplates,
      and(
        eq(certificateTemplates.tenantId, certificateTemplatePaths.tenantId),
        eq(certificateTemplates.id, certificateTemplatePaths.templateId),
      ),
    )
    .innerJoin(
      learningPaths,
      and(
        eq(learningPaths.tenantId, certificateTemplatePaths.tenantId),
        eq(learningPaths.id, certificateTemplatePaths.learningPathId),
      ),
    )
    .where(
      and(
        eq(certificateTemplatePaths.tenantId, tenantId),
        eq(certificateTemplatePaths.learningPathId, pathId),
        eq(certificateTemplates.status, "active"),
      ),
    );
  return rows[0];
}

/**
 * The certificate of a path enrollment that just completed, when the path names an active template and the user
 * holds no valid certificate of the path yet: its `certificate_issued` event for the caller to emit, or nothing;
 * its mail is queued. The caller holds the path enrollment's row lock.
 */
export async function issueOnPathCompletion(
  tx: Executor,
  tenantId: string,
  enrollment: { pathId: string; userId: string },
  student: EventSubject,
  actor: EventActor,
): Promise<EventInput | undefined> {
  const template = await templateOfPath(tx, tenantId, enrollment.pathId);
  if (template === undefined) return undefined;
  const issued = await insertIssued(tx, tenantId, {
    templateId: template.templateId,
    userId: enrollment.userId,
    learningPathId: enrollment.pathId,
    learningPathTitle: template.pathTitle,
    source: "completion",
    studentName: student.name,
    expiresAfterDays: template.expiresAfterDays,
  });
  if (issued === undefined) return undefined;
  await enqueueCertificateMail(tx, tenantId, issued, student);
  return issuedEvent(issued, actor, student);
}
