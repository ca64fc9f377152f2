import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { jobsAccess } from "./access.js";
import { Job, JobPage, ListJobsQuery } from "./schemas.js";
import * as service from "./service.js";

const tags = ["jobs"];
const ACCESS_NOTE =
  "Jobs are report runs so far: a key needs `reports:read`, a session an administrator's role (403 otherwise).";

export function jobRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/jobs",
    {
      config: { access: jobsAccess },
      schema: {
        tags,
        summary: "List background jobs",
        description:
          "Newest first (ties by id); `type` and `status` narrow the list. " +
          `${cappedTotalNote("unfiltered, and with `type`, `status` or both")} ${ACCESS_NOTE}`,
        querystring: ListJobsQuery,
        response: { 200: JobPage },
      },
    },
    (request) => service.listJobs(db, tenantOf(request).id, request.query),
  );

  app.get(
    "/api/institution/jobs/:id",
    {
      config: { access: jobsAccess },
      schema: {
        tags,
        summary: "Get a job",
        description:
          "Status, progress (updated every batch of about 1000 items) and counts. `attempts` above 1 means a " +
          `worker stopped mid-run and another took the job over once its lease ran out. ${ACCESS_NOTE}`,
        params: IdParams,
        response: { 200: Job },
      },
    },
    (request) => service.getJob(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.post(
    "/api/institution/jobs/:id/cancel",
    {
      config: { access: jobsAccess, errors: [409] },
      schema: {
        tags,
        summary: "Cancel a job",
        description:
          "A queued job is canceled at once (`job_completed` with status `canceled`). A running one answers with " +
          "`cancelRequested: true`; its worker stops at its next batch, drops any partial output and ends it " +
          `\`canceled\`. A job that has already ended: 409 \`conflict\`. ${ACCESS_NOTE}`,
        params: IdParams,
        response: { 200: Job },
      },
    },
    (request) =>
      service.cancelJob(db, tenantOf(request).id, requireUuid(request.params.id), principalOf(request)),
  );
}
