/**
 * Report runs. A run is a background job of type `report` (modules/jobs): POST /reports queues it (202), a worker
 * streams its rows into a file in the media store (produce.ts), and the run's status, progress and counts are its
 * job's. Its file is served through a short-lived signed URL.
 */
import type { Executor } from "../../db/client.js";
import type { AppContext } from "../../platform/context.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import type { Actor } from "../events/actor.js";
import {
  cancelJob,
  deleteJobRow,
  enqueueJob,
  findJobRow,
  type JobRow,
  listJobRows,
} from "../jobs/service.js";
import { objectUrl } from "../media/service.js";
import { REPORT_TYPES, type ReportFormat, type ReportTypeKey, reportType } from "./catalogue.js";
import { type ReportPayload, type ReportResult, removeReportFile } from "./produce.js";
import type { CreateReportBodyType, ListReportsQueryType, ReportRunRecord, ReportStatus } from "./schemas.js";
import { type ReportParams, unknownReferences } from "./sources.js";

export { reportJobHandler } from "./produce.js";

export function listTypes() {
  return {
    data: REPORT_TYPES.map((t) => ({
      ...t,
      parameters: t.parameters.map((p) => ({
        ...p,
        values: p.values === undefined ? undefined : [...p.values],
      })),
      formats: [...t.formats],
    })),
  };
}

const STATUS_OF_JOB: Record<JobRow["status"], ReportStatus> = {
  queued: "queued",
  running: "running",
  succeeded: "completed",
  partially_succeeded: "completed",
  failed: "failed",
  canceled: "canceled",
};
const JOB_STATUS_OF = {
  queued: "queued",
  running: "running",
  completed: "succeeded",
  failed: "failed",
  canceled: "canceled",
} as const;

export function toRunRecord(row: JobRow): ReportRunRecord {
  const payload = row.payload as ReportPayload;
  const file = row.status === "succeeded" ? (row.result as ReportResult | null) : null;
  return {
    id: row.id,
    type: row.subtype as ReportTypeKey,
    format: payload.format,
    parameters: payload.parameters,
    status: STATUS_OF_JOB[row.status],
    progress: row.progress,
    rowCount: Number(row.processedItems),
    file:
      file === null
        ? null
        : { sizeBytes: file.sizeBytes, contentType: file.contentType, filename: file.filename },
    jobId: row.id,
    requestedBy: row.createdBy,
    error: row.error,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

/** Parameters checked against the type: only those it takes, values from its lists, ids of this institution. */
async function checkedParameters(
  db: Executor,
  tenantId: string,
  type: ReportTypeKey,
  given: ReportParams,
): Promise<ReportParams> {
  const info = reportType(type);
  const allowed = new Map((info?.parameters ?? []).map((p) => [p.name, p]));
  for (const [name, value] of Object.entries(given)) {
    const parameter = allowed.get(name);
    if (parameter === undefined) throw validationError(`parameters.${name}`, "field.unknown");
    if (parameter.values !== undefined && !parameter.values.includes(String(value))) {
      throw validationError(`parameters.${name}`, "field.enum", { values: parameter.values.join(", ") });
    }
  }
  const missing = await unknownReferences(db, tenantId, given);
  if (missing.length > 0) {
    const field = missing[0] as string;
    const key = field === "courseId" ? "field.unknown_course" : "field.unknown_live_class";
    throw validationError(`parameters.${field}`, key, { id: String(given[field as keyof ReportParams]) });
  }
  return given;
}

export async function createReport(
  db: Executor,
  tenantId: string,
  body: CreateReportBodyType,
  actor: Actor,
): Promise<ReportRunRecord> {
  const format: ReportFormat = body.format ?? "csv";
  const parameters = await checkedParameters(db, tenantId, body.type, body.parameters ?? {});
  const payload: ReportPayload = { format, parameters };
  const row = await db.transaction((tx) =>
    enqueueJob(tx, tenantId, { type: "report", subtype: body.type, payload, actor }),
  );
  return toRunRecord(row);
}

export async function listReports(db: Executor, tenantId: string, query: ListReportsQueryType) {
  const filter = {
    type: "report",
    subtype: query.type,
    status: query.status === undefined ? undefined : JOB_STATUS_OF[query.status],
  };
  const { rows, total, window } = await listJobRows(db, tenantId, filter, query);
  return cappedPageEnvelope(rows.map(toRunRecord), total, window);
}

const findRun = (db: Executor, tenantId: string, id: string) => findJobRow(db, tenantId, id, "report");

export async function getReport(db: Executor, tenantId: string, id: string): Promise<ReportRunRecord> {
  return toRunRecord(await findRun(db, tenantId, id));
}

/** A signed URL to a completed run's file; 409 until it is completed. */
export async function downloadUrl(
  ctx: AppContext,
  tenantId: string,
  id: string,
  origin: string,
): Promise<{ url: string; expiresAt: string }> {
  const row = await findRun(ctx.database.db, tenantId, id);
  if (row.status !== "succeeded") {
    throw new AppError("conflict", {
      messageKey: "conflict.report_not_ready",
      params: { status: STATUS_OF_JOB[row.status] },
    });
  }
  const file = row.result as ReportResult;
  const expiresAt = new Date(Date.now() + ctx.config.jobs.reportUrlTtlSeconds * 1000);
  const url = await objectUrl(
    ctx.config.media,
    tenantId,
    file,
    { filename: file.filename, contentType: file.contentType },
    expiresAt,
    `${origin}/api/reports/${row.id}/file`,
  );
  return { url, expiresAt: expiresAt.toISOString() };
}

/**
 * Deletes a run and its file. A queued or running run is canceled first (a running one stops at its next batch;
 * its job record goes with the run, so the worker's end matches nothing and the file it made is dropped).
 */
export async function deleteReport(
  ctx: AppContext,
  tenantId: string,
  id: string,
  actor: Actor,
): Promise<void> {
  const db = ctx.database.db;
  const row = await findRun(db, tenantId, id);
  if (row.status === "queued" || row.status === "running") {
    await cancelJob(db, tenantId, id, actor, "report").catch((err: unknown) => {
      if (!(err instanceof AppError && err.code === "conflict")) throw err;
    });
  }
  await deleteJobRow(db, tenantId, id);
  await removeReportFile(ctx, row.result);
}

/** The local store's file of a run, for the signed URL's route: the run must be completed and the token valid. */
export async function localFile(ctx: AppContext, tenantId: string, id: string) {
  const row = await findJobRow(ctx.database.db, tenantId, id, "report").catch(() => undefined);
  if (row === undefined || row.status !== "succeeded") throw notFound();
  const file = row.result as ReportResult;
  if (file.storage !== "local") throw notFound();
  return file;
}
