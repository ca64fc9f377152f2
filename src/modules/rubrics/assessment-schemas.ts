import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { Criterion, MAX_CRITERIA, MAX_POINTS, RUBRIC_EXAMPLE } from "./schemas.js";

/** What can be assessed: a quiz attempt or an assignment's submission. */
export const TARGET_TYPES = ["quiz_attempt", "submission"] as const;
export type TargetType = (typeof TARGET_TYPES)[number];
export const ASSESSMENT_TYPES = ["grading", "peer_review", "self"] as const;
export type AssessmentType = (typeof ASSESSMENT_TYPES)[number];

const CriterionScore = Type.Object(
  {
    criterionId: Uuid,
    ratingId: Type.Union([Uuid, Type.Null()]),
    points: Type.Number(),
    comment: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type CriterionScoreRecord = Static<typeof CriterionScore>;

const AssessedBy = Type.Object(
  {
    type: StringEnum(["user", "api_key", "system"] as const),
    id: Type.Union([Uuid, Type.Null()]),
  },
  {
    additionalProperties: false,
    description: "Who assessed: a user's session, an API key, or the platform.",
  },
);

const SCORE_EXAMPLE = {
  criterionId: "8e7d6c5b-4a39-4281-9a0b-1c2d3e4f5a6b",
  ratingId: "9a1b2c3d-4e5f-4a6b-8c7d-000000000002",
  points: 5,
  comment: "Faltou uma fonte.",
};
const SUMMARY_EXAMPLE = {
  id: "1f2e3d4c-5b6a-4978-8a1b-2c3d4e5f6a7b",
  rubricId: "3c5e7a9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d",
  rubricVersion: 2,
  targetType: "quiz_attempt",
  targetId: "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a",
  courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  userId: "7d3e9f10-2b4c-4a5d-8e6f-9a0b1c2d3e4f",
  assessedBy: { type: "user", id: "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e" },
  type: "grading",
  criterionScores: [SCORE_EXAMPLE],
  totalPoints: 5,
  createdAt: "2026-03-09T14:00:00.000Z",
};

const summaryFields = {
  id: Uuid,
  rubricId: Uuid,
  rubricVersion: Type.Integer({
    minimum: 1,
    description: "The rubric version the assessment was made with.",
  }),
  targetType: StringEnum(TARGET_TYPES),
  targetId: Uuid,
  courseId: Uuid,
  userId: Type.String({ format: "uuid", description: "The assessed student (the target's)." }),
  assessedBy: AssessedBy,
  type: StringEnum(ASSESSMENT_TYPES),
  criterionScores: Type.Array(CriterionScore),
  totalPoints: Type.Number(),
  createdAt: IsoDateTime,
};

export const AssessmentSummary = Type.Object(summaryFields, {
  additionalProperties: false,
  examples: [SUMMARY_EXAMPLE],
});
export type AssessmentSummaryRecord = Static<typeof AssessmentSummary>;

export const Assessment = Type.Object(
  {
    ...summaryFields,
    criteria: Type.Array(Criterion, { description: "The criteria of the version it was made with." }),
    pointsPossible: Type.Number({ description: "The points possible of that version." }),
    gradeItemIds: Type.Optional(
      Type.Array(Uuid, { description: "On creation: the grade items whose grade this assessment wrote." }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        ...SUMMARY_EXAMPLE,
        criteria: [RUBRIC_EXAMPLE.criteria[0]],
        pointsPossible: 10,
        gradeItemIds: ["4e6a8b2c-1d3f-4a5b-8c7d-9e0f1a2b3c4d"],
      },
    ],
  },
);
export type AssessmentRecord = Static<typeof Assessment>;

export const CreateAssessmentBody = Type.Object(
  {
    targetType: StringEnum(TARGET_TYPES),
    targetId: Uuid,
    type: Type.Optional(StringEnum(ASSESSMENT_TYPES, { default: "grading" })),
    criterionScores: Type.Array(
      Type.Object(
        {
          criterionId: Uuid,
          ratingId: Type.Optional(Type.Union([Uuid, Type.Null()])),
          points: Type.Number({ minimum: 0, maximum: MAX_POINTS }),
          comment: Type.Optional(Type.Union([Type.String({ maxLength: 5000 }), Type.Null()])),
        },
        { additionalProperties: false },
      ),
      {
        minItems: 1,
        maxItems: MAX_CRITERIA,
        description: "One score for each criterion of the current version.",
      },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        targetType: "quiz_attempt",
        targetId: SUMMARY_EXAMPLE.targetId,
        type: "grading",
        criterionScores: [SCORE_EXAMPLE],
      },
    ],
  },
);
export type CreateAssessmentInput = Static<typeof CreateAssessmentBody>;

export const AssessmentParams = Type.Object(
  { id: Type.String({ maxLength: 64 }), assessmentId: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
export const ListAssessmentsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const AssessmentPage = CappedPageOf(AssessmentSummary);
