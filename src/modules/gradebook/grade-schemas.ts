import { type Static, Type } from "typebox";
import { ItemError } from "../../platform/http/bulk.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { GRADE_SOURCES, GRADE_STATUSES } from "./item-schemas.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(
  t: T,
  options: Record<string, unknown> = {},
) => Type.Union([t, Type.Null()], options);

export const MAX_BULK_GRADES = 1000;
export const MAX_FEEDBACK = 10_000;
/** Extra credit is bounded: a score or an override is at most this many times the item's `maxPoints`. */
export const EXTRA_CREDIT = 1.5;

export const ACTOR_TYPES = ["user", "api_key", "system"] as const;
export const GradedBy = Type.Object(
  { type: StringEnum(ACTOR_TYPES), id: Nullable(Uuid) },
  { additionalProperties: false, description: "Who last changed the score, status or override." },
);

export const GRADE_EXAMPLE = {
  id: "8a6b4c2d-1e3f-4a5b-8c7d-9e0f1a2b3c4d",
  gradeItemId: "4e6a8b2c-1d3f-4a5b-8c7d-9e0f1a2b3c4d",
  courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  userId: "9b2e7c1a-4f3d-4e8b-a6c5-1d2f3e4a5b6c",
  enrollmentId: "5d0c2f4e-3b7a-4c11-9e52-0a7f6c1d2e31",
  score: 8.5,
  overrideScore: null,
  effectiveScore: 8.5,
  percent: 85,
  letter: "B",
  status: "graded",
  feedback: "Bom trabalho.",
  gradedBy: { type: "user", id: "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b" },
  gradedAt: "2026-04-02T10:00:00.000Z",
  postedAt: null,
  source: "manual",
  createdAt: "2026-04-02T10:00:00.000Z",
  updatedAt: "2026-04-02T10:00:00.000Z",
};

export const Grade = Type.Object(
  {
    id: Uuid,
    gradeItemId: Uuid,
    courseId: Uuid,
    userId: Uuid,
    enrollmentId: Nullable(Uuid),
    score: Nullable(Type.Number()),
    overrideScore: Nullable(Type.Number({ description: "Wins over `score` wherever the grade counts." })),
    effectiveScore: Nullable(Type.Number({ description: "`overrideScore` when set, else `score`." })),
    percent: Nullable(Type.Number({ description: "`effectiveScore / maxPoints × 100`, 2 decimals." })),
    letter: Nullable(Type.String({ description: "The letter `percent` earns on the grading scale." })),
    status: StringEnum(GRADE_STATUSES),
    feedback: Nullable(Type.String()),
    gradedBy: Nullable(GradedBy),
    gradedAt: Nullable(IsoDateTime),
    postedAt: Nullable(IsoDateTime, { description: "null: hidden from the student." }),
    source: StringEnum(GRADE_SOURCES),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [GRADE_EXAMPLE] },
);
export type GradeRecord = Static<typeof Grade>;

const Score = Type.Number({ minimum: 0, maximum: 1_000_000 });
const gradeFields = {
  score: Type.Optional(
    Nullable(Score, { description: `0 to maxPoints × ${EXTRA_CREDIT} (extra credit); 400 beyond.` }),
  ),
  overrideScore: Type.Optional(Nullable(Score)),
  status: Type.Optional(
    StringEnum(GRADE_STATUSES, {
      description:
        "Without it, a score makes the grade `graded` (a `late` grade stays `late`). `excused` leaves the item " +
        "out of the course grade; `missing` counts 0 in the final score unless it has a score.",
    }),
  ),
  feedback: Type.Optional(Nullable(Type.String({ maxLength: MAX_FEEDBACK }))),
};

export const PutGradeBody = Type.Object(gradeFields, {
  additionalProperties: false,
  minProperties: 1,
  examples: [{ score: 8.5, feedback: "Bom trabalho." }],
});
export type GradeInput = Static<typeof PutGradeBody>;

export const GradeParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  userId: Type.String({ maxLength: 64 }),
});

export const ListGradesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const GradePage = CappedPageOf(Grade);

export const BulkGradeItem = Type.Object(
  { gradeItemId: Uuid, userId: Uuid, ...gradeFields },
  { additionalProperties: false },
);
export type BulkGradeInput = Static<typeof BulkGradeItem>;

