import { and, eq, ne } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import {
  courses,
  enrollments,
  learningPathEnrollments,
  learningPaths,
  users,
} from "../../db/schema/index.js";
import { AppError, type DetailKey } from "../../platform/errors/app-error.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { emitEvents } from "../events/emit.js";
import { insertIssued, issuedEvent } from "./issue.js";
import { enqueueCertificateMail } from "./mail.js";
import { toRecord } from "./record.js";
import type { CertificateSubject } from "./repo.js";
import type { CertificateRecord, IssueCertificateInput } from "./schemas.js";
import { findTemplate } from "./template-repo.js";

type Subject = { kind: "course"; id: string } | { kind: "path"; id: string };

/** Exactly one of `courseId` and `learningPathId` (400 naming both when neither or both are given). */
function certifiedSubject(given: IssueCertificateInput): Subject {
  const { courseId, learningPathId } = given;
  if ((courseId === undefined) === (learningPathId === undefined)) {
    throw new AppError("validation_failed", {
      details: ["courseId", "learningPathId"].map((field) => ({ field, key: "field.one_of_course_or_path" })),
    });
  }
  return courseId !== undefined
    ? { kind: "course", id: courseId.toLowerCase() }
    : { kind: "path", id: (learningPathId as string).toLowerCase() };
}

/**
 * What the certificate is of, checked and locked: the course (shared) and the user's current enrollment in it
 * (locked for update, as a completion locks it), or the path (shared) and the user's enrollment in it (locked
 * for update, as the progress that completes it locks it). Unknown: a detail for 400; not enrolled: 409.
 */
async function certifiedOf(
  tx: Executor,
  tenantId: string,
  userId: string,
  subject: Subject,
  details: DetailKey[],
): Promise<(() => Promise<CertificateSubject>) | undefined> {
  if (subject.kind === "course") {
    const [course] = await tx
      .select({ title: courses.title })
      .from(courses)
      .where(and(eq(courses.tenantId, tenantId), eq(courses.id, subject.id)))
      .for("share");
    if (course === undefined) {
      details.push({ field: "courseId", key: "field.unknown_course", params: { id: subject.id } });
      return undefined;
    }
    return async () => {
      const [enrollment] = await tx
        .select({ id: enrollments.id })
        .from(enrollments)
        .where(
          and(
            eq(enrollments.tenantId, tenantId),
            eq(enrollments.userId, userId),
            eq(enrollments.courseId, subject.id),
            ne(enrollments.status, "dropped"),
          ),
        )
        .for("update");
      if (enrollment === undefined)
        throw new AppError("conflict", { messageKey: "conflict.certificate_not_enrolled" });
      return { courseId: subject.id, enrollmentId: enrollment.id, courseTitle: course.title };
    };
  }
  const [path] = await tx
    .select({ title: learningPaths.title })
    .from(learningPaths)
    .where(and(eq(learningPaths.tenantId, tenantId), eq(learningPaths.id, subject.id)))
    .for("share");
  if (path === undefined) {
    details.push({ field: "learningPathId", key: "field.unknown_learning_path", params: { id: subject.id } });
    return undefined;
  }
  return async () => {
    const [enrollment] = await tx
      .select({ userId: learningPathEnrollments.userId })
      .from(learningPathEnrollments)
      .where(
        and(
          eq(learningPathEnrollments.tenantId, tenantId),
          eq(learningPathEnrollments.pathId, subject.id),
          eq(learningPathEnrollments.userId, userId),
        ),
      )
      .for("update");
    if (enrollment === undefined)
      throw new AppError("conflict", { messageKey: "conflict.certificate_not_enrolled" });
    return { learningPathId: subject.id, learningPathTitle: path.title };
  };
}

/**
 * Issues a certificate by hand, of a course or of a learning path. The template, the user and the course or path
 * must be the tenant's (400 naming each one that is not, another tenant's like an unknown one); the template
 * active and the user enrolled in the course or path (409); and that enrollment without a valid certificate
 * (409). The enrollment's row is locked as a completion locks it, so this and the completion's own issue take
 * turns and one of them finds the other's certificate. The certificate's mail is queued in the same transaction.
 */
export async function issueCertificate(
  db: Executor,
  tenantId: string,
  given: IssueCertificateInput,
  actor: Actor,
  origin: string,
): Promise<CertificateRecord> {
  const subject = certifiedSubject(given);
  const input = { templateId: given.templateId.toLowerCase(), userId: given.userId.toLowerCase() };
  return db.transaction(async (tx) => {
    const template = await findTemplate(tx, tenantId, input.templateId, "share");
    const [user] = await tx
      .select({ id: users.id, name: users.name, email: users.email, role: users.role })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.id, input.userId)));
    const details: DetailKey[] = [];
    if (template === undefined)
      details.push({
        field: "templateId",
        key: "field.unknown_certificate_template",
        params: { id: input.templateId },
      });
    if (user === undefined)
      details.push({ field: "userId", key: "field.unknown_user", params: { id: input.userId } });
    const certified = await certifiedOf(tx, tenantId, input.userId, subject, details);
    if (details.length > 0 || template === undefined || user === undefined || certified === undefined) {
      throw new AppError("validation_failed", { details });
    }
    if (template.status !== "active") {
      throw new AppError("conflict", { messageKey: "conflict.certificate_template_archived" });
    }
    const issued = await insertIssued(tx, tenantId, {
      ...input,
      ...(await certified()),
      source: "manual",
      studentName: user.name,
      expiresAfterDays: template.expiresAfterDays,
    });
    if (issued === undefined) throw new AppError("conflict", { messageKey: "conflict.certificate_exists" });
    await enqueueCertificateMail(tx, tenantId, issued, user);
    await emitEvents(tx, tenantId, [issuedEvent(issued, eventActorOf(actor), subjectOf(user))]);
    return toRecord(issued, origin);
  });
}
