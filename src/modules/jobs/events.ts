import { Type } from "typebox";
import { StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID } from "../events/define.js";
import { JOB_TYPES } from "./schemas.js";

const Count = Type.Integer({ minimum: 0 });

export const jobEvents = {
  job_completed: defineEvent({
    schemaVersion: 1,
    description:
      "A background job ended: succeeded, failed or canceled (GET /jobs/{jobId} has the rest). Emitted once per " +
      "job, in the transaction that records its end.",
    payload: Type.Object({
      jobId: Uuid,
      type: StringEnum(JOB_TYPES),
      subtype: Type.Union([Type.String(), Type.Null()]),
      status: StringEnum(["succeeded", "partially_succeeded", "failed", "canceled"] as const),
      totalItems: Count,
      processedItems: Count,
      succeededItems: Count,
      failedItems: Count,
      attempts: Count,
      error: Type.Union([Type.String(), Type.Null()]),
    }),
    sample: {
      jobId: SAMPLE_ID,
      type: "report",
      subtype: "grades",
      status: "succeeded",
      totalItems: 1200,
      processedItems: 1200,
      succeededItems: 1200,
      failedItems: 0,
      attempts: 1,
      error: null,
    },
  }),
};
