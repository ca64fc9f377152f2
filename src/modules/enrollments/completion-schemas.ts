import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const COMPLETION_SOURCES = [
  "learner",
  "api",
  "import",
  "automation",
  "teacher",
  "quiz",
  "assignment",
] as const;

export const Completion = Type.Object(
  {
    lessonId: Uuid,
    userId: Uuid,
    courseId: Uuid,
    moduleId: Uuid,
    enrollmentId: Type.Union([Uuid, Type.Null()], {
      description: "The enrollment it counted for; null once that enrollment is deleted.",
    }),
    completedAt: IsoDateTime,
    timeSpentSeconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    scorePercent: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]),
    source: StringEnum(COMPLETION_SOURCES, {
      description: "`api` for API keys, `teacher` for sessions, `quiz` when a quiz submission completed it.",
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        lessonId: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
        userId: "9b2e7c1a-4f3d-4e8b-a6c5-1d2f3e4a5b6c",
        courseId: "3f9a1b2c-7d6e-4f5a-8b9c-0d1e2f3a4b5c",
        moduleId: "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e",
        enrollmentId: "5d0c2f4e-3b7a-4c11-9e52-0a7f6c1d2e31",
        completedAt: "2026-02-03T09:15:00.000Z",
        timeSpentSeconds: 540,
        scorePercent: null,
        source: "api",
      },
    ],
  },
);
export type CompletionRecord = Static<typeof Completion>;

export const CompletionParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  userId: Type.String({ maxLength: 64 }),
});

export const RecordCompletionBody = Type.Object(
  {
    timeSpentSeconds: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), Type.Null()]),
    ),
    scorePercent: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()])),
  },
  { additionalProperties: false, examples: [{ timeSpentSeconds: 540 }] },
);
export type RecordCompletionInput = Static<typeof RecordCompletionBody>;

export const COMPLETION_SORTS = ["completedAt", "-completedAt"] as const;
export type CompletionSort = (typeof COMPLETION_SORTS)[number];

export const ListCompletionsQuery = Type.Object(
  {
    ...PageQuery,
    userId: Type.Optional(Uuid),
    since: Type.Optional(
      Type.String({ format: "date-time", description: "Only completions at or after this instant." }),
    ),
    sort: Type.Optional(
      StringEnum(COMPLETION_SORTS, {
        default: "-completedAt",
        description: "`-completedAt` (newest first, the default) or `completedAt`; ties broken by user id.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListCompletionsQueryType = Static<typeof ListCompletionsQuery>;

export const CompletionPage = CappedPageOf(Completion);
