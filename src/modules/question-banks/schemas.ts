import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const BANK_STATUSES = ["active", "archived"] as const;
export type BankStatus = (typeof BANK_STATUSES)[number];

export const BANK_SORTS = ["createdAt", "-createdAt", "title", "-title"] as const;
export type BankSort = (typeof BANK_SORTS)[number];

const Title = Type.String({ minLength: 1, maxLength: 255 });
const Description = Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()]);
const CourseId = Type.Union([Uuid, Type.Null()], {
  description: "The course the bank belongs to; null: the whole institution's.",
});

const EXAMPLE = {
  id: "5b3f7c1e-2a41-4c8e-9a0d-6f1e2b3c4d5e",
  title: "Álgebra Linear — banco de questões",
  description: "Questões de vetores e matrizes.",
  courseId: "0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f",
  status: "active",
  questionCount: 42,
  createdAt: "2026-03-01T12:00:00.000Z",
  updatedAt: "2026-03-02T09:30:00.000Z",
};

export const Bank = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    courseId: Type.Union([Uuid, Type.Null()]),
    status: StringEnum(BANK_STATUSES),
    questionCount: Type.Integer({ minimum: 0, description: "Questions in the bank, active and retired." }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [EXAMPLE] },
);
export type BankRecord = Static<typeof Bank>;

export const CreateBankBody = Type.Object(
  {
    title: Title,
    description: Type.Optional(Description),
    courseId: Type.Optional(CourseId),
    status: Type.Optional(StringEnum(BANK_STATUSES, { default: "active" })),
  },
  {
    additionalProperties: false,
    examples: [{ title: EXAMPLE.title, description: EXAMPLE.description, courseId: EXAMPLE.courseId }],
  },
);
export type CreateBankInput = Static<typeof CreateBankBody>;

export const UpdateBankBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    courseId: Type.Optional(CourseId),
    status: Type.Optional(StringEnum(BANK_STATUSES)),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ status: "archived" }] },
);
export type UpdateBankInput = Static<typeof UpdateBankBody>;

export const ListBanksQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(BANK_STATUSES)),
    courseId: Type.Optional(Uuid),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "Matches the title, ignoring case and accents.",
      }),
    ),
    sort: Type.Optional(
      StringEnum(BANK_SORTS, { default: "-createdAt", description: "`-` sorts descending; ties by id." }),
    ),
  },
  { additionalProperties: false },
);
export type ListBanksQueryType = Static<typeof ListBanksQuery>;

export const BankPage = CappedPageOf(Bank);
