import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPagination } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { ENROLLMENT_STATUSES } from "../enrollments/schemas.js";
import { GRADE_EXAMPLE } from "./grade-schemas.js";
import { GRADE_STATUSES, GradeItem, ITEM_EXAMPLE } from "./item-schemas.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(
  t: T,
  options: Record<string, unknown> = {},
) => Type.Union([t, Type.Null()], options);
const Percent = Nullable(Type.Number());
const Letter = Nullable(Type.String());

export const CourseGrade = Type.Object(
  {
    currentScore: Nullable(Type.Number(), {
      description: "Over posted grades of visible items, graded only.",
    }),
    finalScore: Nullable(Type.Number(), {
      description: "Over posted grades of visible items, ungraded as 0.",
    }),
    unpostedCurrentScore: Nullable(Type.Number(), {
      description: "Over every grade, graded only (null to a student's session).",
    }),
    unpostedFinalScore: Nullable(Type.Number(), {
      description: "Over every grade, ungraded as 0 (null to a student's session).",
    }),
    currentLetter: Letter,
    finalLetter: Letter,
    unpostedCurrentLetter: Letter,
    unpostedFinalLetter: Letter,
  },
  { additionalProperties: false },
);
export type CourseGradeRecord = Static<typeof CourseGrade>;

export const GradeCell = Type.Object(
  {
    id: Uuid,
    score: Percent,
    overrideScore: Percent,
    effectiveScore: Percent,
    status: StringEnum(GRADE_STATUSES),
    gradedAt: Nullable(IsoDateTime),
    postedAt: Nullable(IsoDateTime),
  },
  { additionalProperties: false },
);
export type GradeCellRecord = Static<typeof GradeCell>;

export const GradebookRow = Type.Object(
  {
    enrollmentId: Uuid,
    userId: Uuid,
    name: Type.String(),
    email: Type.String(),
    enrollmentStatus: StringEnum(ENROLLMENT_STATUSES),
    courseGrade: CourseGrade,
    grades: Type.Record(Type.String(), GradeCell, {
      description: "The student's grades keyed by grade item id; an item without a grade is absent.",
    }),
  },
  { additionalProperties: false },
);
export type GradebookRowRecord = Static<typeof GradebookRow>;

const ROW_EXAMPLE = {
  enrollmentId: GRADE_EXAMPLE.enrollmentId,
  userId: GRADE_EXAMPLE.userId,
  name: "Ana Souza",
  email: "ana@example.com",
  enrollmentStatus: "active",
  courseGrade: {
    currentScore: 85,
    finalScore: 85,
    unpostedCurrentScore: 85,
    unpostedFinalScore: 85,
    currentLetter: "B",
    finalLetter: "B",
    unpostedCurrentLetter: "B",
    unpostedFinalLetter: "B",
  },
  grades: {
    [ITEM_EXAMPLE.id]: {
      id: GRADE_EXAMPLE.id,
      score: 8.5,
      overrideScore: null,
      effectiveScore: 8.5,
      status: "graded",
      gradedAt: GRADE_EXAMPLE.gradedAt,
      postedAt: "2026-04-03T12:00:00.000Z",
    },
  },
};

export const Gradebook = Type.Object(
  {
    columns: Type.Array(GradeItem, { description: "The course's grade items in position order." }),
    data: Type.Array(GradebookRow),
    pagination: CappedPagination,
  },
  {
    additionalProperties: false,
    examples: [
      {
        columns: [ITEM_EXAMPLE],
        data: [ROW_EXAMPLE],
        pagination: { page: 1, perPage: 20, total: 1, totalPages: 1, totalRelation: "eq" },
      },
    ],
  },
);

export const GradebookQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
