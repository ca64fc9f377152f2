import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const SOURCE_TYPES = ["quiz", "assignment", "lesson", "live_class", "manual", "lti"] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
export const POST_POLICIES = ["automatic", "manual"] as const;
export const GRADE_STATUSES = ["pending", "graded", "excused", "missing", "late"] as const;
export type GradeStatus = (typeof GRADE_STATUSES)[number];
export const GRADE_SOURCES = ["manual", "auto", "import", "lti"] as const;
export type GradeSource = (typeof GRADE_SOURCES)[number];

/** At most this many categories and items per course: the gradebook's columns stay a bounded page. */
export const MAX_CATEGORIES = 50;
export const MAX_ITEMS = 200;

const Position = Type.Integer({
  minimum: 0,
  maximum: 1_000_000,
  description: "Sort key within the course (ties by id); a new one goes last unless given.",
});
const Weight = Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], {
  description:
    "Percent of the course grade. When any category of the course has a weight, the course grade is " +
    "weighted by category and items outside a weighted category do not count.",
});

export const CATEGORY_EXAMPLE = {
  id: "2c4e6a8b-1d3f-4a5b-8c7d-9e0f1a2b3c4d",
  courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  name: "Provas",
  weight: 60,
  dropLowest: 1,
  position: 1,
  createdAt: "2026-03-01T12:00:00.000Z",
  updatedAt: "2026-03-01T12:00:00.000Z",
};

export const GradeCategory = Type.Object(
  {
    id: Uuid,
    courseId: Uuid,
    name: Type.String(),
    weight: Type.Union([Type.Number(), Type.Null()]),
    dropLowest: Type.Integer({ minimum: 0 }),
    position: Type.Integer({ minimum: 0 }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [CATEGORY_EXAMPLE] },
);
export type CategoryRecord = Static<typeof GradeCategory>;

const categoryEditable = {
  weight: Type.Optional(Weight),
  dropLowest: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 100, description: "Drop this many lowest grades of the category." }),
  ),
  position: Type.Optional(Position),
};
const Name = Type.String({ minLength: 1, maxLength: 100 });

export const CreateCategoryBody = Type.Object(
  { name: Name, ...categoryEditable },
  { additionalProperties: false, examples: [{ name: "Provas", weight: 60, dropLowest: 1 }] },
);
export type CreateCategoryInput = Static<typeof CreateCategoryBody>;

export const UpdateCategoryBody = Type.Object(
  { name: Type.Optional(Name), ...categoryEditable },
  { additionalProperties: false, minProperties: 1, examples: [{ weight: 40 }] },
);
export type UpdateCategoryInput = Static<typeof UpdateCategoryBody>;

export const ListCategoriesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const CategoryPage = CappedPageOf(GradeCategory);

export const ITEM_EXAMPLE = {
  id: "4e6a8b2c-1d3f-4a5b-8c7d-9e0f1a2b3c4d",
  courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  categoryId: "2c4e6a8b-1d3f-4a5b-8c7d-9e0f1a2b3c4d",
  title: "Prova 1",
  sourceType: "manual",
  sourceId: null,
  maxPoints: 10,
  passPercent: 60,
  dueAt: "2026-04-01T23:59:00.000Z",
  position: 1,
  visibleToStudents: true,
  postPolicy: "manual",
  excludedFromFinal: false,
  rubricId: null,
  gradeCount: 28,
  createdAt: "2026-03-01T12:00:00.000Z",
  updatedAt: "2026-03-01T12:00:00.000Z",
};

export const GradeItem = Type.Object(
  {
    id: Uuid,
    courseId: Uuid,
    categoryId: Type.Union([Uuid, Type.Null()]),
    title: Type.String(),
    sourceType: StringEnum(SOURCE_TYPES),
    sourceId: Type.Union([Uuid, Type.Null()]),
    maxPoints: Type.Number({ exclusiveMinimum: 0 }),
    passPercent: Type.Union([Type.Number(), Type.Null()]),
    dueAt: Type.Union([IsoDateTime, Type.Null()]),
    position: Type.Integer({ minimum: 0 }),
    visibleToStudents: Type.Boolean(),
    postPolicy: StringEnum(POST_POLICIES),
    excludedFromFinal: Type.Boolean(),
    rubricId: Type.Union([Uuid, Type.Null()]),
    gradeCount: Type.Integer({ minimum: 0, description: "Grades recorded on this item (from a counter)." }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [ITEM_EXAMPLE] },
);
export type ItemRecord = Static<typeof GradeItem>;

const Title = Type.String({ minLength: 1, maxLength: 255 });
const itemEditable = {
  categoryId: Type.Optional(
    Type.Union([Uuid, Type.Null()], { description: "A category of the same course (400 otherwise)." }),
  ),
  maxPoints: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100_000 })),
  passPercent: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()])),
  dueAt: Type.Optional(Type.Union([IsoDateTime, Type.Null()])),
  position: Type.Optional(Position),
  visibleToStudents: Type.Optional(Type.Boolean()),
  postPolicy: Type.Optional(
    StringEnum(POST_POLICIES, {
      description:
        "`automatic`: a grade is posted (visible to the student) when written. `manual`: grades stay hidden " +
        "until `POST /courses/:id/grades/post`. Changing it posts nothing already written.",
    }),
  ),
  excludedFromFinal: Type.Optional(
    Type.Boolean({ description: "Shown, but not counted in the course grade." }),
  ),
  rubricId: Type.Optional(
    Type.Union([Uuid, Type.Null()], {
      description:
        "A rubric of the institution or of this course (400 otherwise): a grading assessment with it writes " +
        "the item's grade (total points scaled to maxPoints).",
    }),
  ),
};

export const CreateItemBody = Type.Object(
  {
    title: Title,
    sourceType: Type.Optional(StringEnum(SOURCE_TYPES, { default: "manual" })),
    sourceId: Type.Optional(
      Type.Union([Uuid, Type.Null()], {
        description: "What the grades come from (a quiz's id for `quiz`); one item per source in a course.",
      }),
    ),
    ...itemEditable,
    maxPoints: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
  },
  {
    additionalProperties: false,
    examples: [{ title: "Prova 1", maxPoints: 10, categoryId: CATEGORY_EXAMPLE.id, postPolicy: "manual" }],
  },
);
export type CreateItemInput = Static<typeof CreateItemBody>;

export const UpdateItemBody = Type.Object(
  { title: Type.Optional(Title), ...itemEditable },
  { additionalProperties: false, minProperties: 1, examples: [{ maxPoints: 20, postPolicy: "automatic" }] },
);
export type UpdateItemInput = Static<typeof UpdateItemBody>;

export const ListItemsQuery = Type.Object(
  {
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type ListItemsQueryType = Static<typeof ListItemsQuery>;
export const ItemPage = CappedPageOf(GradeItem);

export const DeleteItemQuery = Type.Object(
  { force: Type.Optional(Type.Boolean({ description: "Delete the item with its grades." })) },
  { additionalProperties: false },
);
