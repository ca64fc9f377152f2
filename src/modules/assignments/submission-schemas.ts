import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { GradedBy } from "../gradebook/grade-schemas.js";

export const SUBMISSION_STATUSES = [
  "submitted",
  "graded",
  "returned",
  "resubmission_requested",
  "missing",
] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
export const MAX_BODY_TEXT = 100_000;
export const MAX_ATTACHMENTS = 20;
export const MAX_FEEDBACK = 10_000;
/** Earlier attempts a submission's record carries, newest first. */
export const HISTORY_LIMIT = 20;
/** A score is at most this many times `pointsPossible` (extra credit, as the gradebook bounds it). */
export const EXTRA_CREDIT = 1.5;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(
  t: T,
  options: Record<string, unknown> = {},
) => Type.Union([t, Type.Null()], options);

const content = {
  bodyText: Nullable(Type.String()),
  attachmentMediaIds: Type.Array(Uuid),
  url: Nullable(Type.String()),
  submittedAt: Nullable(IsoDateTime, { description: "null for a `missing` submission." }),
  late: Type.Boolean(),
  secondsLate: Type.Integer({
    minimum: 0,
    description: "After the student's due date (an extension's, if any).",
  }),
  score: Nullable(Type.Number({ description: "The score given, before any late deduction." })),
  deductedPoints: Nullable(Type.Number({ description: "What the late policy took off when it was graded." })),
  finalScore: Nullable(Type.Number({ description: "`score − deductedPoints`, not below 0: the grade." })),
  feedback: Nullable(Type.String()),
  gradedAt: Nullable(IsoDateTime),
  gradedBy: Nullable(GradedBy),
};

export const SubmissionVersion = Type.Object(
  { attempt: Type.Integer({ minimum: 1 }), status: StringEnum(SUBMISSION_STATUSES), ...content },
  { additionalProperties: false },
);

const EXAMPLE = {
  id: "6c8e0a2b-4d6f-4a1b-9c3d-5e7f9a1b3c5d",
  assignmentId: "3b5d7f91-2c4e-4a6b-8d0f-1a3c5e7a9b2d",
  lessonId: "2f1e0d9c-8b7a-4654-8321-0fedcba98765",
  courseId: "0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f",
  userId: "9b2e7c1a-4f3d-4e8b-a6c5-1d2f3e4a5b6c",
  enrollmentId: "5d0c2f4e-3b7a-4c11-9e52-0a7f6c1d2e31",
  attempt: 1,
  status: "graded",
  bodyText: "Meu relatório.",
  attachmentMediaIds: [],
  url: null,
  submittedAt: "2026-04-11T10:00:00.000Z",
  late: true,
  secondsLate: 36_060,
  score: 9,
  deductedPoints: 1,
  finalScore: 8,
  feedback: "Bom trabalho.",
  rubricAssessmentId: null,
  gradedAt: "2026-04-12T10:00:00.000Z",
  gradedBy: { type: "user", id: "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b" },
  createdAt: "2026-04-11T10:00:00.000Z",
  updatedAt: "2026-04-12T10:00:00.000Z",
};

const fields = {
  id: Uuid,
  assignmentId: Uuid,
  lessonId: Uuid,
  courseId: Uuid,
  userId: Uuid,
  enrollmentId: Nullable(Uuid),
  attempt: Type.Integer({ minimum: 0, description: "0 for a `missing` submission." }),
  status: StringEnum(SUBMISSION_STATUSES),
  ...content,
  rubricAssessmentId: Nullable(Uuid, {
    description:
      "The grading rubric assessment that gave its current score (POST /rubrics/:id/assessments); null " +
      "for a score given by PATCH and for a new attempt.",
  }),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
};

/** A submission as lists answer it. */
export const Submission = Type.Object(fields, { additionalProperties: false, examples: [EXAMPLE] });
export type SubmissionRecord = Static<typeof Submission>;

/** A submission with its earlier attempts (`GET /submissions/:id` and every write). */
export const SubmissionDetail = Type.Object(
  {
    ...fields,
    history: Type.Array(SubmissionVersion, {
      description: `Earlier attempts as they were when replaced, newest first (the latest ${HISTORY_LIMIT}).`,
    }),
  },
  { additionalProperties: false, examples: [{ ...EXAMPLE, history: [] }] },
);
export type SubmissionDetailRecord = Static<typeof SubmissionDetail>;

export const LessonParams = Type.Object({ lessonId: Type.String({ maxLength: 64 }) });

export const CreateSubmissionBody = Type.Object(
  {
    userId: Type.Optional(
      Type.String({
        format: "uuid",
        description:
          "Required from staff and API keys (on behalf of the student); a student submits its own.",
      }),
    ),
    bodyText: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_BODY_TEXT })),
    attachmentMediaIds: Type.Optional(
      Type.Array(Uuid, { minItems: 1, maxItems: MAX_ATTACHMENTS, uniqueItems: true }),
    ),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: "An https URL." })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ bodyText: "Meu relatório." }, { userId: EXAMPLE.userId, url: "https://example.com/report" }],
  },
);
export type CreateSubmissionInput = Static<typeof CreateSubmissionBody>;

export const UpdateSubmissionBody = Type.Object(
  {
    score: Type.Optional(Type.Number({ minimum: 0, maximum: 150_000 })),
    feedback: Type.Optional(Nullable(Type.String({ maxLength: MAX_FEEDBACK }))),
    status: Type.Optional(
      StringEnum(["graded", "returned", "resubmission_requested"] as const, {
        description:
          "`returned`: graded and handed back (needs a score); `resubmission_requested`: the student may " +
          "submit again even when its attempts are used up. A score alone makes it `graded`.",
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [
      { score: 9, feedback: "Bom trabalho." },
      { status: "resubmission_requested", feedback: "Refaça." },
    ],
  },
);
export type UpdateSubmissionInput = Static<typeof UpdateSubmissionBody>;

export const ListSubmissionsQuery = Type.Object(
  {
    ...PageQuery,
    userId: Type.Optional(Uuid),
    status: Type.Optional(StringEnum(SUBMISSION_STATUSES)),
  },
  { additionalProperties: false },
);
export type ListSubmissionsQueryType = Static<typeof ListSubmissionsQuery>;

export const SubmissionPage = CappedPageOf(Submission);
