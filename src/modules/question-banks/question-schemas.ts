import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const QUESTION_TYPES = [
  "single_choice",
  "multiple_choice",
  "true_false",
  "short_answer",
  "numeric",
  "matching",
  "ordering",
  "essay",
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const DIFFICULTIES = ["easy", "medium", "hard"] as const;
export const QUESTION_STATUSES = ["active", "retired"] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

export const QUESTION_SORTS = ["createdAt", "-createdAt", "updatedAt", "-updatedAt"] as const;
export type QuestionSort = (typeof QUESTION_SORTS)[number];

/** Most questions a bulk creation takes; above it, split the request. */
export const MAX_BULK_QUESTIONS = 100;

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });

export const ChoiceOption = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: "Unique within the question; answers name it.",
    }),
    text: Text(2_000),
    isCorrect: Type.Boolean(),
    feedback: Type.Optional(Type.Union([Type.String({ maxLength: 2_000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const NumericKey = Type.Object(
  {
    value: Type.Optional(Type.Number()),
    tolerance: Type.Optional(Type.Number({ minimum: 0 })),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
  },
  {
    additionalProperties: false,
    description:
      "Either `{value, tolerance?}` (tolerance defaults to 0) or `{min, max}`, both ends included.",
  },
);

export const MatchingPair = Type.Object(
  { left: Text(500), right: Text(500) },
  { additionalProperties: false },
);

/** The answer key by type; each is present only on the types that use it. */
const keyFields = {
  options: Type.Optional(
    Type.Array(ChoiceOption, {
      minItems: 2,
      maxItems: 20,
      description:
        "single_choice, multiple_choice, true_false. single_choice and true_false: exactly one correct " +
        "(true_false: exactly 2 options); multiple_choice: at least one.",
    }),
  ),
  acceptedAnswers: Type.Optional(
    Type.Array(Text(500), {
      minItems: 1,
      maxItems: 50,
      description: "short_answer: matched trimmed and ignoring case.",
    }),
  ),
  numeric: Type.Optional(NumericKey),
  pairs: Type.Optional(
    Type.Array(MatchingPair, {
      minItems: 2,
      maxItems: 20,
      description: "matching: each left with its right.",
    }),
  ),
  items: Type.Optional(
    Type.Array(Text(500), {
      minItems: 2,
      maxItems: 20,
      description: "ordering: the items in the correct order.",
    }),
  ),
};

const contentFields = {
  stem: Text(20_000),
  ...keyFields,
  points: Type.Number({ exclusiveMinimum: 0, maximum: 1_000, description: "Default 1." }),
  difficulty: Type.Union([StringEnum(DIFFICULTIES), Type.Null()]),
  explanation: Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()], {
    description: "Shown after grading.",
  }),
};

const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
  maxItems: 20,
  uniqueItems: true,
  description: "Free labels to filter and organise by.",
});

const CHOICE_EXAMPLE = {
  type: "single_choice",
  stem: "Qual é o determinante da matriz identidade 2×2?",
  options: [
    { id: "a", text: "0", isCorrect: false, feedback: "A identidade não é singular." },
    { id: "b", text: "1", isCorrect: true },
    { id: "c", text: "2", isCorrect: false },
  ],
  points: 2,
  difficulty: "easy",
  explanation: "O determinante da identidade é sempre 1.",
  tags: ["matrizes"],
};

export const CreateQuestionBody = Type.Object(
  {
    type: StringEnum(QUESTION_TYPES, { description: "Cannot change after creation." }),
    stem: contentFields.stem,
    ...keyFields,
    points: Type.Optional(contentFields.points),
    difficulty: Type.Optional(contentFields.difficulty),
    explanation: Type.Optional(contentFields.explanation),
    tags: Type.Optional(Tags),
    status: Type.Optional(StringEnum(QUESTION_STATUSES, { default: "active" })),
  },
  { additionalProperties: false, examples: [CHOICE_EXAMPLE] },
);
export type CreateQuestionInput = Static<typeof CreateQuestionBody>;

export const BulkQuestionsBody = Type.Object(
  {
    items: Type.Array(CreateQuestionBody, {
      minItems: 1,
      maxItems: MAX_BULK_QUESTIONS,
      description: "Created together: if one is refused, none is.",
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        items: [
          CHOICE_EXAMPLE,
          { type: "short_answer", stem: "Nome da operação A·A⁻¹?", acceptedAnswers: ["identidade"] },
        ],
      },
    ],
  },
);
export type BulkQuestionsInput = Static<typeof BulkQuestionsBody>;

/** One question, or `{items}` of up to 100. A body with `type` is one question. */
export const CreateQuestionsBody = Type.Union([CreateQuestionBody, BulkQuestionsBody], {
  description: "One question (a body with `type`), or `{items: [...]}` of up to 100 created all or nothing.",
  examples: [CHOICE_EXAMPLE],
});

export const UpdateQuestionBody = Type.Object(
  {
    stem: Type.Optional(contentFields.stem),
    ...keyFields,
    points: Type.Optional(contentFields.points),
    difficulty: Type.Optional(contentFields.difficulty),
    explanation: Type.Optional(contentFields.explanation),
    tags: Type.Optional(Tags),
    status: Type.Optional(StringEnum(QUESTION_STATUSES)),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: "`type` cannot change. A key field replaces the whole key.",
    examples: [{ stem: "Qual é o determinante de I₂?", points: 3 }],
  },
);
export type UpdateQuestionInput = Static<typeof UpdateQuestionBody>;

export const Question = Type.Object(
  {
    id: Uuid,
    bankId: Uuid,
    type: StringEnum(QUESTION_TYPES),
    stem: Type.String(),
    options: Type.Optional(Type.Array(ChoiceOption)),
    acceptedAnswers: Type.Optional(Type.Array(Type.String())),
    numeric: Type.Optional(NumericKey),
    pairs: Type.Optional(Type.Array(MatchingPair)),
    items: Type.Optional(Type.Array(Type.String())),
    points: Type.Number(),
    difficulty: Type.Union([StringEnum(DIFFICULTIES), Type.Null()]),
    explanation: Type.Union([Type.String(), Type.Null()]),
    tags: Type.Array(Type.String()),
    version: Type.Integer({ minimum: 1, description: "Grows by one on every content change." }),
    status: StringEnum(QUESTION_STATUSES),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "7d2e4f60-1b3a-4c5d-8e9f-0a1b2c3d4e5f",
        bankId: "5b3f7c1e-2a41-4c8e-9a0d-6f1e2b3c4d5e",
        ...CHOICE_EXAMPLE,
        version: 1,
        status: "active",
        createdAt: "2026-03-01T12:00:00.000Z",
        updatedAt: "2026-03-01T12:00:00.000Z",
      },
    ],
  },
);
export type QuestionRecord = Static<typeof Question>;

