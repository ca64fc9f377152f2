import { Type } from "typebox";
import { admins } from "../../platform/auth/access.js";
import { assertSubscriptionLive } from "../../platform/auth/pipeline.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { tenantNotFound } from "../../platform/tenancy/resolver.js";
import { jobRoutes } from "../jobs/routes.js";
import { localObjects, objectTokenValid } from "../media/service.js";
import {
  CreateReportBody,
  DownloadQuery,
  FileQuery,
  ListReportsQuery,
  ReportPage,
  ReportRun,
  ReportTypeList,
  SignedUrl,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["reports"];
/**
 * Running a report reads the institution's data, so it takes the read scope the contract gives reports,
 * `reports:read`, and no write scope (RESOURCES.md 4.25); a session needs an administrator's role, since a report
 * can list every user of the institution.
 */
const access = admins("reports:read");
const ACCESS_NOTE =
  "A key needs `reports:read` (running a report too: it reads data); a session, an administrator.";

export function reportRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/reports/types",
    {
      config: { access },
      schema: {
        tags,
        summary: "List report types",
        description: `Every report type, with its parameters and formats. ${ACCESS_NOTE}`,
        response: { 200: ReportTypeList },
      },
    },
    () => service.listTypes(),
  );

  app.post(
    "/api/institution/reports",
    {
      config: { access },
      schema: {
        tags,
        summary: "Run a report",
        description:
          "Queues a run (202) as a background job; a worker streams its rows into a CSV (RFC 4180, header line, " +
          "formula-like text prefixed with `'`) or JSON-lines file. Poll GET /reports/{runId} or /jobs/{jobId}, or " +
          "subscribe to `report_completed` / `report_failed`. Parameters the type does not take, or ids of another " +
          "institution: 400. One run per institution executes at a time (JOBS_PER_TENANT); the others wait queued. " +
          ACCESS_NOTE,
        body: CreateReportBody,
        response: { 202: ReportRun },
      },
    },
    async (request, reply) => {
      const run = await service.createReport(db, tenantOf(request).id, request.body, principalOf(request));
      reply.code(202);
      return run;
    },
  );

  app.get(
    "/api/institution/reports",
    {
      config: { access },
      schema: {
        tags,
        summary: "List report runs",
        description:
          `Newest first (ties by id); \`type\` and \`status\` narrow the list. ${cappedTotalNote("unfiltered, with `type` alone or `status` alone")} ` +
          ACCESS_NOTE,
        querystring: ListReportsQuery,
        response: { 200: ReportPage },
      },
    },
    (request) => service.listReports(db, tenantOf(request).id, request.query),
  );

  app.get(
    "/api/institution/reports/:id",
    {
      config: { access },
      schema: {
        tags,
        summary: "Get a report run",
        description: `Its status, progress (every 1000 rows), row count and, once completed, its file. ${ACCESS_NOTE}`,
        params: IdParams,
        response: { 200: ReportRun },
      },
    },
    (request) => service.getReport(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.get(
    "/api/institution/reports/:id/download",
    {
      config: { access, errors: [409] },
      schema: {
        tags,
        summary: "Download a report's file",
        description:
          "302 to a signed URL of the file, valid REPORT_URL_TTL_SECONDS (default an hour): a presigned GET on S3, " +
          "this API's own file route on the local store; `redirect=false` answers it as JSON instead. 409 " +
          `\`conflict\` until the run is completed. ${ACCESS_NOTE}`,
        params: IdParams,
        querystring: DownloadQuery,
        response: { 200: SignedUrl, 302: Type.Null({ description: "The signed URL is in `Location`." }) },
      },
    },
    async (request, reply) => {
      const signed = await service.downloadUrl(
        ctx,
        tenantOf(request).id,
        requireUuid(request.params.id),
        publicOrigin(request),
      );
      reply.header("cache-control", "no-store");
      if (request.query.redirect === false) return signed;
      reply
        .code(302)
        .header("location", signed.url)
        .send(undefined as never);
    },
  );

  app.delete(
    "/api/institution/reports/:id",
    {
      config: { access },
      schema: {
        tags,
        summary: "Delete a report run",
        description:
          "Deletes the run, its job and its file (a queued or running run is canceled first). " + ACCESS_NOTE,
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteReport(
        ctx,
        tenantOf(request).id,
        requireUuid(request.params.id),
        principalOf(request),
      );
      reply.code(204).send(null);
    },
  );

  app.get(
    "/api/reports/:id/file",
    {
      config: { access: { kind: "public" }, errors: [402, 403, 404] },
      schema: {
        tags,
        summary: "A report's file (local store)",
        description:
          "The signed URL GET /reports/{runId}/download redirects to when files are on the local disk: the bytes, " +
          "with their type and a download file name. An invalid or expired token: 403.",
        params: IdParams,
        querystring: FileQuery,
        response: {
          200: {
            description: "The file.",
            content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
          },
        },
      },
    },
    async (request, reply) => {
      const tenant = await ctx.tenants.resolve(request.headers.host);
      if (tenant === null) throw tenantNotFound(request.headers.host, ctx.config.baseDomain);
      assertSubscriptionLive(tenant);
      const file = await service.localFile(ctx, tenant.id, requireUuid(request.params.id));
      if (!objectTokenValid(ctx.config.media, tenant.id, file.objectId, request.query.token)) {
        throw new AppError("forbidden", { messageKey: "forbidden.media_token" });
      }
      const store = localObjects(ctx.config.media);
      const size = await store.size(file.key);
      if (size === undefined) throw notFound();
      reply
        .header("content-type", file.contentType)
        .header("content-disposition", `attachment; filename="${file.filename}"`)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, no-store")
        .header("content-length", String(size));
      return reply.send((await store.read(file.key)) as never);
    },
  );

  jobRoutes(app, ctx);
}
