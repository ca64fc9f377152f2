import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { CreatedBy } from "../jobs/schemas.js";
import { REPORT_FORMATS, REPORT_TYPE_KEYS, REPORT_TYPES } from "./catalogue.js";

export const REPORT_STATUSES = ["queued", "running", "completed", "failed", "canceled"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const ReportType = Type.Object(
  {
    key: StringEnum(REPORT_TYPE_KEYS),
    title: Type.String(),
    description: Type.String(),
    parameters: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          type: StringEnum(["uuid", "string"] as const),
          required: Type.Boolean(),
          values: Type.Optional(Type.Array(Type.String())),
          description: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
    formats: Type.Array(StringEnum(REPORT_FORMATS)),
  },
  { additionalProperties: false },
);

export const ReportTypeList = Type.Object(
  { data: Type.Array(ReportType) },
  { additionalProperties: false, examples: [{ data: [REPORT_TYPES[0]] }] },
);

const Parameters = Type.Object(
  {
    courseId: Type.Optional(Uuid),
    liveClassId: Type.Optional(Uuid),
    status: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    role: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  },
  {
    additionalProperties: false,
    description: "The type's parameters (GET /reports/types); one the type does not take is 400.",
  },
);

export const CreateReportBody = Type.Object(
  {
    type: StringEnum(REPORT_TYPE_KEYS),
    format: Type.Optional(StringEnum(REPORT_FORMATS, { default: "csv" })),
    parameters: Type.Optional(Parameters),
  },
  {
    additionalProperties: false,
    examples: [
      { type: "grades", format: "csv", parameters: { courseId: "3f9a1b2c-7d6e-4f5a-8b9c-0d1e2f3a4b5c" } },
    ],
  },
);
export type CreateReportBodyType = Static<typeof CreateReportBody>;

const REPORT_EXAMPLE = {
  id: "5b7e2a1c-3d4f-4e5a-9b6c-7d8e9f0a1b2c",
  type: "grades",
  format: "csv",
  parameters: { courseId: "3f9a1b2c-7d6e-4f5a-8b9c-0d1e2f3a4b5c" },
  status: "completed",
  progress: 100,
  rowCount: 1200,
  file: { sizeBytes: 98_304, contentType: "text/csv; charset=utf-8", filename: "grades-5b7e2a1c.csv" },
  jobId: "5b7e2a1c-3d4f-4e5a-9b6c-7d8e9f0a1b2c",
  requestedBy: { type: "api_key", id: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" },
  error: null,
  createdAt: "2026-03-01T12:00:00.000Z",
  startedAt: "2026-03-01T12:00:01.000Z",
  finishedAt: "2026-03-01T12:00:04.000Z",
};

export const ReportRun = Type.Object(
  {
    id: Uuid,
    type: StringEnum(REPORT_TYPE_KEYS),
    format: StringEnum(REPORT_FORMATS),
    parameters: Parameters,
    status: StringEnum(REPORT_STATUSES),
    progress: Type.Integer({ minimum: 0, maximum: 100 }),
    rowCount: Type.Integer({ minimum: 0, description: "Rows written so far (all of them once completed)." }),
    file: Type.Union(
      [
        Type.Object(
          {
            sizeBytes: Type.Integer({ minimum: 0 }),
            contentType: Type.String(),
            filename: Type.String(),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: "Once completed: GET /reports/{runId}/download redirects to a signed URL of it." },
    ),
    jobId: Type.String({ format: "uuid", description: "The run's job (GET /jobs/{jobId}); the same id." }),
    requestedBy: CreatedBy,
    error: Type.Union([Type.String(), Type.Null()]),
    createdAt: IsoDateTime,
    startedAt: Type.Union([IsoDateTime, Type.Null()]),
    finishedAt: Type.Union([IsoDateTime, Type.Null()]),
  },
  { additionalProperties: false, examples: [REPORT_EXAMPLE] },
);
export type ReportRunRecord = Static<typeof ReportRun>;

export const ListReportsQuery = Type.Object(
  {
    ...PageQuery,
    type: Type.Optional(StringEnum(REPORT_TYPE_KEYS)),
    status: Type.Optional(StringEnum(REPORT_STATUSES)),
  },
  { additionalProperties: false },
);
export type ListReportsQueryType = Static<typeof ListReportsQuery>;

export const ReportPage = CappedPageOf(ReportRun);

export const DownloadQuery = Type.Object(
  {
    redirect: Type.Optional(
      Type.Boolean({
        default: true,
        description: "`false` answers 200 with the signed URL in the body instead of a 302 to it.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const SignedUrl = Type.Object(
  { url: Type.String({ format: "uri" }), expiresAt: IsoDateTime },
  {
    additionalProperties: false,
    examples: [
      {
        url: "https://acme.example.com/api/reports/5b7e2a1c-3d4f-4e5a-9b6c-7d8e9f0a1b2c/file?token=1772370000.abc",
        expiresAt: "2026-03-01T13:00:00.000Z",
      },
    ],
  },
);

export const FileQuery = Type.Object(
  { token: Type.String({ maxLength: 200 }) },
  { additionalProperties: false },
);
