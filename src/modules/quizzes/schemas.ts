import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const SCORING_POLICIES = ["highest", "latest", "average", "first"] as const;
export const SOURCE_TYPES = ["fixed", "random"] as const;
export const QUIZ_SORTS = ["createdAt", "-createdAt", "updatedAt", "-updatedAt"] as const;
export type QuizSort = (typeof QUIZ_SORTS)[number];

/** What a random section's questions are each worth when it names no `pointsPerQuestion` (as Canvas does). */
export const DEFAULT_RANDOM_POINTS = 1;

const Source = Type.Object(
  {
    type: StringEnum(SOURCE_TYPES),
    questionIds: Type.Optional(
      Type.Array(Uuid, {
        minItems: 1,
        maxItems: 200,
        uniqueItems: true,
        description: "fixed: the questions, in order.",
      }),
    ),
    bankId: Type.Optional(Type.String({ format: "uuid", description: "random: the bank to draw from." })),
    pickCount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 200,
        description: "random: how many active questions each attempt draws.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description: "`{type: fixed, questionIds}` or `{type: random, bankId, pickCount}`.",
  },
);

const PointsPerQuestion = Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 1_000 }), Type.Null()], {
  description:
    "What each question of the section is worth. Fixed sections default to each question's own points; random " +
    `sections to ${DEFAULT_RANDOM_POINTS}, so every attempt has the same maximum.`,
});

export const SectionInput = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "Generated when omitted." })),
    title: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
    source: Source,
    pointsPerQuestion: Type.Optional(PointsPerQuestion),
  },
  { additionalProperties: false },
);
export type SectionInputType = Static<typeof SectionInput>;

export const Section = Type.Object(
  {
    id: Type.String(),
    title: Type.Union([Type.String(), Type.Null()]),
    source: Source,
    pointsPerQuestion: Type.Union([Type.Number(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type SectionRecord = Static<typeof Section>;

const Sections = Type.Array(SectionInput, { minItems: 1, maxItems: 50 });

const settings = {
  instructions: Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()]),
  timeLimitSeconds: Type.Union([Type.Integer({ minimum: 60, maximum: 86_400 }), Type.Null()]),
  allowedAttempts: Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()], {
    description: "null: unlimited.",
  }),
  scoringPolicy: StringEnum(SCORING_POLICIES, { description: "Which attempt's score counts for the grade." }),
  passPercent: Type.Number({ minimum: 0, maximum: 100 }),
  shuffleQuestions: Type.Boolean(),
  showCorrectAnswers: Type.Boolean(),
};

const SECTION_EXAMPLE = {
  title: "Matrizes",
  source: { type: "fixed", questionIds: ["7d2e4f60-1b3a-4c5d-8e9f-0a1b2c3d4e5f"] },
};
const RANDOM_EXAMPLE = {
  title: "Sorteadas",
  source: { type: "random", bankId: "5b3f7c1e-2a41-4c8e-9a0d-6f1e2b3c4d5e", pickCount: 5 },
  pointsPerQuestion: 2,
};

export const CreateQuizBody = Type.Object(
  {
    lessonId: Uuid,
    instructions: Type.Optional(settings.instructions),
    timeLimitSeconds: Type.Optional(settings.timeLimitSeconds),
    allowedAttempts: Type.Optional(settings.allowedAttempts),
    scoringPolicy: Type.Optional(
      StringEnum(SCORING_POLICIES, {
        default: "highest",
        description: "Which attempt's score counts for the grade.",
      }),
    ),
    passPercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100, default: 60 })),
    shuffleQuestions: Type.Optional(Type.Boolean({ default: false })),
    showCorrectAnswers: Type.Optional(Type.Boolean({ default: false })),
    sections: Sections,
  },
  {
    additionalProperties: false,
    examples: [
      {
        lessonId: "2f1e0d9c-8b7a-4654-8321-0fedcba98765",
        instructions: "Responda sem consulta.",
        timeLimitSeconds: 1800,
        allowedAttempts: 2,
        passPercent: 70,
        sections: [SECTION_EXAMPLE, RANDOM_EXAMPLE],
      },
    ],
  },
);
export type CreateQuizInput = Static<typeof CreateQuizBody>;

export const UpdateQuizBody = Type.Object(
  {
    instructions: Type.Optional(settings.instructions),
    timeLimitSeconds: Type.Optional(settings.timeLimitSeconds),
    allowedAttempts: Type.Optional(settings.allowedAttempts),
    scoringPolicy: Type.Optional(settings.scoringPolicy),
    passPercent: Type.Optional(settings.passPercent),
    shuffleQuestions: Type.Optional(settings.shuffleQuestions),
    showCorrectAnswers: Type.Optional(settings.showCorrectAnswers),
    sections: Type.Optional(Sections),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: "`lessonId` cannot change. `sections` replaces every section; attempts keep what they drew.",
    examples: [{ allowedAttempts: 3, passPercent: 65 }],
  },
);
export type UpdateQuizInput = Static<typeof UpdateQuizBody>;

export const Quiz = Type.Object(
  {
    id: Uuid,
    lessonId: Uuid,
    courseId: Uuid,
    ...settings,
    sections: Type.Array(Section),
    pointsPossible: Type.Number({
      description: "What an attempt is worth, from the questions as they are now.",
    }),
    questionCount: Type.Integer({
      description: "Questions an attempt draws (retired fixed ones are skipped).",
    }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
        lessonId: "2f1e0d9c-8b7a-4654-8321-0fedcba98765",
        courseId: "0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f",
        instructions: "Responda sem consulta.",
        timeLimitSeconds: 1800,
        allowedAttempts: 2,
        scoringPolicy: "highest",
        passPercent: 70,
        shuffleQuestions: false,
        showCorrectAnswers: false,
        sections: [
          { id: "s1", pointsPerQuestion: null, ...SECTION_EXAMPLE },
          { id: "s2", ...RANDOM_EXAMPLE },
        ],
        pointsPossible: 12,
        questionCount: 6,
        createdAt: "2026-03-01T12:00:00.000Z",
        updatedAt: "2026-03-01T12:00:00.000Z",
      },
    ],
  },
);
export type QuizRecord = Static<typeof Quiz>;

export const ListQuizzesQuery = Type.Object(
  {
    ...PageQuery,
    courseId: Type.Optional(Uuid),
    lessonId: Type.Optional(Uuid),
    sort: Type.Optional(
      StringEnum(QUIZ_SORTS, { default: "-createdAt", description: "`-` sorts descending; ties by id." }),
    ),
  },
  { additionalProperties: false },
);
export type ListQuizzesQueryType = Static<typeof ListQuizzesQuery>;

export const QuizPage = CappedPageOf(Quiz);
