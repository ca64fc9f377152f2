import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const PATH_STATUSES = ["draft", "published", "archived"] as const;
export type PathStatus = (typeof PATH_STATUSES)[number];
export const PATH_SORTS = ["createdAt", "-createdAt", "title", "-title"] as const;
export type PathSort = (typeof PATH_SORTS)[number];
export const PATH_ENROLLMENT_STATUSES = ["active", "completed"] as const;
export type PathEnrollmentStatus = (typeof PATH_ENROLLMENT_STATUSES)[number];
export const MAX_PATH_COURSES = 50;

const Title = Type.String({ minLength: 1, maxLength: 255 });
const Description = Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()]);

const COURSE_A = "3f9a1b2c-7d6e-4f5a-8b9c-0d1e2f3a4b5c";
const COURSE_B = "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

/** A student's own standing in a path: present only in a student session's view. */
export const PathProgress = Type.Object(
  {
    status: StringEnum(PATH_ENROLLMENT_STATUSES),
    requiredCompleted: Type.Integer({ minimum: 0, description: "Required courses of the path completed." }),
    requiredTotal: Type.Integer({ minimum: 0, description: "Required courses of the path." }),
    progressPercent: Type.Number({
      minimum: 0,
      maximum: 100,
      description: "requiredCompleted / requiredTotal, 2 decimals; 0 when none.",
    }),
    enrolledAt: IsoDateTime,
    completedAt: Type.Union([IsoDateTime, Type.Null()]),
  },
  { additionalProperties: false },
);
export type PathProgressRecord = Static<typeof PathProgress>;

export const PathCourse = Type.Object(
  {
    courseId: Uuid,
    position: Type.Integer({ minimum: 1 }),
    required: Type.Boolean({ description: "Counts toward the path's completion." }),
    prerequisites: Type.Array(Uuid, {
      description:
        "Courses of this path to complete before this one opens (a student sees it `locked` until then).",
    }),
    completed: Type.Optional(
      Type.Boolean({
        description: "Student view only: the student holds a completed enrollment in the course.",
      }),
    ),
    locked: Type.Optional(
      Type.Boolean({
        description:
          "Student view only: a prerequisite is not completed yet, or (in a sequential path) a required course " +
          "placed before this one is not.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PathCourseRecord = Static<typeof PathCourse>;

export const LEARNING_PATH_EXAMPLE = {
  id: "8c4d2e1f-0a9b-4c8d-9e7f-6a5b4c3d2e1f",
  title: "Data Science Track",
  description: "From linear algebra to machine learning.",
  sequential: true,
  status: "published",
  courses: [
    { courseId: COURSE_A, position: 1, required: true, prerequisites: [] },
    { courseId: COURSE_B, position: 2, required: true, prerequisites: [COURSE_A] },
  ],
  enrolledCount: 42,
  createdAt: "2026-03-01T12:00:00.000Z",
  updatedAt: "2026-03-02T09:30:00.000Z",
};

export const LearningPath = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    sequential: Type.Boolean({
      description: "Courses open in position order: each waits for the required courses placed before it.",
    }),
    status: StringEnum(PATH_STATUSES),
    courses: Type.Array(PathCourse, { description: "In position order." }),
    enrolledCount: Type.Integer({ minimum: 0, description: "Users enrolled in the path (a counter)." }),
    progress: Type.Optional(PathProgress),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [LEARNING_PATH_EXAMPLE] },
);
export type LearningPathRecord = Static<typeof LearningPath>;

const CourseInput = Type.Object(
  {
    courseId: Uuid,
    position: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description: "Default: the item's place in the list (1-based).",
      }),
    ),
    required: Type.Optional(Type.Boolean({ default: true })),
    prerequisites: Type.Optional(
      Type.Array(Uuid, {
        maxItems: MAX_PATH_COURSES - 1,
        description: "Course ids of this same path; no cycles.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PathCourseInput = Static<typeof CourseInput>;

const Courses = Type.Array(CourseInput, {
  minItems: 1,
  maxItems: MAX_PATH_COURSES,
  description: `1 to ${MAX_PATH_COURSES} distinct courses of this institution, at least one of them required.`,
});

export const CreatePathBody = Type.Object(
  {
    title: Title,
    description: Type.Optional(Description),
    sequential: Type.Optional(Type.Boolean({ default: false })),
    status: Type.Optional(StringEnum(PATH_STATUSES, { default: "draft" })),
    courses: Courses,
  },
  {
    additionalProperties: false,
    examples: [
      {
        title: "Data Science Track",
        sequential: true,
        courses: [{ courseId: COURSE_A }, { courseId: COURSE_B, prerequisites: [COURSE_A] }],
      },
    ],
  },
);
export type CreatePathInput = Static<typeof CreatePathBody>;

export const UpdatePathBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    sequential: Type.Optional(Type.Boolean()),
    status: Type.Optional(StringEnum(PATH_STATUSES)),
    courses: Type.Optional(Courses),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ status: "published" }] },
);
export type UpdatePathInput = Static<typeof UpdatePathBody>;

export const ListPathsQuery = Type.Object(
  {
    ...PageQuery,
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "Matches title and description, ignoring case and accents.",
      }),
    ),
    status: Type.Optional(StringEnum(PATH_STATUSES)),
    sort: Type.Optional(StringEnum(PATH_SORTS, { default: "-createdAt" })),
  },
  { additionalProperties: false },
);
export type ListPathsQueryType = Static<typeof ListPathsQuery>;

export const PathPage = CappedPageOf(LearningPath);

export const DeletePathQuery = Type.Object(
  {
    force: Type.Optional(
      Type.Boolean({ default: false, description: "Delete even when users are enrolled in the path." }),
    ),
  },
  { additionalProperties: false },
);
