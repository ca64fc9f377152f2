import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { LESSON_EXAMPLE, Lesson } from "../lessons/schemas.js";

export const MODULE_STATUSES = ["draft", "published"] as const;
export const COMPLETION_REQUIREMENTS = ["all", "any"] as const;
export const MODULE_SORTS = ["position", "-position", "title", "-title", "createdAt", "-createdAt"] as const;
export type ModuleSort = (typeof MODULE_SORTS)[number];

const Title = Type.String({ minLength: 1, maxLength: 255 });
const Description = Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()]);
const NullableDate = Type.Union([IsoDateTime, Type.Null()]);

export const MODULE_EXAMPLE = {
  id: "7b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
  courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  title: "Vetores",
  description: "Operações com vetores no plano e no espaço.",
  position: 2,
  status: "published",
  unlockAt: null,
  prerequisiteModuleIds: ["5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d"],
  completionRequirement: "all",
  sequential: true,
  lessonCount: 4,
  createdAt: "2026-03-01T12:00:00.000Z",
  updatedAt: "2026-03-01T12:00:00.000Z",
};

const moduleFields = {
  id: Uuid,
  courseId: Uuid,
  title: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  position: Type.Integer({ minimum: 1 }),
  status: StringEnum(MODULE_STATUSES),
  unlockAt: NullableDate,
  prerequisiteModuleIds: Type.Array(Uuid),
  completionRequirement: StringEnum(COMPLETION_REQUIREMENTS),
  sequential: Type.Boolean(),
  lessonCount: Type.Integer({ minimum: 0 }),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
};

export const CourseModule = Type.Object(moduleFields, {
  additionalProperties: false,
  examples: [MODULE_EXAMPLE],
});
export type ModuleRecord = Static<typeof CourseModule>;

export const OUTLINE_MODULE_EXAMPLE = { ...MODULE_EXAMPLE, lessonCount: 1, lessons: [LESSON_EXAMPLE] };

/** A module with its lessons, as the course outline nests them. */
export const OutlineModule = Type.Object(
  { ...moduleFields, lessons: Type.Array(Lesson) },
  { additionalProperties: false, examples: [OUTLINE_MODULE_EXAMPLE] },
);
export type OutlineModuleRecord = Static<typeof OutlineModule>;

const editable = {
  description: Type.Optional(Description),
  position: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: "1-based; the following modules move down. Past the end means last.",
    }),
  ),
  status: Type.Optional(StringEnum(MODULE_STATUSES)),
  unlockAt: Type.Optional(NullableDate),
  prerequisiteModuleIds: Type.Optional(
    Type.Array(Uuid, {
      uniqueItems: true,
      maxItems: 100,
      description: "Modules of the same course placed before this one.",
    }),
  ),
  completionRequirement: Type.Optional(
    StringEnum(COMPLETION_REQUIREMENTS, { description: "`all` or `any` of the required lessons." }),
  ),
  sequential: Type.Optional(Type.Boolean({ description: "Lessons unlock in order." })),
};

export const CreateModuleBody = Type.Object(
  { title: Title, ...editable },
  {
    additionalProperties: false,
    examples: [
      {
        title: "Vetores",
        description: "Operações com vetores no plano e no espaço.",
        prerequisiteModuleIds: ["5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d"],
        completionRequirement: "all",
        sequential: true,
      },
    ],
  },
);
export type CreateModuleInput = Static<typeof CreateModuleBody>;

export const UpdateModuleBody = Type.Object(
  { title: Type.Optional(Title), ...editable },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ title: "Vetores e matrizes", position: 1, status: "published" }],
  },
);
export type UpdateModuleInput = Static<typeof UpdateModuleBody>;

export const ListModulesQuery = Type.Object(
  {
    ...PageQuery,
    sort: Type.Optional(StringEnum(MODULE_SORTS, { default: "position" })),
    status: Type.Optional(StringEnum(MODULE_STATUSES)),
  },
  { additionalProperties: false },
);
export type ListModulesQueryType = Static<typeof ListModulesQuery>;

export const ModulePage = CappedPageOf(CourseModule);

export const ModuleOrderBody = Type.Object(
  {
    moduleIds: Type.Array(Uuid, {
      uniqueItems: true,
      maxItems: 1000,
      description: "Every module of the course, each once, in the new order.",
    }),
  },
  { additionalProperties: false, examples: [{ moduleIds: ["7b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e"] }] },
);
export type ModuleOrderInput = Static<typeof ModuleOrderBody>;

export const ModuleList = Type.Object(
  { data: Type.Array(CourseModule) },
  { additionalProperties: false, examples: [{ data: [MODULE_EXAMPLE] }] },
);
