import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { jobs } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { JobStatus } from "./schemas.js";

/** A job as stored, with what its type's records read beside the public fields. */
export interface JobRow {
  id: string;
  type: string;
  subtype: string | null;
  status: JobStatus;
  progress: number;
  totalItems: number;
  processedItems: number;
  succeededItems: number;
  failedItems: number;
  cancelRequested: boolean;
  attempts: number;
  error: string | null;
  createdBy: { type: "user" | "api_key"; id: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  payload: unknown;
  result: unknown;
}

export const jobColumns = {
  id: jobs.id,
  type: jobs.type,
  subtype: jobs.subtype,
  status: jobs.status,
  progress: jobs.progress,
  totalItems: jobs.totalItems,
  processedItems: jobs.processedItems,
  succeededItems: jobs.succeededItems,
  failedItems: jobs.failedItems,
  cancelRequested: jobs.cancelRequested,
  attempts: jobs.attempts,
  error: jobs.error,
  createdBy: jobs.createdBy,
  createdAt: jobs.createdAt,
  startedAt: jobs.startedAt,
  finishedAt: jobs.finishedAt,
  payload: jobs.payload,
  result: jobs.result,
};

export interface JobFilter {
  type?: string;
  subtype?: string;
  status?: JobStatus;
}

function where(tenantId: Bindable, f: { type?: Bindable; subtype?: Bindable; status?: Bindable }): SQL {
  return and(
    eq(jobs.tenantId, tenantId),
    f.type === undefined ? undefined : eq(jobs.type, f.type),
    f.subtype === undefined ? undefined : eq(jobs.subtype, f.subtype),
    f.status === undefined ? undefined : eq(jobs.status, f.status),
  ) as SQL;
}

/** Newest first (ties by id), on the index of the filter's columns. */
export async function listJobs(
  db: Executor,
  tenantId: string,
  filter: JobFilter,
  window: PageWindow,
): Promise<JobRow[]> {
  const rows = await runPageQuery(db, "jobs", tenantId, { ...filter }, window, (p, name) =>
    db
      .select(jobColumns)
      .from(jobs)
      .where(where(p.tenantId, p))
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as JobRow[];
}

/**
 * Totals from the counters the migration's triggers keep (`jobs`, `jobs:status:<s>`, `jobs:type:<t>`,
 * `jobs:type+status:<t>:<s>`, `jobs:type+subtype:<t>:<st>`); a subtype with a status is counted up to the cap.
 */
export async function countJobs(db: Executor, tenantId: string, f: JobFilter): Promise<CappedTotal> {
  const counter = counterOf(f);
  if (counter !== undefined) return exactTotal(await readCounter(db, tenantId, counter));
  return countCapped(db, jobs, where(tenantId, f), [desc(jobs.createdAt), desc(jobs.id)]);
}

function counterOf(f: JobFilter): string | undefined {
  if (f.subtype !== undefined) {
    return f.type !== undefined && f.status === undefined
      ? `jobs:type+subtype:${f.type}:${f.subtype}`
      : undefined;
  }
  if (f.type !== undefined)
    return f.status === undefined ? `jobs:type:${f.type}` : `jobs:type+status:${f.type}:${f.status}`;
  return f.status === undefined ? "jobs" : `jobs:status:${f.status}`;
}

export async function findJob(
  db: Executor,
  tenantId: string,
  id: string,
  type?: string,
): Promise<JobRow | undefined> {
  const rows = await db
    .select(jobColumns)
    .from(jobs)
    .where(
      and(eq(jobs.tenantId, tenantId), eq(jobs.id, id), type === undefined ? undefined : eq(jobs.type, type)),
    );
  return rows[0] as JobRow | undefined;
}

export async function insertJob(db: Executor, row: typeof jobs.$inferInsert): Promise<JobRow> {
  const rows = await db.insert(jobs).values(row).returning(jobColumns);
  return rows[0] as JobRow;
}

/**
 * Cancels a job: a queued one at once (answered `canceled`), a running one by a request its worker reads at its
 * next heartbeat (answered `requested`); a finished one is left as it is.
 */
export async function cancelJob(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<{ row: JobRow; outcome: "canceled" | "requested" } | undefined> {
  const canceled = await db
    .update(jobs)
    .set({ status: "canceled", finishedAt: sql`now()`, updatedAt: sql`now()`, leaseUntil: null })
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.id, id), eq(jobs.status, "queued")))
    .returning(jobColumns);
  if (canceled[0] !== undefined) return { row: canceled[0] as JobRow, outcome: "canceled" };
  const requested = await db
    .update(jobs)
    .set({ cancelRequested: true, updatedAt: sql`now()` })
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.id, id), eq(jobs.status, "running")))
    .returning(jobColumns);
  if (requested[0] !== undefined) return { row: requested[0] as JobRow, outcome: "requested" };
  return undefined;
}

export async function deleteJob(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.delete(jobs).where(and(eq(jobs.tenantId, tenantId), eq(jobs.id, id)));
}
