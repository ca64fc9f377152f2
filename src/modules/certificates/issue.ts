/**
 * Issuing inside the caller's transaction: shared by `POST /certificates` and by the lesson completion that
 * completes an enrollment (src/modules/enrollments/completions.ts), which adds the event this answers to the
 * ones it emits, so the certificate exists exactly when the completion does. Imports nothing of enrollments.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { certificateTemplateCourses, certificateTemplates, courses } from "../../db/schema/index.js";
import type { EventActor, EventSubject } from "../events/catalogue.js";
import type { EventInput } from "../events/emit.js";
import { certificateAbout } from "./events.js";
import { enqueueCertificateMail } from "./mail.js";
import { insertCertificate, type NewCertificate, type StoredCertificate } from "./repo.js";
import { newSerial } from "./serial.js";

export type { StoredCertificate };

/** Inserts with a fresh code; a collision of two 80-bit codes is retried rather than assumed impossible. */
export async function insertIssued(
  tx: Executor,
  tenantId: string,
  row: Omit<NewCertificate, "serial">,
): Promise<StoredCertificate | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await insertCertificate(tx, tenantId, { ...row, serial: newSerial() });
    if (inserted !== undefined) return inserted;
    // Nothing inserted: the enrollment's valid certificate exists (the usual case), or the code was taken.
    const taken = (await tx.execute(
      sql`SELECT 1 FROM certificates WHERE tenant_id = ${tenantId} AND enrollment_id = ${row.enrollmentId}
          AND status = 'valid'`,
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
