import { and, eq, ne } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { courses, enrollments, users } from "../../db/schema/index.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { emitEvent, emitEvents } from "../events/emit.js";
import { type CertificateReader, mayRead } from "./access.js";
import { certificateAbout } from "./events.js";
import { insertIssued, issuedEvent } from "./issue.js";
import { enqueueCertificateMail } from "./mail.js";
import * as repo from "./repo.js";
import type {
  CertificateRecord,
  IssueCertificateInput,
  ListCertificatesQueryType,
  VerificationRecord,
} from "./schemas.js";
import { normalizeSerial } from "./serial.js";
import { findTemplate } from "./template-repo.js";

export { certificateAttachment } from "./mail.js";

/** The status a reader sees: a valid certificate past its expiry is expired even before the worker records it. */
function effectiveStatus(c: repo.StoredCertificate, now = Date.now()): CertificateRecord["status"] {
  return c.status === "valid" && c.expiresAt !== null && Date.parse(c.expiresAt) <= now
    ? "expired"
    : c.status;
}

export function toRecord(c: repo.StoredCertificate, origin: string): CertificateRecord {
  return { ...c, status: effectiveStatus(c), verificationUrl: `${origin}/verify/${c.serial}` };
}

export async function listCertificates(
  db: Executor,
  tenantId: string,
  query: ListCertificatesQueryType,
  origin: string,
  reader: CertificateReader = { kind: "staff" },
) {
  const window = pageWindow(query);
  const asked = query.userId?.toLowerCase();
  // A student lists its own certificates: a `userId` naming anyone else lists nothing.
  if (reader.kind === "learner" && asked !== undefined && asked !== reader.userId) {
    return cappedPageEnvelope([], exactTotal(0), window);
  }
  const filter = {
    userId: reader.kind === "learner" ? reader.userId : asked,
    courseId: query.courseId?.toLowerCase(),
    status: query.status,
    issuedSince: query.issuedSince,
  };
  const [data, total] = await Promise.all([
    repo.listCertificates(db, tenantId, filter, window),
    repo.countCertificates(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(
    data.map((c) => toRecord(c, origin)),
    total,
    window,
  );
}

export async function getCertificate(
  db: Executor,
  tenantId: string,
  id: string,
  origin: string,
  reader: CertificateReader = { kind: "staff" },
) {
  const certificate = await repo.findCertificate(db, tenantId, id);
  if (certificate === undefined || !mayRead(reader, certificate.userId)) throw notFound();
  return toRecord(certificate, origin);
}

/**
 * Issues a certificate by hand. The template, the user and the course must be the tenant's (400 naming each one
 * that is not, another tenant's like an unknown one); the template active and the user enrolled in the course
 * (409); and the enrollment without a valid certificate (409). The enrollment's row is locked as a completion
 * locks it, so this and the completion's own issue take turns and one of them finds the other's certificate.
 */
export async function issueCertificate(
  db: Executor,
  tenantId: string,
  given: IssueCertificateInput,
  actor: Actor,
  origin: string,
): Promise<CertificateRecord> {
  const input = {
    templateId: given.templateId.toLowerCase(),
    userId: given.userId.toLowerCase(),
    courseId: given.courseId.toLowerCase(),
  };
  return db.transaction(async (tx) => {
    const template = await findTemplate(tx, tenantId, input.templateId, "share");
    const [user] = await tx
      .select({ id: users.id, name: users.name, email: users.email, role: users.role })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.id, input.userId)));
    const [course] = await tx
      .select({ title: courses.title })
      .from(courses)
      .where(and(eq(courses.tenantId, tenantId), eq(courses.id, input.courseId)))
      .for("share");
    const details: DetailKey[] = [];
    if (template === undefined)
      details.push({
        field: "templateId",
        key: "field.unknown_certificate_template",
        params: { id: input.templateId },
      });
    if (user === undefined)
      details.push({ field: "userId", key: "field.unknown_user", params: { id: input.userId } });
    if (course === undefined)
      details.push({ field: "courseId", key: "field.unknown_course", params: { id: input.courseId } });
    if (details.length > 0 || template === undefined || user === undefined || course === undefined) {
      throw new AppError("validation_failed", { details });
    }
    if (template.status !== "active") {
      throw new AppError("conflict", { messageKey: "conflict.certificate_template_archived" });
    }
    const [enrollment] = await tx
      .select({ id: enrollments.id })
      .from(enrollments)
      .where(
        and(
          eq(enrollments.tenantId, tenantId),
          eq(enrollments.userId, input.userId),
          eq(enrollments.courseId, input.courseId),
          ne(enrollments.status, "dropped"),
        ),
      )
      .for("update");
    if (enrollment === undefined)
      throw new AppError("conflict", { messageKey: "conflict.certificate_not_enrolled" });
    const issued = await insertIssued(tx, tenantId, {
      ...input,
      enrollmentId: enrollment.id,
      source: "manual",
      studentName: user.name,
      courseTitle: course.title,
      expiresAfterDays: template.expiresAfterDays,
    });
    if (issued === undefined) throw new AppError("conflict", { messageKey: "conflict.certificate_exists" });
    await enqueueCertificateMail(tx, tenantId, issued, user);
    await emitEvents(tx, tenantId, [issuedEvent(issued, eventActorOf(actor), subjectOf(user))]);
    return toRecord(issued, origin);
  });
}

/** Revokes a certificate (409 when it already is) and emits `certificate_revoked`. */
export async function revokeCertificate(
  db: Executor,
  tenantId: string,
  id: string,
  reason: string,
  actor: Actor,
  origin: string,
): Promise<CertificateRecord> {
  return db.transaction(async (tx) => {
    const before = await repo.findCertificate(tx, tenantId, id, "no key update");
    if (before === undefined) throw notFound();
    if (before.status === "revoked") {
      throw new AppError("conflict", { messageKey: "conflict.certificate_revoked" });
    }
    const after = (await repo.revokeCertificate(tx, tenantId, id, reason)) as repo.StoredCertificate;
    const [user] = await tx
      .select({ id: users.id, name: users.name, email: users.email, role: users.role })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.id, after.userId)));
    await emitEvent(tx, {
      tenantId,
      type: "certificate_revoked",
      data: { ...certificateAbout(after), revokedAt: after.revokedAt as string, reason },
      actor: eventActorOf(actor),
      subject: user === undefined ? null : subjectOf(user),
    });
    return toRecord(after, origin);
  });
}

/**
 * What the public verification reveals of the certificate a code names on this host: only what the certificate
 * shows. A code that cannot be one is answered like an unknown one (404) without a lookup; a well-formed one costs
 * one primary-key probe whether it exists or not.
 */
export async function verify(db: Executor, tenantId: string, code: string): Promise<VerificationRecord> {
  const serial = normalizeSerial(code);
  const certificate = serial === undefined ? undefined : await repo.findBySerial(db, tenantId, serial);
  if (certificate === undefined) throw notFound();
  return {
    serial: certificate.serial,
    status: effectiveStatus(certificate),
    studentName: certificate.studentName,
    courseTitle: certificate.courseTitle,
    issuedAt: certificate.issuedAt,
    expiresAt: certificate.expiresAt,
  };
}
