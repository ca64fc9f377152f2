import { Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, exampleOf } from "../events/define.js";
import { Attempt } from "./attempt-schemas.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const SAMPLE_ATTEMPT = exampleOf(Attempt);

const Submitted = {
  courseId: Nullable(Uuid),
  quizId: Uuid,
  attemptId: Uuid,
  userId: Type.String({ format: "uuid", description: "The learner who made the attempt." }),
  attemptNumber: Type.Integer({ minimum: 1 }),
  score: Type.Number(),
  maxScore: Type.Number(),
  percent: Type.Number(),
  passed: Nullable(Type.Boolean()),
  submittedAt: IsoDateTime,
  lessonId: Uuid,
  enrollmentId: Nullable(Uuid),
  gradingStatus: StringEnum(["graded", "pending_review"] as const, {
    description:
      "`pending_review` while an essay awaits a teacher: `score` and `percent` then cover the graded part only.",
  }),
  timeSpentSeconds: Nullable(Type.Integer({ minimum: 0 })),
  letterGrade: Type.Optional(
    Nullable(
      Type.String({
        description: "The letter of `percent` on the institution's grading scale; null until graded.",
      }),
    ),
  ),
  attempt: Type.Object(Attempt.properties, {
    description: "The attempt as `GET /quiz-attempts/:id` answers it, questions and answers included.",
  }),
};

/** The attempt's figures: 8 of 10 points, a B on the default scale. */
const SCORED = { score: 8, maxScore: 10, percent: 80, passed: true, letterGrade: "B" };

const submittedSample = {
  courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  quizId: SAMPLE_ATTEMPT.quizId,
  attemptId: SAMPLE_ATTEMPT.id,
  userId: SAMPLE_ATTEMPT.userId,
  attemptNumber: SAMPLE_ATTEMPT.attemptNumber,
  ...SCORED,
  submittedAt: SAMPLE_ATTEMPT.submittedAt as string,
  lessonId: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
  enrollmentId: SAMPLE_ATTEMPT.enrollmentId,
  gradingStatus: "graded" as const,
  timeSpentSeconds: SAMPLE_ATTEMPT.timeSpentSeconds,
  attempt: { ...SAMPLE_ATTEMPT, ...SCORED, keptScore: 8, keptPercent: 80 },
};

export const quizEvents = {
  quiz_submitted: defineEvent({
    schemaVersion: 1,
    description: "A quiz attempt was submitted and its objective part scored.",
    payload: Type.Object(Submitted),
    sample: submittedSample,
  }),
  quiz_graded: defineEvent({
    schemaVersion: 1,
    description: "A quiz attempt's manual grading finished or its score changed.",
    payload: Type.Object({ ...Submitted, previousScore: Nullable(Type.Number()) }),
    sample: { ...submittedSample, score: 9, percent: 90, letterGrade: "A", previousScore: 8 },
  }),
};
