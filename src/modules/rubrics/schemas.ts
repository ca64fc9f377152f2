import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const RUBRIC_SCOPES = ["institution", "course"] as const;
export type RubricScope = (typeof RUBRIC_SCOPES)[number];
export const RUBRIC_STATUSES = ["active", "archived"] as const;
export type RubricStatus = (typeof RUBRIC_STATUSES)[number];
export const RUBRIC_SORTS = ["createdAt", "-createdAt", "title", "-title"] as const;
export type RubricSort = (typeof RUBRIC_SORTS)[number];

export const MAX_CRITERIA = 50;
export const MIN_RATINGS = 2;
export const MAX_RATINGS = 10;
export const MAX_POINTS = 100_000;

const Points = Type.Number({ minimum: 0, maximum: MAX_POINTS });
const LongDescription = Type.Union([Type.String({ maxLength: 5000 }), Type.Null()]);

export const Rating = Type.Object(
  {
    id: Uuid,
    description: Type.String(),
    longDescription: Type.Union([Type.String(), Type.Null()]),
    points: Type.Number(),
  },
  { additionalProperties: false },
);
export type RatingRecord = Static<typeof Rating>;

export const Criterion = Type.Object(
  {
    id: Uuid,
    description: Type.String(),
    longDescription: Type.Union([Type.String(), Type.Null()]),
    points: Type.Number(),
    useRange: Type.Boolean(),
    position: Type.Integer({ minimum: 1, description: "1-based place in the rubric." }),
    ratings: Type.Array(Rating, { description: "Highest points first." }),
  },
  { additionalProperties: false },
);
export type CriterionRecord = Static<typeof Criterion>;

const RatingInput = Type.Object(
  {
    id: Type.Optional(Uuid),
    description: Type.String({ minLength: 1, maxLength: 255 }),
    longDescription: Type.Optional(LongDescription),
    points: Points,
  },
  { additionalProperties: false },
);

const criterionFields = {
  description: Type.String({ minLength: 1, maxLength: 255 }),
  longDescription: Type.Optional(LongDescription),
  points: Type.Number({ exclusiveMinimum: 0, maximum: MAX_POINTS }),
  useRange: Type.Optional(
    Type.Boolean({
      description:
        "Scores may fall anywhere in a rating's range: above the next lower rating's points, up to its own.",
    }),
  ),
  ratings: Type.Array(RatingInput, {
    minItems: MIN_RATINGS,
    maxItems: MAX_RATINGS,
    description:
      "Each rating's points between 0 and the criterion's points, no two equal; stored highest first. A rating " +
      "without `id` gets one.",
  }),
};

