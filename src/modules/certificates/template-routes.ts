import { staff } from "../../platform/auth/access.js";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import {
  CertificateTemplate,
  CreateTemplateBody,
  ListTemplatesQuery,
  TemplatePage,
  UpdateTemplateBody,
} from "./template-schemas.js";
import * as service from "./template-service.js";

const tags = ["certificates"];
const read = staff("courses:read");
const write = staff("courses:write");
const RULES =
  "Placeholders outside the allowed set are 400 naming the field; `backgroundMediaId` and `signatureMediaId` must " +
  "name ready PNG or JPEG images of the institution (at most 2 MB); `courseIds` must be the institution's courses, " +
  "none named by another template (409).";

export function certificateTemplateRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/certificate-templates",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List certificate templates",
        description: "Newest first; `status` narrows the list. The total is exact.",
        querystring: ListTemplatesQuery,
        response: { 200: TemplatePage },
      },
    },
    (request) => service.listTemplates(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/certificate-templates",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Create a certificate template",
        description:
          "A template's courses issue its certificate when one of their enrollments completes (while it is " +
          `\`active\`). ${RULES}`,
        body: CreateTemplateBody,
        response: { 201: CertificateTemplate },
      },
    },
    async (request, reply) => {
      const template = await service.createTemplate(db, tenantOf(request).id, request.body);
      reply.code(201);
      return template;
    },
  );

  app.get(
    "/api/institution/certificate-templates/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a certificate template",
        params: IdParams,
        response: { 200: CertificateTemplate },
      },
    },
    (request) => service.getTemplate(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/certificate-templates/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Change a certificate template",
        description:
          "`archived` stops it issuing (by hand or on completion); certificates already issued keep what they show. " +
          RULES,
        params: IdParams,
        body: UpdateTemplateBody,
        response: { 200: CertificateTemplate },
      },
    },
    (request) =>
      service.updateTemplate(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );
}
