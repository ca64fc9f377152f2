import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { OUTLINE_MODULE_EXAMPLE, OutlineModule } from "../course-modules/schemas.js";

export const COURSE_STATUSES = ["draft", "published", "archived"] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];
export const COURSE_SORTS = [
  "createdAt",
  "-createdAt",
  "updatedAt",
  "-updatedAt",
  "title",
  "-title",
] as const;
export type CourseSort = (typeof COURSE_SORTS)[number];

const Title = Type.String({ minLength: 1, maxLength: 255 });
const Description = Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()]);

const COURSE_EXAMPLE = {
  id: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  title: "Álgebra Linear",
  description: "Vetores, matrizes e transformações lineares.",
  status: "published",
  createdAt: "2026-03-01T12:00:00.000Z",
  updatedAt: "2026-03-02T09:30:00.000Z",
};

export const Course = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    status: StringEnum(COURSE_STATUSES),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [COURSE_EXAMPLE],
  },
);
export type CourseRecord = Static<typeof Course>;

export const CreateCourseBody = Type.Object(
  {
    title: Title,
    description: Type.Optional(Description),
    status: Type.Optional(StringEnum(COURSE_STATUSES, { default: "draft" })),
  },
  {
    additionalProperties: false,
    examples: [{ title: "Álgebra Linear", description: "Vetores, matrizes e transformações lineares." }],
  },
);
export type CreateCourseInput = Static<typeof CreateCourseBody>;

export const UpdateCourseBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    status: Type.Optional(StringEnum(COURSE_STATUSES)),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ status: "published" }] },
);
export type UpdateCourseInput = Static<typeof UpdateCourseBody>;

export const ListCoursesQuery = Type.Object(
  {
    ...PageQuery,
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "Matches title and description, ignoring case and accents.",
      }),
    ),
    status: Type.Optional(StringEnum(COURSE_STATUSES)),
    tag: Type.Optional(
      Type.String({ format: "uuid", description: "A tag id: only courses carrying that tag." }),
    ),
    sort: Type.Optional(StringEnum(COURSE_SORTS, { default: "-createdAt" })),
  },
  { additionalProperties: false },
);
export type ListCoursesQueryType = Static<typeof ListCoursesQuery>;

export const CoursePage = CappedPageOf(Course);

export const DeleteCourseQuery = Type.Object(
  {
    force: Type.Optional(
      Type.Boolean({
        default: false,
        description: "Delete even when enrollments that are not dropped exist.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const DuplicateCourseBody = Type.Object(
  {
    title: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'Default: "<title> (copy)".' }),
    ),
  },
  { additionalProperties: false, examples: [{ title: "Álgebra Linear — turma 2027" }] },
);
export type DuplicateCourseInput = Static<typeof DuplicateCourseBody>;

export const CourseOutline = Type.Object(
  { course: Course, modules: Type.Array(OutlineModule) },
  {
    additionalProperties: false,
    examples: [{ course: COURSE_EXAMPLE, modules: [OUTLINE_MODULE_EXAMPLE] }],
  },
);
