/**
 * Running a report: the job handler of type `report`. Rows stream from the keyset cursor (cursor.ts), a batch of
 * 1000 at a time encoded by the database as one string (CSV or JSON lines, encode-sql.ts), into the media store,
 * which writes them to its file as they come: the process holds one batch's text and the stream's buffers whatever
 * the report's size. After each batch the job's progress and counts are recorded (and its lease renewed); a
 * cancellation or a lost lease stops the stream there, and the partial file is never kept.
 */
import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../platform/context.js";
import { emitEvent } from "../events/emit.js";
import type { ClaimedJob, JobEnd, JobHandler, RunningJob } from "../jobs/service.js";
import { removeObject, type StoredObject, writeObject } from "../media/service.js";
import type { ReportFormat, ReportTypeKey } from "./catalogue.js";
import { BATCH_ROWS, countRows, readEncoded } from "./cursor.js";
import { headerOf, lineOf, type ProfileField } from "./encode-sql.js";
import { type ReportParams, sourceOf } from "./sources.js";

/** What a report job carries (`payload`) and leaves (`result`). */
export interface ReportPayload {
  format: ReportFormat;
  parameters: ReportParams;
}
export interface ReportResult extends StoredObject {
  rowCount: number;
  contentType: string;
  filename: string;
}

export const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/jsonl; charset=utf-8",
};

/** The active custom profile fields, in their order: a column each in the users report. */
async function profileFields(ctx: AppContext, tenantId: string): Promise<ProfileField[]> {
  const result = (await ctx.database.db.execute(sql`
    SELECT id::text, key FROM profile_fields WHERE tenant_id = ${tenantId} AND status = 'active'
     ORDER BY position, id`)) as { rows: ProfileField[] };
  return result.rows;
}

function filenameOf(job: ClaimedJob, format: ReportFormat): string {
  return `${job.subtype ?? "report"}-${job.id.slice(0, 8)}.${format}`;
}

async function run(ctx: AppContext, job: RunningJob) {
  const type = job.subtype as ReportTypeKey;
  const { format, parameters } = job.payload as ReportPayload;
  const db = ctx.database.db;
  const source = sourceOf(type, job.tenantId, parameters);
  const [total, fields] = await Promise.all([
    countRows(db, source),
    type === "users" ? profileFields(ctx, job.tenantId) : Promise.resolve([]),
  ]);
  const header = headerOf(format, source.columns, fields);
  const line = lineOf(format, source.columns, fields);
  let rows = 0;
  await job.heartbeat({ total, processed: 0, succeeded: 0, failed: 0 });
  async function* lines(): AsyncGenerator<string> {
    if (header !== "") yield header;
    for await (const batch of readEncoded(db, source, line, BATCH_ROWS)) {
      yield batch.text;
      rows += batch.rows;
      await job.heartbeat({ total: Math.max(total, rows), processed: rows, succeeded: rows, failed: 0 });
    }
  }
  const contentType = CONTENT_TYPES[format];
  const stored = await writeObject(ctx.config.media, job.tenantId, Readable.from(lines()), contentType);
  const result: ReportResult = { ...stored, rowCount: rows, contentType, filename: filenameOf(job, format) };
  return {
    status: "succeeded" as const,
    progress: { total: rows, processed: rows, succeeded: rows, failed: 0 },
    result,
  };
}

/** report_completed or report_failed, in the transaction that ends the job (canceled runs emit neither). */
async function ended(tx: Parameters<NonNullable<JobHandler["ended"]>>[0], job: ClaimedJob, end: JobEnd) {
  const { format } = job.payload as ReportPayload;
  const about = {
    runId: job.id,
    type: job.subtype as ReportTypeKey,
    format,
    requestedBy: job.createdBy,
  };
  if (end.status === "succeeded") {
    const result = end.result as ReportResult;
    await emitEvent(tx, {
      tenantId: job.tenantId,
      type: "report_completed",
      actor: { type: "system" },
      data: { ...about, rowCount: result.rowCount, sizeBytes: result.sizeBytes },
    });
  } else if (end.status === "failed") {
    await emitEvent(tx, {
      tenantId: job.tenantId,
      type: "report_failed",
      actor: { type: "system" },
      data: { ...about, rowCount: end.progress.processed, error: end.error ?? "failed" },
    });
  }
}

export const reportJobHandler: JobHandler = {
  run,
  ended,
  discard: (ctx, _job, result) => removeReportFile(ctx, result),
};

/** Removes a run's file from the store (DELETE /reports/{runId}). */
export async function removeReportFile(ctx: AppContext, result: unknown): Promise<void> {
  const file = result as Partial<ReportResult> | null;
  if (file?.storage !== undefined && file.key !== undefined) {
    await removeObject(ctx.config.media, { storage: file.storage, key: file.key });
  }
}
