import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";

export const SUBMISSION_KINDS = ["text", "file", "url"] as const;
export type SubmissionKind = (typeof SUBMISSION_KINDS)[number];
export const LATE_INTERVALS = ["day", "hour"] as const;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(
  t: T,
  options: Record<string, unknown> = {},
) => Type.Union([t, Type.Null()], options);

export const LatePolicy = Type.Object(
  {
    deductionPercent: Type.Number({
      minimum: 0,
      maximum: 100,
      description: "Percent of `pointsPossible` deducted per started `interval` late.",
    }),
    interval: StringEnum(LATE_INTERVALS),
    maxDeductionPercent: Type.Number({
      minimum: 0,
      maximum: 100,
      description: "The most a late submission loses, in percent of `pointsPossible`.",
    }),
  },
  {
    additionalProperties: false,
    description:
      "Applied when a late submission is graded: `deductedPoints = min(maxDeductionPercent, deductionPercent × " +
      "started intervals late) % × pointsPossible`, and `finalScore = max(0, score − deductedPoints)`. Late " +
      "submissions are accepted until `lockAt`.",
  },
);
export type LatePolicyType = Static<typeof LatePolicy>;
export const DEFAULT_LATE_POLICY: LatePolicyType = {
  deductionPercent: 0,
  interval: "day",
  maxDeductionPercent: 100,
};

const settings = {
  instructions: Nullable(Type.String({ maxLength: 20_000 })),
  dueAt: Nullable(IsoDateTime, {
    description: "null: no due date (nothing is late or missing). A student's extension replaces it.",
  }),
  lockAt: Nullable(IsoDateTime, {
    description: "After it no submission is accepted (409). Not before `dueAt`.",
  }),
  allowedKinds: Type.Array(StringEnum(SUBMISSION_KINDS), {
    minItems: 1,
    maxItems: 3,
    uniqueItems: true,
    description: "`text` (bodyText), `file` (attachmentMediaIds: files of the institution), `url` (https).",
  }),
  allowedAttempts: Nullable(Type.Integer({ minimum: 1, maximum: 100 }), { description: "null: unlimited." }),
  pointsPossible: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
  latePolicy: LatePolicy,
};

const EXAMPLE = {
  id: "3b5d7f91-2c4e-4a6b-8d0f-1a3c5e7a9b2d",
  lessonId: "2f1e0d9c-8b7a-4654-8321-0fedcba98765",
  courseId: "0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f",
  instructions: "Envie o relatório em PDF.",
  dueAt: "2026-04-10T23:59:00.000Z",
  lockAt: "2026-04-17T23:59:00.000Z",
  allowedKinds: ["file", "text"],
  allowedAttempts: 2,
  pointsPossible: 10,
  latePolicy: { deductionPercent: 10, interval: "day", maxDeductionPercent: 50 },
  gradeItemId: null,
  createdAt: "2026-03-01T12:00:00.000Z",
  updatedAt: "2026-03-01T12:00:00.000Z",
};

export const Assignment = Type.Object(
  {
    id: Uuid,
    lessonId: Uuid,
    courseId: Uuid,
    ...settings,
    gradeItemId: Nullable(Uuid, {
      description:
        "The course's grade item fed by this assignment (`sourceType: assignment`, `sourceId`: this id), if any.",
    }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [EXAMPLE] },
);
export type AssignmentRecord = Static<typeof Assignment>;

export const CreateAssignmentBody = Type.Object(
  {
    lessonId: Uuid,
    instructions: Type.Optional(settings.instructions),
    dueAt: Type.Optional(settings.dueAt),
    lockAt: Type.Optional(settings.lockAt),
    allowedKinds: Type.Optional(settings.allowedKinds),
    allowedAttempts: Type.Optional(settings.allowedAttempts),
    pointsPossible: Type.Optional(settings.pointsPossible),
    latePolicy: Type.Optional(settings.latePolicy),
  },
  {
    additionalProperties: false,
    examples: [
      {
        lessonId: EXAMPLE.lessonId,
        dueAt: EXAMPLE.dueAt,
        lockAt: EXAMPLE.lockAt,
        allowedKinds: ["file", "text"],
        pointsPossible: 10,
        latePolicy: EXAMPLE.latePolicy,
      },
    ],
  },
);
export type CreateAssignmentInput = Static<typeof CreateAssignmentBody>;

export const UpdateAssignmentBody = Type.Object(
  {
    instructions: Type.Optional(settings.instructions),
    dueAt: Type.Optional(settings.dueAt),
    lockAt: Type.Optional(settings.lockAt),
    allowedKinds: Type.Optional(settings.allowedKinds),
    allowedAttempts: Type.Optional(settings.allowedAttempts),
    pointsPossible: Type.Optional(settings.pointsPossible),
    latePolicy: Type.Optional(settings.latePolicy),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: "`lessonId` cannot change. Submissions already made keep their lateness.",
    examples: [{ dueAt: "2026-04-12T23:59:00.000Z" }],
  },
);
export type UpdateAssignmentInput = Static<typeof UpdateAssignmentBody>;

export const ExtensionParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  userId: Type.String({ maxLength: 64 }),
});

export const PutExtensionBody = Type.Object(
  {
    dueAt: IsoDateTime,
    lockAt: Type.Optional(
      Nullable(IsoDateTime, { description: "The student's own lock date; the assignment's when left out." }),
    ),
  },
  { additionalProperties: false, examples: [{ dueAt: "2026-04-14T23:59:00.000Z" }] },
);
export type PutExtensionInput = Static<typeof PutExtensionBody>;

export const Extension = Type.Object(
  {
    assignmentId: Uuid,
    userId: Uuid,
    dueAt: IsoDateTime,
    lockAt: Nullable(IsoDateTime),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        assignmentId: EXAMPLE.id,
        userId: "9b2e7c1a-4f3d-4e8b-a6c5-1d2f3e4a5b6c",
        dueAt: "2026-04-14T23:59:00.000Z",
        lockAt: null,
        createdAt: "2026-04-09T12:00:00.000Z",
        updatedAt: "2026-04-09T12:00:00.000Z",
      },
    ],
  },
);
export type ExtensionRecord = Static<typeof Extension>;
