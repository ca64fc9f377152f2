import { type Static, Type } from "typebox";
import { BulkStatusSchema, BulkSummary, ItemError } from "../../platform/http/bulk.js";
import { StringEnum, Uuid } from "../../platform/http/schemas.js";

export const MAX_IMPORT_ROWS = 1000;
export const MAX_CSV_LENGTH = 500_000;

export const CSV_FORMAT =
  "The CSV (Canvas's rubric import shape) has a header line and one line per criterion: `Rubric Name`, " +
  "`Criteria Name`, optionally `Criteria Description` and `Criteria Enable Range` (`true`/`false`), then one " +
  "group per rating of `Rating Name`, `Rating Description` (optional) and `Rating Points`, repeated as often as " +
  "needed (2 to 10 ratings filled per line; empty groups are ignored). Lines with the same rubric name make one " +
  "rubric, criteria in line order; a criterion's points are its highest rating's. Columns are found by their " +
  "header names, in any case.";

export const ImportRubricsBody = Type.Object(
  {
    csv: Type.String({
      minLength: 1,
      maxLength: MAX_CSV_LENGTH,
      description: "The CSV text, as described above.",
    }),
    courseId: Type.Optional(
      Type.Union([Uuid, Type.Null()], {
        description: "Imports course rubrics of this course; institution ones without.",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        csv:
          "Rubric Name,Criteria Name,Criteria Description,Rating Name,Rating Description,Rating Points,Rating Name," +
          "Rating Description,Rating Points\nRedação,Argumentação,Defende a tese,Completo,,10,Ausente,,0\n",
      },
    ],
  },
);
export type ImportRubricsInput = Static<typeof ImportRubricsBody>;

export const ImportRowResult = Type.Object(
  {
    row: Type.Integer({ minimum: 2, description: "The CSV line the row starts on (the header is line 1)." }),
    rubricTitle: Type.String(),
    status: BulkStatusSchema,
    rubricId: Type.Optional(Uuid),
    reason: Type.Optional(
      StringEnum(["rubric_has_errors"] as const, {
        description: "Skipped: another row of the same rubric failed, so the rubric was not created.",
      }),
    ),
    error: Type.Optional(ItemError),
  },
  { additionalProperties: false },
);

export const ImportRubricsResponse = Type.Object(
  {
    results: Type.Array(ImportRowResult),
    rubricIds: Type.Array(Uuid, { description: "The rubrics created, in the order they first appear." }),
    summary: BulkSummary,
  },
  {
    additionalProperties: false,
    examples: [
      {
        results: [
          {
            row: 2,
            rubricTitle: "Redação",
            status: "created",
            rubricId: "3c5e7a9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d",
          },
          {
            row: 3,
            rubricTitle: "Oral",
            status: "failed",
            error: {
              error: "validation_failed",
              message: "The request is not valid. See details for each field.",
              details: [{ field: "ratings[1].points", message: "Repeats an earlier entry: 4." }],
            },
          },
          { row: 4, rubricTitle: "Oral", status: "skipped", reason: "rubric_has_errors" },
        ],
        rubricIds: ["3c5e7a9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d"],
        summary: { total: 3, created: 1, skipped: 1, failed: 1 },
      },
    ],
  },
);
