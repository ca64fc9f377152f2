import { type Static, Type } from "typebox";
import { BulkStatusSchema, BulkSummary, ItemError } from "../../platform/http/bulk.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";
import { PATH_ENROLLMENT_STATUSES } from "./schemas.js";

export const MAX_PATH_ENROLL_USERS = 1000;
export const PATH_ENROLLMENT_SORTS = ["enrolledAt", "-enrolledAt"] as const;
export type PathEnrollmentSort = (typeof PATH_ENROLLMENT_SORTS)[number];

export const PATH_ENROLLMENT_EXAMPLE = {
  learningPathId: "8c4d2e1f-0a9b-4c8d-9e7f-6a5b4c3d2e1f",
  userId: "9b2e7c1a-4f3d-4e8b-a6c5-1d2f3e4a5b6c",
  status: "active",
  requiredCompleted: 1,
  requiredTotal: 2,
  progressPercent: 50,
  enrolledAt: "2026-03-03T10:00:00.000Z",
  completedAt: null,
};

export const PathEnrollment = Type.Object(
  {
    learningPathId: Uuid,
    userId: Uuid,
    status: StringEnum(PATH_ENROLLMENT_STATUSES, {
      description: "`completed` once every required course of the path is.",
    }),
    requiredCompleted: Type.Integer({
      minimum: 0,
      description: "Required courses of the path the user holds a completed enrollment in (kept on write).",
    }),
    requiredTotal: Type.Integer({ minimum: 0, description: "Required courses of the path." }),
    progressPercent: Type.Number({
      minimum: 0,
      maximum: 100,
      description: "requiredCompleted / requiredTotal, 2 decimals; 0 when none.",
    }),
    enrolledAt: IsoDateTime,
    completedAt: Type.Union([IsoDateTime, Type.Null()]),
  },
  { additionalProperties: false, examples: [PATH_ENROLLMENT_EXAMPLE] },
);
export type PathEnrollmentRecord = Static<typeof PathEnrollment>;

export const EnrollInPathBody = Type.Object(
  {
    userIds: Type.Array(Uuid, {
      minItems: 1,
      maxItems: MAX_PATH_ENROLL_USERS,
      description: `1 to ${MAX_PATH_ENROLL_USERS} users of this institution.`,
    }),
  },
  {
    additionalProperties: false,
    examples: [{ userIds: [PATH_ENROLLMENT_EXAMPLE.userId, "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"] }],
  },
);
export type EnrollInPathInput = Static<typeof EnrollInPathBody>;

const CourseCounts = Type.Object(
  {
    enrolled: Type.Integer({ minimum: 0, description: "Course enrollments this request created." }),
    alreadyEnrolled: Type.Integer({
      minimum: 0,
      description: "Courses of the path the user already held a current enrollment in (left as they were).",
    }),
  },
  { additionalProperties: false },
);

const EnrollResult = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: "The user's position in `userIds`." }),
    userId: Uuid,
    status: BulkStatusSchema,
    enrollment: Type.Optional(PathEnrollment),
    courses: Type.Optional(CourseCounts),
    reason: Type.Optional(
      StringEnum(["already_enrolled"] as const, {
        description: "Why a user was skipped: already enrolled in the path, or named earlier in the request.",
      }),
    ),
    error: Type.Optional(ItemError),
  },
  { additionalProperties: false },
);

export const EnrollInPathResponse = Type.Object(
  { results: Type.Array(EnrollResult), summary: BulkSummary },
  {
    additionalProperties: false,
    examples: [
      {
        results: [
          {
            index: 0,
            userId: PATH_ENROLLMENT_EXAMPLE.userId,
            status: "created",
            enrollment: { ...PATH_ENROLLMENT_EXAMPLE, requiredCompleted: 0, progressPercent: 0 },
            courses: { enrolled: 2, alreadyEnrolled: 0 },
          },
          {
            index: 1,
            userId: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
            status: "failed",
            error: {
              error: "validation_failed",
              message: "The request is not valid. See details for each field.",
              details: [
                { field: "userIds[1]", message: "Unknown user: 1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f." },
              ],
            },
          },
        ],
        summary: { total: 2, created: 1, skipped: 0, failed: 1 },
      },
    ],
  },
);

export const ListPathEnrollmentsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(PATH_ENROLLMENT_STATUSES)),
    sort: Type.Optional(StringEnum(PATH_ENROLLMENT_SORTS, { default: "-enrolledAt" })),
  },
  { additionalProperties: false },
);
export type ListPathEnrollmentsQueryType = Static<typeof ListPathEnrollmentsQuery>;

export const PathEnrollmentPage = PageOf(PathEnrollment);

export const PathUserParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  userId: Type.String({ maxLength: 64 }),
});
