import { Type } from "typebox";
import { IsoDateTime, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID, SAMPLE_TIME } from "./define.js";

/**
 * `grade_posted` is one of the contract's automation triggers; nothing emits it until the gradebook lands (the
 * assessment issue), which takes this declaration into its own folder.
 */
export const gradeEvents = {
  grade_posted: defineEvent({
    schemaVersion: 1,
    description: "A grade became visible to the student.",
    payload: Type.Object({
      courseId: Type.Union([Uuid, Type.Null()]),
      gradeItemId: Uuid,
      gradeItemTitle: Type.String(),
      score: Type.Number(),
      maxScore: Type.Number(),
      percent: Type.Number(),
      passed: Type.Union([Type.Boolean(), Type.Null()]),
      postedAt: IsoDateTime,
    }),
    sample: {
      courseId: SAMPLE_ID,
      gradeItemId: SAMPLE_ID,
      gradeItemTitle: "Final exam",
      score: 45,
      maxScore: 50,
      percent: 90,
      passed: true,
      postedAt: SAMPLE_TIME,
    },
  }),
};
