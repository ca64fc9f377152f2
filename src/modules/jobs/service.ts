import type { Executor } from "../../db/client.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import type { Actor } from "../events/actor.js";
import { eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import * as repo from "./repo.js";
import type { JobRecord, JobType, ListJobsQueryType } from "./schemas.js";
import { notifyJobs } from "./worker.js";

export type { JobRow } from "./repo.js";
export {
  type ClaimedJob,
  type JobEnd,
  JobFailure,
  type JobHandler,
  type JobHandlers,
  type RunningJob,
} from "./run.js";
export { drainJobs, type JobLoop, type JobLoopOptions, startJobLoop } from "./worker.js";

/** The public record of a job (its payload and result are its type's to show). */
export function toJobRecord(row: repo.JobRow): JobRecord {
  return {
    id: row.id,
    type: row.type as JobType,
    subtype: row.subtype,
    status: row.status,
    progress: row.progress,
    totalItems: Number(row.totalItems),
    processedItems: Number(row.processedItems),
    succeededItems: Number(row.succeededItems),
    failedItems: Number(row.failedItems),
    cancelRequested: row.cancelRequested,
    attempts: row.attempts,
    error: row.error,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

/**
 * Queues a job in the caller's transaction, and wakes the workers when it commits: a job exists exactly when what
 * asked for it does.
 */
export async function enqueueJob(
  tx: Executor,
  tenantId: string,
  job: { type: JobType; subtype?: string; payload: unknown; actor: Actor },
): Promise<repo.JobRow> {
  const actor = eventActorOf(job.actor);
  const row = await repo.insertJob(tx, {
    tenantId,
    type: job.type,
    subtype: job.subtype ?? null,
    payload: job.payload,
    createdBy: actor.type === "user" || actor.type === "api_key" ? actor : null,
  });
  await notifyJobs(tx);
  return row;
}

export async function listJobRows(
  db: Executor,
  tenantId: string,
  filter: repo.JobFilter,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  const [rows, total] = await Promise.all([
    repo.listJobs(db, tenantId, filter, window),
    repo.countJobs(db, tenantId, filter),
  ]);
  return { rows, total, window };
}

export async function listJobs(db: Executor, tenantId: string, query: ListJobsQueryType) {
  const { rows, total, window } = await listJobRows(
    db,
    tenantId,
    { type: query.type, status: query.status },
    query,
  );
  return cappedPageEnvelope(rows.map(toJobRecord), total, window);
}

export async function findJobRow(db: Executor, tenantId: string, id: string, type?: JobType) {
  const row = await repo.findJob(db, tenantId, id, type);
  if (row === undefined) throw notFound();
  return row;
}

export async function getJob(db: Executor, tenantId: string, id: string): Promise<JobRecord> {
  return toJobRecord(await findJobRow(db, tenantId, id));
}

/**
 * Cancels a job. A queued one ends at once (`canceled`, with `job_completed` in the same transaction); a running
 * one is asked to stop (`cancelRequested`), and its worker ends it at its next batch; an ended one is 409.
 */
export async function cancelJob(
  db: Executor,
  tenantId: string,
  id: string,
  actor: Actor,
  type?: JobType,
): Promise<JobRecord> {
  return db.transaction(async (tx) => {
    const row = await findJobRow(tx, tenantId, id, type);
    const result = await repo.cancelJob(tx, tenantId, row.id);
    if (result === undefined) {
      const now = await findJobRow(tx, tenantId, id, type);
      throw new AppError("conflict", { messageKey: "conflict.job_ended", params: { status: now.status } });
    }
    if (result.outcome === "canceled") {
      const j = result.row;
      await emitEvent(tx, {
        tenantId,
        type: "job_completed",
        actor: eventActorOf(actor),
        data: {
          jobId: j.id,
          type: j.type as JobType,
          subtype: j.subtype,
          status: "canceled",
          totalItems: Number(j.totalItems),
          processedItems: Number(j.processedItems),
          succeededItems: Number(j.succeededItems),
          failedItems: Number(j.failedItems),
          attempts: j.attempts,
          error: null,
        },
      });
    }
    return toJobRecord(result.row);
  });
}

export const deleteJobRow = repo.deleteJob;
