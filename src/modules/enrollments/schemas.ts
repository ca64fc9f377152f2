import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const ENROLLMENT_ROLES = ["student", "teacher", "assistant", "observer"] as const;
export type EnrollmentRole = (typeof ENROLLMENT_ROLES)[number];
export const ENROLLMENT_STATUSES = [
  "active",
  "pending",
  "completed",
  "expired",
  "suspended",
  "dropped",
] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];
/** What a client may set; `completed` only ever follows from lesson completions. */
export const SETTABLE_STATUSES = ["active", "suspended", "dropped", "expired"] as const;
export const ENROLLMENT_SOURCES = [
  "api",
  "manual",
  "self",
  "invite",
  "automation",
  "bulk",
  "lti",
  "learning_path",
] as const;
export const SORTS = ["createdAt", "-createdAt"] as const;
export type EnrollmentSort = (typeof SORTS)[number];

const NullableTime = Type.Union([IsoDateTime, Type.Null()]);

export const ENROLLMENT_EXAMPLE = {
  id: "5d0c2f4e-3b7a-4c11-9e52-0a7f6c1d2e31",
  userId: "9b2e7c1a-4f3d-4e8b-a6c5-1d2f3e4a5b6c",
  courseId: "3f9a1b2c-7d6e-4f5a-8b9c-0d1e2f3a4b5c",
  classGroupId: null,
  role: "student",
  status: "active",
  source: "api",
  enrolledAt: "2026-02-01T12:00:00.000Z",
  startedAt: "2026-02-03T09:15:00.000Z",
  completedAt: null,
  expiresAt: "2026-12-31T23:59:59.000Z",
  lastActivityAt: "2026-02-10T18:40:00.000Z",
  progressPercent: 42.86,
  lessonsCompleted: 3,
  lessonsTotal: 7,
  createdAt: "2026-02-01T12:00:00.000Z",
  updatedAt: "2026-02-10T18:40:00.000Z",
};

export const Enrollment = Type.Object(
  {
    id: Uuid,
    userId: Uuid,
    courseId: Uuid,
    classGroupId: Type.Union([Uuid, Type.Null()]),
    role: StringEnum(ENROLLMENT_ROLES),
    status: StringEnum(ENROLLMENT_STATUSES),
    source: StringEnum(ENROLLMENT_SOURCES),
    enrolledAt: Type.String({
      format: "date-time",
      description: "When access starts (`startsAt` at creation).",
    }),
    startedAt: Type.Union([IsoDateTime, Type.Null()], { description: "The first lesson completion." }),
    completedAt: NullableTime,
    expiresAt: NullableTime,
    lastActivityAt: NullableTime,
    progressPercent: Type.Number({
      minimum: 0,
      maximum: 100,
      description:
        "Computed: completed required published lessons over all of them, 2 decimals; 0 when none.",
    }),
    lessonsCompleted: Type.Integer({ minimum: 0 }),
    lessonsTotal: Type.Integer({ minimum: 0 }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [ENROLLMENT_EXAMPLE] },
);
export type EnrollmentRecord = Static<typeof Enrollment>;

export const CreateEnrollmentBody = Type.Object(
  {
    userId: Uuid,
    courseId: Uuid,
    role: Type.Optional(StringEnum(ENROLLMENT_ROLES, { default: "student" })),
    classGroupId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    startsAt: Type.Optional(
      Type.String({
        format: "date-time",
        description: "When access starts; stored as `enrolledAt`. Now if omitted.",
      }),
    ),
    expiresAt: Type.Optional(
      Type.Union([IsoDateTime, Type.Null()], { description: "Must be later than `startsAt`." }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        userId: ENROLLMENT_EXAMPLE.userId,
        courseId: ENROLLMENT_EXAMPLE.courseId,
        role: "student",
        expiresAt: "2026-12-31T23:59:59.000Z",
      },
    ],
  },
);
export type CreateEnrollmentInput = Static<typeof CreateEnrollmentBody>;

export const UpdateEnrollmentBody = Type.Object(
  {
    status: Type.Optional(StringEnum(SETTABLE_STATUSES)),
    expiresAt: Type.Optional(NullableTime),
    classGroupId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ status: "suspended" }] },
);
export type UpdateEnrollmentInput = Static<typeof UpdateEnrollmentBody>;

const Sort = StringEnum(SORTS, {
  default: "-createdAt",
  description: "`-createdAt` (newest first, the default) or `createdAt`; ties broken by id.",
});

export const ListEnrollmentsQuery = Type.Object(
  {
    ...PageQuery,
    userId: Type.Optional(Uuid),
    courseId: Type.Optional(Uuid),
    classGroupId: Type.Optional(Uuid),
    status: Type.Optional(StringEnum(ENROLLMENT_STATUSES)),
    role: Type.Optional(StringEnum(ENROLLMENT_ROLES)),
    sort: Type.Optional(Sort),
  },
  { additionalProperties: false },
);
export type ListEnrollmentsQueryType = Static<typeof ListEnrollmentsQuery>;

export const ListUserEnrollmentsQuery = Type.Object(
  {
    ...PageQuery,
    courseId: Type.Optional(Uuid),
    status: Type.Optional(StringEnum(ENROLLMENT_STATUSES)),
    sort: Type.Optional(Sort),
  },
  { additionalProperties: false },
);
export type ListUserEnrollmentsQueryType = Static<typeof ListUserEnrollmentsQuery>;

export const EnrollmentPage = CappedPageOf(Enrollment);

export const DeleteEnrollmentQuery = Type.Object(
  {
    mode: Type.Optional(
      StringEnum(["drop", "delete"] as const, {
        default: "drop",
        description: "`drop` (default) keeps the enrollment with status `dropped`; `delete` removes it.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type DeleteMode = "drop" | "delete";

export const LessonProgress = Type.Object(
  {
    lessonId: Uuid,
    moduleId: Uuid,
    title: Type.String(),
    required: Type.Boolean({ description: "Counts towards progress and course completion." }),
    completedAt: NullableTime,
  },
  { additionalProperties: false },
);

export const EnrollmentProgress = Type.Object(
  {
    enrollmentId: Uuid,
    userId: Uuid,
    courseId: Uuid,
    status: StringEnum(ENROLLMENT_STATUSES),
    progressPercent: Type.Number({ minimum: 0, maximum: 100 }),
    lessonsCompleted: Type.Integer({ minimum: 0 }),
    lessonsTotal: Type.Integer({ minimum: 0 }),
    lessons: Type.Array(LessonProgress, { description: "Published lessons in outline order." }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        enrollmentId: ENROLLMENT_EXAMPLE.id,
        userId: ENROLLMENT_EXAMPLE.userId,
        courseId: ENROLLMENT_EXAMPLE.courseId,
        status: "active",
        progressPercent: 50,
        lessonsCompleted: 1,
        lessonsTotal: 2,
        lessons: [
          {
            lessonId: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
            moduleId: "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e",
            title: "Welcome",
            required: true,
            completedAt: "2026-02-03T09:15:00.000Z",
          },
          {
            lessonId: "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f",
            moduleId: "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e",
            title: "First steps",
            required: true,
            completedAt: null,
          },
        ],
      },
    ],
  },
);
export type EnrollmentProgressRecord = Static<typeof EnrollmentProgress>;

/** Percent of `done` over `total` with 2 decimals; 0 for a course without required lessons. */
export function percentOf(done: number, total: number): number {
  return total === 0 ? 0 : Math.round((10000 * done) / total) / 100;
}
