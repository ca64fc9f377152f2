/**
 * Running a report: the job handler of type `report`. Rows stream from the keyset cursor (cursor.ts), a batch of
 * 1000 at a time, through the encoder (CSV or JSON lines) into the media store, which writes them to its file as
 * they come: the process holds one batch and the stream's buffers whatever the report's size. After each batch
 * the job's progress and counts are recorded (and its lease renewed); a cancellation or a lost lease stops the
 * stream there, and the partial file is never kept.
 */
import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { toIso } from "../../db/schema/columns.js";
import type { AppContext } from "../../platform/context.js";
import { csvField } from "../../platform/http/csv.js";
import { emitEvent } from "../events/emit.js";
import type { ClaimedJob, JobEnd, JobHandler, RunningJob } from "../jobs/service.js";
import { removeObject, type StoredObject, writeObject } from "../media/service.js";
import type { ReportFormat, ReportTypeKey } from "./catalogue.js";
import { BATCH_ROWS, type Column, countRows, readBatches, type Value } from "./cursor.js";
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

interface ProfileField {
  id: string;
  key: string;
}

/** The active custom profile fields, in their order: a column each in the users report. */
async function profileFields(ctx: AppContext, tenantId: string): Promise<ProfileField[]> {
  const result = (await ctx.database.db.execute(sql`
    SELECT id::text, key FROM profile_fields WHERE tenant_id = ${tenantId} AND status = 'active'
     ORDER BY position, id`)) as { rows: ProfileField[] };
  return result.rows;
}

function profileText(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(String).join("; ");
  if (typeof value === "number") return value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function cell(kind: Column["kind"], value: Value): string | number | null {
  if (value === null || value === undefined) return null;
  if (kind === "time") return toIso(String(value));
  if (kind === "number") return Number(value);
  return String(value);
}

/** An encoder of rows into lines of the format, with the header the columns (and profile fields) make. */
function encoder(format: ReportFormat, columns: Column[], fields: ProfileField[]) {
  const profileAt = columns.findIndex((c) => c.kind === "json");
  const names = columns.flatMap((c) =>
    c.kind === "json" ? fields.map((f) => `profile.${f.key}`) : [c.name],
  );
  const cells = (row: Value[]): (string | number | null)[] =>
    columns.flatMap((c, i) => {
      if (i !== profileAt) return [cell(c.kind, row[i])];
      const values = (row[i] ?? {}) as Record<string, unknown>;
      return fields.map((f) => profileText(values[f.id]));
    });
  if (format === "csv") {
    return {
      header: `${names.map(csvField).join(",")}\r\n`,
      line: (row: Value[]) => `${cells(row).map(csvField).join(",")}\r\n`,
    };
  }
  return {
    header: "",
    line: (row: Value[]) => {
      const values = cells(row);
      return `${JSON.stringify(Object.fromEntries(names.map((n, i) => [n, values[i]])))}\n`;
    },
  };
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
  const encode = encoder(format, source.columns, fields);
  let rows = 0;
  await job.heartbeat({ total, processed: 0, succeeded: 0, failed: 0 });
  async function* lines(): AsyncGenerator<string> {
    if (encode.header !== "") yield encode.header;
    for await (const batch of readBatches(db, source, BATCH_ROWS)) {
      // One string per batch: a thousand small writes would cost more than the rows themselves.
      yield batch.map(encode.line).join("");
      rows += batch.length;
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
