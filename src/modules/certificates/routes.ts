import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { certificateReaderOf, LEARNER_RULE, read, write } from "./access.js";
import { renderPdf } from "./pdf.js";
import {
  Certificate,
  CertificatePage,
  IssueCertificateBody,
  ListCertificatesQuery,
  RevokeCertificateBody,
} from "./schemas.js";
import * as service from "./service.js";
import { certificateTemplateRoutes } from "./template-routes.js";
import { verifyRoutes } from "./verify-routes.js";

const tags = ["certificates"];

export function certificateRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;
  certificateTemplateRoutes(app, ctx);
  verifyRoutes(app, ctx);

  app.get(
    "/api/institution/certificates",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List certificates",
        description:
          "Newest issue first; `userId`, `courseId`, `learningPathId`, `status` and `issuedSince` narrow the list. " +
          cappedTotalNote(
            "unless `issuedSince` filters, or two of `userId`, `courseId` and `learningPathId`",
          ) +
          ` ${LEARNER_RULE}`,
        querystring: ListCertificatesQuery,
        response: { 200: CertificatePage },
      },
    },
    (request) =>
      service.listCertificates(
        db,
        tenantOf(request).id,
        request.query,
        publicOrigin(request),
        certificateReaderOf(principalOf(request)),
      ),
  );

  app.post(
    "/api/institution/certificates",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Issue a certificate",
        description:
          "Issues the template's certificate to a user enrolled in the course (any enrollment but a dropped one), " +
          "or, with `learningPathId` instead of `courseId`, in the learning path; emits `certificate_issued` and " +
          "queues the certificate's mail to the user, its PDF attached (drawn when the mail is sent; a " +
          "certificate revoked by then is not mailed). The template, user and course or path must be the " +
          "institution's (400 naming each unknown one; 400 when neither or both of `courseId` and " +
          "`learningPathId` are given). 409 when the template is archived, the user is not enrolled, or the " +
          "enrollment holds a valid certificate already. Courses and paths a template names also issue it when " +
          "an enrollment in them completes.",
        body: IssueCertificateBody,
        response: { 201: Certificate },
      },
    },
    async (request, reply) => {
      const certificate = await service.issueCertificate(
        db,
        tenantOf(request).id,
        request.body,
        principalOf(request),
        publicOrigin(request),
      );
      reply.code(201);
      return certificate;
    },
  );

  app.get(
    "/api/institution/certificates/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a certificate",
        description: LEARNER_RULE,
        params: IdParams,
        response: { 200: Certificate },
      },
    },
    (request) =>
      service.getCertificate(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        publicOrigin(request),
        certificateReaderOf(principalOf(request)),
      ),
  );

  app.post(
    "/api/institution/certificates/:id/revoke",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Revoke a certificate",
        description:
          "Emits `certificate_revoked`; the verification page shows the certificate as revoked from then on. " +
          "The reason is kept for the institution and never shown publicly. 409 when it is revoked already.",
        params: IdParams,
        body: RevokeCertificateBody,
        response: { 200: Certificate },
      },
    },
    (request) =>
      service.revokeCertificate(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.body.reason,
        principalOf(request),
        publicOrigin(request),
      ),
  );

  app.get(
    "/api/institution/certificates/:id/pdf",
    {
      // 503 `storage_unavailable` when an image of the template is in a store this process cannot reach.
      config: { access: read, errors: [503] },
      schema: {
        tags,
        summary: "Download a certificate as PDF",
        description:
          "The certificate drawn with its template's current layout: the student's name and course title as " +
          "issued, the dates, the code and a QR code of the public verification page. Drawn on a worker thread " +
          "with a fixed layout and bounded texts; when too many are being drawn at once the request is 429 " +
          "`rate_limit_exceeded` with `Retry-After: 1`. " +
          LEARNER_RULE,
        params: IdParams,
        response: {
          200: {
            description: "The certificate, one A4 page.",
            content: { "application/pdf": { schema: { type: "string", format: "binary" } } },
          },
        },
      },
    },
    async (request, reply) => {
      const pdf = await renderPdf(
        { db, config: ctx.config },
        tenantOf(request),
        requireUuid(request.params.id),
        publicOrigin(request),
        certificateReaderOf(principalOf(request)),
      );
      reply
        .header("content-type", "application/pdf")
        .header("content-disposition", `inline; filename="certificate-${pdf.serial}.pdf"`)
        .header("content-length", String(pdf.bytes.length))
        .header("cache-control", "private, no-store")
        .header("x-content-type-options", "nosniff");
      return reply.send(pdf.bytes as never);
    },
  );
}
