import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";

export const COURSE_STATUSES = ["draft", "published", "archived"] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];

const Title = Type.String({ minLength: 1, maxLength: 255 });
const Description = Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()]);

export const Course = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    status: StringEnum(COURSE_STATUSES),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false },
);
export type CourseRecord = Static<typeof Course>;

export const CreateCourseBody = Type.Object(
  {
    title: Title,
    description: Type.Optional(Description),
    status: Type.Optional(StringEnum(COURSE_STATUSES, { default: "draft" })),
  },
  { additionalProperties: false },
);
export type CreateCourseInput = Static<typeof CreateCourseBody>;

export const UpdateCourseBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    status: Type.Optional(StringEnum(COURSE_STATUSES)),
  },
  { additionalProperties: false, minProperties: 1 },
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
  },
  { additionalProperties: false },
);
export type ListCoursesQueryType = Static<typeof ListCoursesQuery>;

export const CoursePage = PageOf(Course);
