import { Type } from "typebox";
import { IsoDateTime, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID } from "../events/define.js";

export const aiLimitEvents = {
  ai_limit_reached: defineEvent({
    schemaVersion: 1,
    description:
      "A user's AI call was refused (or, with `onExhausted: notify_only`, went over) because a limit was used up; " +
      "once per user and period.",
    payload: Type.Object({
      userId: Uuid,
      limitSubject: Type.String({
        description: "`user` (the user's own limit, from any level) or `institution`.",
      }),
      limit: Type.Integer(),
      used: Type.Integer(),
      unit: Type.String(),
      periodStart: IsoDateTime,
      resetsAt: IsoDateTime,
    }),
    sample: {
      userId: SAMPLE_ID,
      limitSubject: "user",
      limit: 100,
      used: 100,
      unit: "credits",
      periodStart: "2026-11-01T03:00:00.000Z",
      resetsAt: "2026-12-01T03:00:00.000Z",
    },
  }),
};
