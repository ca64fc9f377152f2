import { Type } from "typebox";
import { IsoDateTime, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, exampleOf, SAMPLE_TIME } from "../events/define.js";
import { PathEnrollment } from "./enrollment-schemas.js";
import { LEARNING_PATH_EXAMPLE } from "./schemas.js";

const SAMPLE_ENROLLMENT = exampleOf(PathEnrollment);

/** Who and what every path event is about: the path, the learner, and the learner's path enrollment. */
const About = {
  learningPathId: Uuid,
  userId: Type.String({ format: "uuid", description: "The learner." }),
  title: Type.String({ description: "The path's title." }),
  enrollment: Type.Object(PathEnrollment.properties, {
    description:
      "The path enrollment as `GET /learning-paths/:id/enrollments` lists it, just after this event.",
  }),
};
const aboutSample = {
  learningPathId: SAMPLE_ENROLLMENT.learningPathId,
  userId: SAMPLE_ENROLLMENT.userId,
  title: LEARNING_PATH_EXAMPLE.title,
};

export const learningPathEvents = {
  learning_path_enrolled: defineEvent({
    schemaVersion: 1,
    description: "A user was enrolled in a learning path (and in its courses).",
    payload: Type.Object({ ...About, enrolledAt: IsoDateTime }),
    sample: {
      ...aboutSample,
      enrolledAt: SAMPLE_TIME,
      enrollment: { ...SAMPLE_ENROLLMENT, requiredCompleted: 0, progressPercent: 0, enrolledAt: SAMPLE_TIME },
    },
  }),
  learning_path_completed: defineEvent({
    schemaVersion: 1,
    description: "A user completed every required course of a learning path.",
    payload: Type.Object({
      ...About,
      completedAt: IsoDateTime,
      requiredCompleted: Type.Integer({ minimum: 0 }),
      requiredTotal: Type.Integer({ minimum: 0 }),
    }),
    sample: {
      ...aboutSample,
      completedAt: SAMPLE_TIME,
      requiredCompleted: 2,
      requiredTotal: 2,
      enrollment: {
        ...SAMPLE_ENROLLMENT,
        status: "completed",
        requiredCompleted: 2,
        progressPercent: 100,
        completedAt: SAMPLE_TIME,
      },
    },
  }),
};
