import { Type } from "typebox";
import { IsoDateTime, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, exampleOf } from "../events/define.js";
import { GradedBy } from "../gradebook/grade-schemas.js";
import { Submission } from "./submission-schemas.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const SAMPLE = exampleOf(Submission);

const about = {
  courseId: Uuid,
  lessonId: Uuid,
  assignmentId: Uuid,
  submissionId: Uuid,
  userId: Type.String({ format: "uuid", description: "The student." }),
  enrollmentId: Nullable(Uuid),
  attempt: Type.Integer({ minimum: 1 }),
  late: Type.Boolean(),
  secondsLate: Type.Integer({ minimum: 0 }),
};

const aboutSample = {
  courseId: SAMPLE.courseId,
  lessonId: SAMPLE.lessonId,
  assignmentId: SAMPLE.assignmentId,
  submissionId: SAMPLE.id,
  userId: SAMPLE.userId,
  enrollmentId: SAMPLE.enrollmentId,
  attempt: SAMPLE.attempt,
  late: SAMPLE.late,
  secondsLate: SAMPLE.secondsLate,
};

export const assignmentEvents = {
  assignment_submitted: defineEvent({
    schemaVersion: 1,
    description: "A student handed in an assignment: its first attempt or a resubmission.",
    payload: Type.Object({ ...about, submittedAt: IsoDateTime }),
    sample: { ...aboutSample, submittedAt: SAMPLE.submittedAt as string },
  }),
  assignment_graded: defineEvent({
    schemaVersion: 1,
    description:
      "A submission's score was set or changed. `score` is the final score (after any late deduction), " +
      "`percent` of `maxScore` (the assignment's points possible).",
    payload: Type.Object({
      ...about,
      score: Type.Number(),
      rawScore: Type.Number({ description: "The score given, before the late deduction." }),
      deductedPoints: Type.Number(),
      maxScore: Type.Number(),
      percent: Type.Number(),
      gradedBy: GradedBy,
      previousScore: Nullable(Type.Number({ description: "The final score before, if it had one." })),
    }),
    sample: {
      ...aboutSample,
      score: 8,
      rawScore: 9,
      deductedPoints: 1,
      maxScore: 10,
      percent: 80,
      gradedBy: { type: "user" as const, id: SAMPLE.userId },
      previousScore: null,
    },
  }),
};