const QUESTION_EXAMPLE = (Question as { examples?: unknown[] }).examples?.[0];

export const CreatedQuestions = Type.Object(
  { data: Type.Array(Question) },
  {
    additionalProperties: false,
    description: "The questions created, in the order sent.",
    examples: [{ data: [QUESTION_EXAMPLE] }],
  },
);

/** One question created, or `{data}` for a batch sent as `{items}`. */
export const CreatedQuestionOrQuestions = Type.Union([Question, CreatedQuestions], {
  examples: [QUESTION_EXAMPLE],
});

export const ListQuestionsQuery = Type.Object(
  {
    ...PageQuery,
    type: Type.Optional(StringEnum(QUESTION_TYPES)),
    difficulty: Type.Optional(StringEnum(DIFFICULTIES)),
    status: Type.Optional(StringEnum(QUESTION_STATUSES)),
    tag: Type.Optional(
      Type.String({ minLength: 1, maxLength: 50, description: "Questions carrying this tag." }),
    ),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "Matches the stem, ignoring case and accents.",
      }),
    ),
    sort: Type.Optional(
      StringEnum(QUESTION_SORTS, { default: "-createdAt", description: "`-` sorts descending; ties by id." }),
    ),
  },
  { additionalProperties: false },
);
export type ListQuestionsQueryType = Static<typeof ListQuestionsQuery>;

export const QuestionPage = CappedPageOf(Question);
