import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const CLASS_STATUSES = ["active", "archived"] as const;
export type ClassStatus = (typeof CLASS_STATUSES)[number];

export const CLASS_SORTS = ["createdAt", "-createdAt", "name", "-name"] as const;
export type ClassSort = (typeof CLASS_SORTS)[number];

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Code = Type.Union([Type.String({ minLength: 1, maxLength: 50 }), Type.Null()], {
  description: "A short code, unique in the institution (409 `conflict` when taken).",
});
const Description = Type.Union([Type.String({ maxLength: 5000 }), Type.Null()]);
const Capacity = Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.Null()], {
  description: "Most members the class admits; null for no limit. Adding members past it is 409 `conflict`.",
});
const CourseIds = Type.Array(Uuid, {
  uniqueItems: true,
  maxItems: 100,
  description: "Courses the class follows; each must exist in this institution.",
});
const When = Type.Union([IsoDateTime, Type.Null()]);

const SAMPLE = {
  id: "5b0c7a4e-8f1d-4c2a-9e3b-1a2b3c4d5e6f",
  name: "Turma A — 2026",
  code: "TA-2026",
  description: "Manhã, segundas e quartas.",
  status: "active",
  capacity: 40,
  courseIds: ["0f8e2d1c-3b4a-4e5f-8a9b-0c1d2e3f4a5b"],
  startsAt: "2026-02-02T11:00:00.000Z",
  endsAt: "2026-06-30T21:00:00.000Z",
  memberCount: 28,
  createdAt: "2026-01-10T12:00:00.000Z",
  updatedAt: "2026-01-12T09:30:00.000Z",
};

export const ClassGroup = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    code: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    status: StringEnum(CLASS_STATUSES),
    capacity: Type.Union([Type.Integer(), Type.Null()]),
    courseIds: Type.Array(Uuid),
    startsAt: When,
    endsAt: When,
    memberCount: Type.Integer({ minimum: 0 }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [SAMPLE] },
);
export type ClassGroupRecord = Static<typeof ClassGroup>;

export const CreateClassBody = Type.Object(
  {
    name: Name,
    code: Type.Optional(Code),
    description: Type.Optional(Description),
    capacity: Type.Optional(Capacity),
    courseIds: Type.Optional(CourseIds),
    startsAt: Type.Optional(When),
    endsAt: Type.Optional(When),
    status: Type.Optional(StringEnum(CLASS_STATUSES, { default: "active" })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: SAMPLE.name,
        code: SAMPLE.code,
        capacity: SAMPLE.capacity,
        courseIds: SAMPLE.courseIds,
        startsAt: SAMPLE.startsAt,
        endsAt: SAMPLE.endsAt,
      },
    ],
  },
);
export type CreateClassInput = Static<typeof CreateClassBody>;

export const UpdateClassBody = Type.Object(
  {
    name: Type.Optional(Name),
    code: Type.Optional(Code),
    description: Type.Optional(Description),
    capacity: Type.Optional(Capacity),
    courseIds: Type.Optional(CourseIds),
    startsAt: Type.Optional(When),
    endsAt: Type.Optional(When),
    status: Type.Optional(StringEnum(CLASS_STATUSES)),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ status: "archived" }] },
);
export type UpdateClassInput = Static<typeof UpdateClassBody>;

export const ListClassesQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(CLASS_STATUSES)),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "Matches name and code, ignoring case and accents.",
      }),
    ),
    courseId: Type.Optional(Type.String({ format: "uuid", description: "Classes that follow this course." })),
    sort: Type.Optional(
      StringEnum(CLASS_SORTS, { default: "-createdAt", description: "`-` sorts descending. Newest first." }),
    ),
  },
  { additionalProperties: false },
);
export type ListClassesQueryType = Static<typeof ListClassesQuery>;

export const ClassGroupPage = CappedPageOf(ClassGroup);
