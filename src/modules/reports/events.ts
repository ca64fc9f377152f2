import { Type } from "typebox";
import { StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID } from "../events/define.js";
import { CreatedBy } from "../jobs/schemas.js";
import { REPORT_FORMATS, REPORT_TYPE_KEYS } from "./catalogue.js";

const About = {
  runId: Type.String({ format: "uuid", description: "The report run (also its job's id)." }),
  type: StringEnum(REPORT_TYPE_KEYS),
  format: StringEnum(REPORT_FORMATS),
  requestedBy: Type.Union([
    Type.Object(
      { type: StringEnum(["user", "api_key"] as const), id: Uuid },
      { additionalProperties: false },
    ),
    Type.Null(),
  ]),
};

export const reportEvents = {
  report_completed: defineEvent({
    schemaVersion: 1,
    description:
      "A report run finished and its file is ready: GET /reports/{runId}/download answers a signed URL to it.",
    payload: Type.Object({
      ...About,
      rowCount: Type.Integer({ minimum: 0 }),
      sizeBytes: Type.Integer({ minimum: 0 }),
    }),
    sample: {
      runId: SAMPLE_ID,
      type: "grades",
      format: "csv",
      requestedBy: null,
      rowCount: 1200,
      sizeBytes: 98_304,
    },
  }),
  report_failed: defineEvent({
    schemaVersion: 1,
    description: "A report run failed for good (after its retries); no file was kept.",
    payload: Type.Object({ ...About, rowCount: Type.Integer({ minimum: 0 }), error: Type.String() }),
    sample: {
      runId: SAMPLE_ID,
      type: "grades",
      format: "csv",
      requestedBy: null,
      rowCount: 0,
      error: "the report could not be written",
    },
  }),
};
