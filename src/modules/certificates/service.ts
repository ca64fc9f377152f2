import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { type CertificateReader, mayRead } from "./access.js";
import { certificateAbout } from "./events.js";
import { effectiveStatus, toRecord } from "./record.js";
import * as repo from "./repo.js";
import type { CertificateRecord, ListCertificatesQueryType, VerificationRecord } from "./schemas.js";
import { normalizeSerial } from "./serial.js";

export { certificateAttachment } from "./mail.js";

export { toRecord };

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
    learningPathId: query.learningPathId?.toLowerCase(),
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

export { issueCertificate } from "./manual-issue.js";

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
    learningPathTitle: certificate.learningPathTitle,
    issuedAt: certificate.issuedAt,
    expiresAt: certificate.expiresAt,
  };
}