export const CriterionInput = Type.Object(
  {
    id: Type.Optional(Type.String({ format: "uuid", description: "Kept when given; a new one otherwise." })),
    ...criterionFields,
    position: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          "Ignored: the array's order decides (accepted so that a GET's criteria can be sent back).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CriterionInputType = Static<typeof CriterionInput>;

const CriteriaInput = Type.Array(CriterionInput, { minItems: 1, maxItems: MAX_CRITERIA });

const RATING_EXAMPLE = [
  { id: "9a1b2c3d-4e5f-4a6b-8c7d-000000000001", description: "Completo", longDescription: null, points: 10 },
  { id: "9a1b2c3d-4e5f-4a6b-8c7d-000000000002", description: "Parcial", longDescription: null, points: 5 },
  { id: "9a1b2c3d-4e5f-4a6b-8c7d-000000000003", description: "Ausente", longDescription: null, points: 0 },
];
const CRITERION_EXAMPLE = {
  id: "8e7d6c5b-4a39-4281-9a0b-1c2d3e4f5a6b",
  description: "Argumentação",
  longDescription: "Defende a tese com evidências.",
  points: 10,
  useRange: false,
  position: 1,
  ratings: RATING_EXAMPLE,
};
export const RUBRIC_EXAMPLE = {
  id: "3c5e7a9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d",
  title: "Redação argumentativa",
  description: "Critérios da redação do 2º bimestre.",
  scope: "course",
  courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  freeFormComments: false,
  hideScoreTotal: false,
  criteria: [CRITERION_EXAMPLE],
  pointsPossible: 10,
  status: "active",
  inUse: true,
  version: 2,
  assessmentCount: 31,
  createdAt: "2026-03-01T12:00:00.000Z",
  updatedAt: "2026-03-08T09:30:00.000Z",
};

export const Rubric = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    scope: StringEnum(RUBRIC_SCOPES),
    courseId: Type.Union([Uuid, Type.Null()]),
    freeFormComments: Type.Boolean(),
    hideScoreTotal: Type.Boolean(),
    criteria: Type.Array(Criterion, { description: "The current version's criteria, in position order." }),
    pointsPossible: Type.Number({ description: "The sum of the criteria's points." }),
    status: StringEnum(RUBRIC_STATUSES),
    inUse: Type.Boolean({ description: "Assessed at least once (with any version)." }),
    version: Type.Integer({
      minimum: 1,
      description: "The current version: an edit of criteria once it has assessments makes the next one.",
    }),
    assessmentCount: Type.Integer({ minimum: 0, description: "Assessments with any version (a counter)." }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [RUBRIC_EXAMPLE] },
);
export type RubricRecord = Static<typeof Rubric>;

const Title = Type.String({ minLength: 1, maxLength: 255 });
const Description = Type.Union([Type.String({ maxLength: 5000 }), Type.Null()]);
const editable = {
  description: Type.Optional(Description),
  freeFormComments: Type.Optional(
    Type.Boolean({
      description:
        "Assessors may give any points from 0 to the criterion's, with a comment, instead of a rating.",
    }),
  ),
  hideScoreTotal: Type.Optional(Type.Boolean({ description: "Students are not shown the total." })),
  status: Type.Optional(StringEnum(RUBRIC_STATUSES)),
};

export const CreateRubricBody = Type.Object(
  {
    title: Title,
    scope: Type.Optional(
      StringEnum(RUBRIC_SCOPES, {
        description: "`course` when `courseId` is given, `institution` otherwise.",
      }),
    ),
    courseId: Type.Optional(
      Type.Union([Uuid, Type.Null()], {
        description: "Required with the course scope; a course of the tenant.",
      }),
    ),
    ...editable,
    criteria: CriteriaInput,
  },
  {
    additionalProperties: false,
    examples: [
      {
        title: RUBRIC_EXAMPLE.title,
        courseId: RUBRIC_EXAMPLE.courseId,
        criteria: [
          {
            description: "Argumentação",
            points: 10,
            ratings: [
              { description: "Completo", points: 10 },
              { description: "Parcial", points: 5 },
              { description: "Ausente", points: 0 },
            ],
          },
        ],
      },
    ],
  },
);
export type CreateRubricInput = Static<typeof CreateRubricBody>;

export const UpdateRubricBody = Type.Object(
  { title: Type.Optional(Title), ...editable, criteria: Type.Optional(CriteriaInput) },
  { additionalProperties: false, minProperties: 1, examples: [{ hideScoreTotal: true }] },
);
export type UpdateRubricInput = Static<typeof UpdateRubricBody>;

export const PutCriterionBody = Type.Object(
  {
    ...criterionFields,
    position: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_CRITERIA,
        description:
          "Where the criterion goes (1-based); an existing one keeps its place, a new one goes last.",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        description: "Clareza",
        points: 5,
        ratings: [
          { description: "Sim", points: 5 },
          { description: "Não", points: 0 },
        ],
      },
    ],
  },
);
export type PutCriterionInput = Static<typeof PutCriterionBody>;

export const CriterionParams = Type.Object(
  { id: Type.String({ maxLength: 64 }), criterionId: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

export const ListRubricsQuery = Type.Object(
  {
    ...PageQuery,
    scope: Type.Optional(StringEnum(RUBRIC_SCOPES)),
    courseId: Type.Optional(Uuid),
    status: Type.Optional(StringEnum(RUBRIC_STATUSES)),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "Matches the title, ignoring case and accents.",
      }),
    ),
    sort: Type.Optional(
      StringEnum(RUBRIC_SORTS, { default: "-createdAt", description: "`-` sorts descending; ties by id." }),
    ),
  },
  { additionalProperties: false },
);
export type ListRubricsQueryType = Static<typeof ListRubricsQuery>;
export const RubricPage = CappedPageOf(Rubric);
