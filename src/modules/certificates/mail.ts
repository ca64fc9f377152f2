/**
 * The certificate's mail: written in the transaction that issues the certificate (so it exists exactly when the
 * certificate does), composed by the mail worker when it sends, with the certificate's PDF drawn then by the same
 * renderer as GET /certificates/:id/pdf. A certificate no longer valid by then (revoked, expired, or gone with
 * its template) is not mailed: the message is suppressed.
 */
import type { Executor } from "../../db/client.js";
import { type AttachmentContext, enqueueComposedMail, type RenderedAttachment } from "../email/service.js";
import { renderPdf } from "./pdf.js";
import { findCertificate, type StoredCertificate } from "./repo.js";

/** The title a certificate names: its course's, or its learning path's. */
export function titleOf(c: Pick<StoredCertificate, "courseTitle" | "learningPathTitle">): string {
  return c.courseTitle ?? c.learningPathTitle ?? "";
}

export async function enqueueCertificateMail(
  tx: Executor,
  tenantId: string,
  certificate: StoredCertificate,
  student: { id: string; name: string; email: string },
): Promise<void> {
  await enqueueComposedMail(tx, {
    tenantId,
    templateKey: "certificate",
    to: { userId: student.id, email: student.email, name: student.name },
    attachments: [{ kind: "certificate", id: certificate.id }],
    variables: { courseTitle: titleOf(certificate) },
  });
}

/** The `certificate` attachment: the PDF, and the template's `courseTitle` and `certificateUrl`. */
export async function certificateAttachment(
  ctx: AttachmentContext,
  id: string,
): Promise<RenderedAttachment | undefined> {
  const certificate = await findCertificate(ctx.db, ctx.tenant.id, id);
  if (certificate === undefined || certificate.status !== "valid") return undefined;
  if (certificate.expiresAt !== null && Date.parse(certificate.expiresAt) <= Date.now()) return undefined;
  const pdf = await renderPdf({ db: ctx.db, config: ctx.config }, ctx.tenant, id, ctx.origin);
  return {
    file: { filename: `certificate-${pdf.serial}.pdf`, contentType: "application/pdf", content: pdf.bytes },
    variables: {
      courseTitle: titleOf(certificate),
      certificateUrl: `${ctx.origin}/verify/${certificate.serial}`,
    },
  };
}
