import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

/** The kinds of background work. Reports are the first; bulk imports and indexing join as they are built. */
export const JOB_TYPES = ["report", "kb_index"] as const;
export type JobType = (typeof JOB_TYPES)[number];
export const JOB_STATUSES = [
  "queued",
  "running",
  "succeeded",
  "partially_succeeded",
  "failed",
  "canceled",
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** A finished job's status; its counts no longer move. */
export const FINAL_STATUSES: readonly JobStatus[] = [
  "succeeded",
  "partially_succeeded",
  "failed",
  "canceled",
];

const Count = Type.Integer({ minimum: 0 });

/** Who asked for the work: a user's session or an API key (null for the system's own jobs). */
export const CreatedBy = Type.Union([
  Type.Object({ type: StringEnum(["user", "api_key"] as const), id: Uuid }, { additionalProperties: false }),
  Type.Null(),
]);

export const JOB_EXAMPLE = {
  id: "5b7e2a1c-3d4f-4e5a-9b6c-7d8e9f0a1b2c",
  type: "report",
  subtype: "grades",
  status: "running",
  progress: 40,
  totalItems: 250_000,
  processedItems: 100_000,
  succeededItems: 100_000,
  failedItems: 0,
  cancelRequested: false,
  attempts: 1,
  error: null,
  createdBy: { type: "api_key", id: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" },
  createdAt: "2026-03-01T12:00:00.000Z",
  startedAt: "2026-03-01T12:00:01.000Z",
  finishedAt: null,
};

export const Job = Type.Object(
  {
    id: Uuid,
    type: StringEnum(JOB_TYPES),
    subtype: Type.Union([Type.String(), Type.Null()], {
      description: "What the job does within its type: a report job's report type.",
    }),
    status: StringEnum(JOB_STATUSES),
    progress: Type.Integer({
      minimum: 0,
      maximum: 100,
      description: "processedItems / totalItems in percent, updated as the job runs; 100 once succeeded.",
    }),
    totalItems: Type.Integer({
      minimum: 0,
      description: "Items the job will go through, counted when it starts (0 before).",
    }),
    processedItems: Count,
    succeededItems: Count,
    failedItems: Count,
    cancelRequested: Type.Boolean({
      description:
        "Cancellation asked while running; the worker stops at its next batch (within ~1000 items).",
    }),
    attempts: Type.Integer({
      minimum: 0,
      description: "Claims by a worker so far: more than 1 when a worker died and another took the job over.",
    }),
    error: Type.Union([Type.String(), Type.Null()]),
    createdBy: CreatedBy,
    createdAt: IsoDateTime,
    startedAt: Type.Union([IsoDateTime, Type.Null()]),
    finishedAt: Type.Union([IsoDateTime, Type.Null()]),
  },
  { additionalProperties: false, examples: [JOB_EXAMPLE] },
);
export type JobRecord = Static<typeof Job>;

export const ListJobsQuery = Type.Object(
  {
    ...PageQuery,
    type: Type.Optional(StringEnum(JOB_TYPES)),
    status: Type.Optional(StringEnum(JOB_STATUSES)),
  },
  { additionalProperties: false },
);
export type ListJobsQueryType = Static<typeof ListJobsQuery>;

export const JobPage = CappedPageOf(Job);
