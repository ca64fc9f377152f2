import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { QUESTION_TYPES } from "../question-banks/service.js";

export const ATTEMPT_STATUSES = ["in_progress", "submitted", "pending_review", "graded"] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];
export const ATTEMPT_SORTS = ["createdAt", "-createdAt", "score", "-score"] as const;
export type AttemptSort = (typeof ATTEMPT_SORTS)[number];

const MAX_ANSWERS = 500;
const TimeSpent = Type.Integer({
  minimum: 0,
  maximum: 604_800,
  description: "Defaults to the time since the start.",
});

export const AnswerInput = Type.Object(
  {
    questionId: Uuid,
    response: Type.Unknown({
      description:
        "single_choice / true_false: an option id; multiple_choice: option ids; short_answer and essay: text; " +
        "numeric: a number; matching: `[{left, right}]`; ordering: the items in order; null: unanswered.",
    }),
  },
  { additionalProperties: false },
);
export type AnswerInputType = Static<typeof AnswerInput>;

const Answers = Type.Array(AnswerInput, { maxItems: MAX_ANSWERS });

const ANSWERS_EXAMPLE = [
  { questionId: "7d2e4f60-1b3a-4c5d-8e9f-0a1b2c3d4e5f", response: "b" },
  { questionId: "8e3f5a71-2c4b-4d6e-9fa0-1b2c3d4e5f60", response: ["a", "c"] },
];

export const StartAttemptBody = Type.Object(
  {
    userId: Uuid,
    answers: Type.Optional(Answers),
    timeSpentSeconds: Type.Optional(TimeSpent),
  },
  {
    additionalProperties: false,
    examples: [
      { userId: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f", answers: ANSWERS_EXAMPLE, timeSpentSeconds: 540 },
    ],
  },
);
export type StartAttemptInput = Static<typeof StartAttemptBody>;

export const SubmitAttemptBody = Type.Object(
  { answers: Answers, timeSpentSeconds: Type.Optional(TimeSpent) },
  { additionalProperties: false, examples: [{ answers: ANSWERS_EXAMPLE, timeSpentSeconds: 540 }] },
);
export type SubmitAttemptInput = Static<typeof SubmitAttemptBody>;

/** Extra time is at most a week, as Canvas's `extra_time` (10,080 minutes). */
export const MAX_EXTRA_TIME_SECONDS = 604_800;

export const UpdateAttemptBody = Type.Object(
  {
    answers: Type.Optional(
      Type.Array(
        Type.Object(
          {
            questionId: Uuid,
            pointsAwarded: Type.Number({
              minimum: 0,
              description: "From 0 to the question's points in the attempt.",
            }),
            feedback: Type.Optional(Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()])),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          maxItems: MAX_ANSWERS,
          description: "Manual grades of a submitted attempt's answers.",
        },
      ),
    ),
    extraTimeSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_EXTRA_TIME_SECONDS,
        description:
          "An open attempt's extra time in all (it replaces what was given before): a timed attempt's `endsAt` " +
          "moves by the difference. Recorded, without effect, on an attempt of an untimed quiz.",
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [
      {
        answers: [
          {
            questionId: "9f4a6b82-3d5c-4e7f-8a1b-2c3d4e5f6a7b",
            pointsAwarded: 4,
            feedback: "Boa argumentação.",
          },
        ],
      },
      { extraTimeSeconds: 600 },
    ],
  },
);
export type UpdateAttemptInput = Static<typeof UpdateAttemptBody>;
export type GradeAnswersInput = Required<Pick<UpdateAttemptInput, "answers">>;

/** A drawn question as the person taking the attempt sees it: no answer key. */
export const AttemptQuestion = Type.Object(
  {
    questionId: Uuid,
    version: Type.Integer(),
    type: StringEnum(QUESTION_TYPES),
    stem: Type.String(),
    points: Type.Number(),
    options: Type.Optional(
      Type.Array(Type.Object({ id: Type.String(), text: Type.String() }, { additionalProperties: false })),
    ),
    left: Type.Optional(Type.Array(Type.String(), { description: "matching: the items to match." })),
    right: Type.Optional(Type.Array(Type.String(), { description: "matching: what they match, shuffled." })),
    items: Type.Optional(Type.Array(Type.String(), { description: "ordering: the items, shuffled." })),
  },
  { additionalProperties: false },
);

