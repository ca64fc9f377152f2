import { Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID, SAMPLE_TIME } from "../events/define.js";
import { GRADE_STATUSES, SOURCE_TYPES } from "./item-schemas.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/**
 * What `grade_posted` and `grade_updated` carry. The first eight fields are `grade_posted`'s version 1 as it was
 * declared before the gradebook existed (src/modules/events/grade-events.ts); the rest were added with it (a
 * payload only gains fields). `score` is the effective score (the override when there is one; 0 for a `missing`
 * grade without a score); `percent` is `score / maxScore × 100`, 2 decimals.
 */
const GradePayload = Type.Object({
  courseId: Nullable(Uuid),
  gradeItemId: Uuid,
  gradeItemTitle: Type.String(),
  score: Type.Number(),
  maxScore: Type.Number(),
  percent: Type.Number(),
  passed: Nullable(Type.Boolean()),
  postedAt: IsoDateTime,
  gradeId: Uuid,
  userId: Type.String({ format: "uuid", description: "The student." }),
  enrollmentId: Nullable(Uuid),
  sourceType: StringEnum(SOURCE_TYPES),
  status: StringEnum(GRADE_STATUSES),
  letter: Nullable(Type.String({ description: "The letter `percent` earns on the grading scale." })),
  previousScore: Nullable(Type.Number({ description: "The effective score the student saw before." })),
});

const gradeSample = {
  courseId: SAMPLE_ID,
  gradeItemId: SAMPLE_ID,
  gradeItemTitle: "Final exam",
  score: 45,
  maxScore: 50,
  percent: 90,
  passed: true,
  postedAt: SAMPLE_TIME,
  gradeId: SAMPLE_ID,
  userId: SAMPLE_ID,
  enrollmentId: SAMPLE_ID,
  sourceType: "manual" as const,
  status: "graded" as const,
  letter: "A",
  previousScore: null,
};

const Score = Nullable(Type.Number({ description: "Percent, 2 decimals; null when nothing counts yet." }));

export const gradeEvents = {
  grade_posted: defineEvent({
    schemaVersion: 1,
    description:
      "A grade became visible to the student: written on an item whose post policy is `automatic`, or released " +
      "by `POST /courses/:id/grades/post`. Not emitted for a grade without a score (pending or excused).",
    payload: GradePayload,
    sample: gradeSample,
  }),
  grade_updated: defineEvent({
    schemaVersion: 1,
    description: "A posted grade (one the student sees) changed its score, override or status.",
    payload: GradePayload,
    sample: { ...gradeSample, score: 47, percent: 94, previousScore: 45 },
  }),
  course_grade_changed: defineEvent({
    schemaVersion: 1,
    description:
      "A student's course grade as the student sees it (`currentScore` or `finalScore`, over posted grades) " +
      "changed. The scores over all grades (`unposted…`) are included.",
    payload: Type.Object({
      courseId: Uuid,
      userId: Type.String({ format: "uuid", description: "The student." }),
      enrollmentId: Nullable(Uuid),
      currentScore: Score,
      finalScore: Score,
      unpostedCurrentScore: Score,
      unpostedFinalScore: Score,
      letter: Nullable(Type.String({ description: "The letter of `currentScore`." })),
      finalLetter: Nullable(Type.String({ description: "The letter of `finalScore`." })),
      previousCurrentScore: Score,
      previousFinalScore: Score,
    }),
    sample: {
      courseId: SAMPLE_ID,
      userId: SAMPLE_ID,
      enrollmentId: SAMPLE_ID,
      currentScore: 86.5,
      finalScore: 72.08,
      unpostedCurrentScore: 84,
      unpostedFinalScore: 75,
      letter: "B",
      finalLetter: "C",
      previousCurrentScore: 81,
      previousFinalScore: 60.75,
    },
  }),
};
