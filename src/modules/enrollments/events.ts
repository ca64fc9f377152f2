import { Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, exampleOf, SAMPLE_TIME } from "../events/define.js";
import { Completion } from "./completion-schemas.js";
import {
  ENROLLMENT_ROLES,
  ENROLLMENT_SOURCES,
  ENROLLMENT_STATUSES,
  Enrollment,
  type EnrollmentRecord,
} from "./schemas.js";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Percent = Type.Number({ minimum: 0, maximum: 100 });

const SAMPLE_ENROLLMENT = exampleOf(Enrollment);
const SAMPLE_COMPLETION = exampleOf(Completion);

/** Who and what every enrollment event is about: the ids, and the enrollment as `GET /enrollments/:id` answers. */
const About = {
  enrollmentId: Uuid,
  courseId: Uuid,
  userId: Type.String({ format: "uuid", description: "The enrolled user." }),
  enrollment: Type.Object(Enrollment.properties, {
    description: "The enrollment as `GET /enrollments/:id` answers it, just after this event.",
  }),
};
const aboutSample = {
  enrollmentId: SAMPLE_ENROLLMENT.id,
  courseId: SAMPLE_ENROLLMENT.courseId,
  userId: SAMPLE_ENROLLMENT.userId,
  enrollment: SAMPLE_ENROLLMENT,
};

/** The learner and course of a completion event (the enrollment it counted for may since be deleted). */
const Learner = {
  courseId: Uuid,
  userId: Type.String({ format: "uuid", description: "The learner." }),
  enrollmentId: Nullable(Uuid),
};
const learnerSample = {
  courseId: SAMPLE_COMPLETION.courseId,
  userId: SAMPLE_COMPLETION.userId,
  enrollmentId: SAMPLE_COMPLETION.enrollmentId,
};

export const enrollmentEvents = {
  lesson_completed: defineEvent({
    schemaVersion: 1,
    description: "A user completed a lesson for the first time.",
    payload: Type.Object({
      ...Learner,
      lessonId: Uuid,
      moduleId: Nullable(Uuid),
      completedAt: IsoDateTime,
      timeSpentSeconds: Nullable(Type.Integer({ minimum: 0 })),
      scorePercent: Nullable(Percent),
      progressPercent: Nullable(Percent),
      courseCompleted: Type.Boolean(),
      completion: Type.Object(Completion.properties, {
        description: "The completion as `GET /lessons/:id/completions` lists it.",
      }),
    }),
    sample: {
      ...learnerSample,
      lessonId: SAMPLE_COMPLETION.lessonId,
      moduleId: SAMPLE_COMPLETION.moduleId,
      completedAt: SAMPLE_COMPLETION.completedAt,
      timeSpentSeconds: SAMPLE_COMPLETION.timeSpentSeconds,
      scorePercent: SAMPLE_COMPLETION.scorePercent,
      progressPercent: 40,
      courseCompleted: false,
      completion: SAMPLE_COMPLETION,
    },
  }),
  module_completed: defineEvent({
    schemaVersion: 1,
    description: "A user completed the required lessons of a module.",
    payload: Type.Object({
      ...Learner,
      moduleId: Uuid,
      completedAt: IsoDateTime,
      progressPercent: Nullable(Percent),
    }),
    sample: {
      ...learnerSample,
      moduleId: SAMPLE_COMPLETION.moduleId,
      completedAt: SAMPLE_TIME,
      progressPercent: 50,
    },
  }),
  lesson_completion_reset: defineEvent({
    schemaVersion: 1,
    description: "A user's completion of a lesson was removed.",
    payload: Type.Object({ ...Learner, lessonId: Uuid, moduleId: Uuid, progressPercent: Nullable(Percent) }),
    sample: {
      ...learnerSample,
      lessonId: SAMPLE_COMPLETION.lessonId,
      moduleId: SAMPLE_COMPLETION.moduleId,
      progressPercent: 30,
    },
  }),
  enrollment_created: defineEvent({
    schemaVersion: 1,
    description: "A user was enrolled in a course.",
    payload: Type.Object({
      ...About,
      role: StringEnum(ENROLLMENT_ROLES),
      status: StringEnum(ENROLLMENT_STATUSES),
      source: StringEnum(ENROLLMENT_SOURCES),
      classGroupId: Nullable(Uuid),
    }),
    sample: { ...aboutSample, role: "student", status: "active", source: "api", classGroupId: null },
  }),
  enrollment_completed: defineEvent({
    schemaVersion: 1,
    description: "An enrollment met its course's completion rule.",
    payload: Type.Object({
      ...About,
      completedAt: IsoDateTime,
      progressPercent: Percent,
      finalScore: Nullable(Type.Number()),
    }),
    sample: {
      ...aboutSample,
      enrollment: {
        ...SAMPLE_ENROLLMENT,
        status: "completed",
        completedAt: SAMPLE_TIME,
        progressPercent: 100,
      },
      completedAt: SAMPLE_TIME,
      progressPercent: 100,
      finalScore: 92,
    },
  }),
  enrollment_dropped: defineEvent({
    schemaVersion: 1,
    description: "An enrollment was dropped or deleted.",
    payload: Type.Object({
      ...About,
      enrollment: Type.Object(Enrollment.properties, {
        description:
          "The enrollment as `GET /enrollments/:id` answered it: after the drop, or just before deletion.",
      }),
      mode: StringEnum(["drop", "delete"] as const),
    }),
    sample: { ...aboutSample, enrollment: { ...SAMPLE_ENROLLMENT, status: "dropped" }, mode: "drop" },
  }),
  enrollment_expired: defineEvent({
    schemaVersion: 1,
    description: "An active enrollment reached its expiry before the course was completed.",
    payload: Type.Object({ ...About, expiresAt: IsoDateTime, progressPercent: Percent }),
    sample: {
      ...aboutSample,
      enrollment: { ...SAMPLE_ENROLLMENT, status: "expired" },
      expiresAt: SAMPLE_TIME,
      progressPercent: 60,
    },
  }),
  enrollment_progressed: defineEvent({
    schemaVersion: 1,
    description: "An enrollment's progress grew; at most once a minute per enrollment.",
    payload: Type.Object({
      ...About,
      progressPercent: Percent,
      previousProgressPercent: Percent,
      lessonsCompleted: Type.Integer({ minimum: 0 }),
      lessonsTotal: Type.Integer({ minimum: 0 }),
    }),
    sample: {
      ...aboutSample,
      progressPercent: 40,
      previousProgressPercent: 30,
      lessonsCompleted: 4,
      lessonsTotal: 10,
    },
  }),
  enrollment_inactive: defineEvent({
    schemaVersion: 1,
    description:
      "An active enrollment had no learning activity for the institution's enrollmentInactiveDays; once per period.",
    payload: Type.Object({
      ...About,
      lastActivityAt: Nullable(IsoDateTime),
      inactiveDays: Type.Integer({ minimum: 0 }),
      thresholdDays: Type.Integer({ minimum: 1 }),
      progressPercent: Percent,
      basis: StringEnum(["activity"] as const),
    }),
    sample: {
      ...aboutSample,
      lastActivityAt: SAMPLE_TIME,
      inactiveDays: 14,
      thresholdDays: 14,
      progressPercent: 40,
      basis: "activity",
    },
  }),
};

/** The ids and the object every enrollment event carries, from the enrollment as the API reads it. */
export function enrollmentAbout(enrollment: EnrollmentRecord) {
  return {
    enrollmentId: enrollment.id,
    courseId: enrollment.courseId,
    userId: enrollment.userId,
    enrollment,
  };
}