export const BulkGradesBody = Type.Object(
  { items: Type.Array(BulkGradeItem, { minItems: 1, maxItems: MAX_BULK_GRADES }) },
  {
    additionalProperties: false,
    examples: [
      {
        items: [
          { gradeItemId: "4e6a8b2c-1d3f-4a5b-8c7d-9e0f1a2b3c4d", userId: GRADE_EXAMPLE.userId, score: 9 },
          {
            gradeItemId: "4e6a8b2c-1d3f-4a5b-8c7d-9e0f1a2b3c4d",
            userId: GRADE_EXAMPLE.id,
            status: "excused",
          },
        ],
      },
    ],
  },
);

export const BULK_GRADE_STATUSES = ["created", "updated", "unchanged", "failed"] as const;
export type BulkGradeStatus = (typeof BULK_GRADE_STATUSES)[number];

export const BulkGradesResponse = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          index: Type.Integer({ minimum: 0 }),
          status: StringEnum(BULK_GRADE_STATUSES),
          grade: Type.Optional(Grade),
          error: Type.Optional(ItemError),
        },
        { additionalProperties: false },
      ),
    ),
    summary: Type.Object(
      {
        total: Type.Integer({ minimum: 0 }),
        created: Type.Integer({ minimum: 0 }),
        updated: Type.Integer({ minimum: 0 }),
        unchanged: Type.Integer({ minimum: 0 }),
        failed: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        results: [
          { index: 0, status: "created", grade: GRADE_EXAMPLE },
          {
            index: 1,
            status: "failed",
            error: {
              error: "validation_failed",
              message: "The request is invalid.",
              details: [
                {
                  field: "userId",
                  message: `This user is not a current student of the course: ${GRADE_EXAMPLE.id}.`,
                },
              ],
            },
          },
        ],
        summary: { total: 2, created: 1, updated: 0, unchanged: 0, failed: 1 },
      },
    ],
  },
);

export const PostGradesBody = Type.Object(
  {
    gradeItemIds: Type.Array(Uuid, { minItems: 1, maxItems: 200, uniqueItems: true }),
  },
  { additionalProperties: false, examples: [{ gradeItemIds: ["4e6a8b2c-1d3f-4a5b-8c7d-9e0f1a2b3c4d"] }] },
);
export type PostGradesInput = Static<typeof PostGradesBody>;

export const PostGradesResponse = Type.Object(
  {
    posted: Type.Integer({ minimum: 0, description: "Grades that were hidden and are now posted." }),
    postedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [{ posted: 28, postedAt: "2026-04-03T12:00:00.000Z" }] },
);

export const CHANGE_EXAMPLE = {
  id: "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
  courseId: GRADE_EXAMPLE.courseId,
  gradeItemId: GRADE_EXAMPLE.gradeItemId,
  gradeId: GRADE_EXAMPLE.id,
  userId: GRADE_EXAMPLE.userId,
  actor: { type: "user", id: "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b" },
  via: "session",
  scoreBefore: 7,
  scoreAfter: 8.5,
  statusBefore: "graded",
  statusAfter: "graded",
  overrideBefore: null,
  overrideAfter: null,
  postedBefore: null,
  postedAfter: null,
  createdAt: "2026-04-02T10:00:00.000Z",
};

export const GradeChange = Type.Object(
  {
    id: Uuid,
    courseId: Uuid,
    gradeItemId: Uuid,
    gradeId: Uuid,
    userId: Type.String({ format: "uuid", description: "The student." }),
    actor: GradedBy,
    via: StringEnum(["session", "key", "system"] as const, {
      description: "A signed-in user's session, an API key (`actor.id` is the key), or the platform itself.",
    }),
    scoreBefore: Nullable(Type.Number()),
    scoreAfter: Nullable(Type.Number()),
    statusBefore: Nullable(StringEnum(GRADE_STATUSES)),
    statusAfter: Nullable(StringEnum(GRADE_STATUSES)),
    overrideBefore: Nullable(Type.Number()),
    overrideAfter: Nullable(Type.Number()),
    postedBefore: Nullable(IsoDateTime),
    postedAfter: Nullable(IsoDateTime),
    createdAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [CHANGE_EXAMPLE] },
);
export type GradeChangeRecord = Static<typeof GradeChange>;
export const ListChangesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const ChangePage = CappedPageOf(GradeChange);