export const AttemptAnswer = Type.Object(
  {
    questionId: Uuid,
    questionVersion: Type.Integer(),
    response: Type.Unknown(),
    correct: Type.Union([Type.Boolean(), Type.Null()], { description: "null until a person grades it." }),
    pointsAwarded: Type.Union([Type.Number(), Type.Null()], {
      description: "null until a person grades it.",
    }),
    feedback: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

const Score = Type.Union([Type.Number(), Type.Null()]);

export const Attempt = Type.Object(
  {
    id: Uuid,
    quizId: Uuid,
    userId: Uuid,
    enrollmentId: Type.Union([Uuid, Type.Null()]),
    attemptNumber: Type.Integer({ minimum: 1 }),
    status: StringEnum(ATTEMPT_STATUSES),
    startedAt: IsoDateTime,
    submittedAt: Type.Union([IsoDateTime, Type.Null()]),
    timeSpentSeconds: Type.Union([Type.Integer(), Type.Null()]),
    score: Type.Union([Type.Number(), Type.Null()], {
      description: "While pending review: the graded part only.",
    }),
    maxScore: Score,
    percent: Score,
    passed: Type.Union([Type.Boolean(), Type.Null()], { description: "null until fully graded." }),
    keptScore: Type.Union([Type.Number(), Type.Null()], {
      description:
        "The user's score at this quiz under its `scoringPolicy`, over their graded attempts (the same on each " +
        "of them; Canvas `kept_score`): the points of the attempt the policy keeps, or their mean for " +
        "`average`. null until one is graded.",
    }),
    keptPercent: Type.Union([Type.Number(), Type.Null()], {
      description: "The percent the scoring policy keeps, as the quiz's grade item receives it.",
    }),
    extraTimeSeconds: Type.Integer({
      minimum: 0,
      description: "Time a teacher added to this attempt's limit (`PATCH`).",
    }),
    endsAt: Type.Union([IsoDateTime, Type.Null()], {
      description:
        "When a timed attempt ends: `startedAt` + the quiz's `timeLimitSeconds` as it was at the start + " +
        "`extraTimeSeconds`; null for an untimed quiz. A submission later than 30 s after it is refused.",
    }),
    letterGrade: Type.Union([Type.String(), Type.Null()], {
      description:
        "The letter `percent` earns on the institution's grading scale (settings `learning.gradingScale`); null " +
        "until fully graded.",
    }),
    questions: Type.Array(AttemptQuestion, {
      description: "The questions drawn, each pinned to its version.",
    }),
    answers: Type.Array(AttemptAnswer, { description: "One per drawn question once submitted." }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
        quizId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
        userId: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
        enrollmentId: "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a",
        attemptNumber: 1,
        status: "graded",
        startedAt: "2026-03-05T14:00:00.000Z",
        submittedAt: "2026-03-05T14:09:00.000Z",
        timeSpentSeconds: 540,
        score: 2,
        maxScore: 2,
        percent: 100,
        passed: true,
        keptScore: 2,
        keptPercent: 100,
        extraTimeSeconds: 0,
        endsAt: "2026-03-05T14:15:00.000Z",
        letterGrade: "A",
        questions: [
          {
            questionId: "7d2e4f60-1b3a-4c5d-8e9f-0a1b2c3d4e5f",
            version: 1,
            type: "single_choice",
            stem: "Qual é o determinante da matriz identidade 2×2?",
            points: 2,
            options: [
              { id: "a", text: "0" },
              { id: "b", text: "1" },
            ],
          },
        ],
        answers: [
          {
            questionId: "7d2e4f60-1b3a-4c5d-8e9f-0a1b2c3d4e5f",
            questionVersion: 1,
            response: "b",
            correct: true,
            pointsAwarded: 2,
            feedback: null,
          },
        ],
        createdAt: "2026-03-05T14:00:00.000Z",
        updatedAt: "2026-03-05T14:09:00.000Z",
      },
    ],
  },
);
export type AttemptRecord = Static<typeof Attempt>;

export const ListAttemptsQuery = Type.Object(
  {
    ...PageQuery,
    userId: Type.Optional(Uuid),
    status: Type.Optional(StringEnum(ATTEMPT_STATUSES)),
    sort: Type.Optional(
      StringEnum(ATTEMPT_SORTS, {
        default: "-createdAt",
        description: "`-` sorts descending; ties by id; attempts without a score come last.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListAttemptsQueryType = Static<typeof ListAttemptsQuery>;

export const AttemptPage = CappedPageOf(Attempt);
