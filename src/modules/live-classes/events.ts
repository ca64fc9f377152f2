import { Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID, SAMPLE_TIME } from "../events/define.js";

/** No join URL: links are per user and some carry credentials (BigBlueButton's checksum, Zoom's password). */
const LiveClassLifecycle = {
  liveClassId: Uuid,
  title: Type.String(),
  startsAt: IsoDateTime,
  durationMinutes: Type.Integer({ minimum: 1 }),
  courseId: Type.Union([Uuid, Type.Null()]),
  classGroupId: Type.Union([Uuid, Type.Null()]),
  provider: Type.String(),
};

const SAMPLE = {
  liveClassId: SAMPLE_ID,
  title: "Revisão para a prova",
  startsAt: SAMPLE_TIME,
  durationMinutes: 60,
  courseId: SAMPLE_ID,
  classGroupId: null,
  provider: "jitsi",
};

export const liveClassEvents = {
  live_class_scheduled: defineEvent({
    schemaVersion: 1,
    description: "A live class was scheduled (with its occurrences).",
    payload: Type.Object({ ...LiveClassLifecycle, occurrences: Type.Integer({ minimum: 0 }) }),
    sample: { ...SAMPLE, occurrences: 8 },
  }),
  live_class_canceled: defineEvent({
    schemaVersion: 1,
    description: "A live class, or one of its occurrences, was canceled.",
    payload: Type.Object({
      ...LiveClassLifecycle,
      occurrenceId: Type.Union([Uuid, Type.Null()], { description: "null: the whole class was canceled." }),
    }),
    sample: { ...SAMPLE, occurrenceId: null },
  }),
  live_class_started: defineEvent({
    schemaVersion: 1,
    description: "An occurrence of a live class started.",
    payload: Type.Object({ ...LiveClassLifecycle, occurrenceId: Uuid }),
    sample: { ...SAMPLE, occurrenceId: SAMPLE_ID },
  }),
  live_class_ended: defineEvent({
    schemaVersion: 1,
    description: "An occurrence of a live class ended.",
    payload: Type.Object({ ...LiveClassLifecycle, occurrenceId: Uuid, endedAt: IsoDateTime }),
    sample: { ...SAMPLE, occurrenceId: SAMPLE_ID, endedAt: SAMPLE_TIME },
  }),
  live_class_attended: defineEvent({
    schemaVersion: 1,
    description: "A user attended an occurrence of a live class for at least its threshold.",
    payload: Type.Object({
      liveClassId: Uuid,
      occurrenceId: Uuid,
      userId: Uuid,
      durationSeconds: Type.Integer({ minimum: 0 }),
      status: Type.String(),
      source: StringEnum(["provider", "manual"] as const),
      lessonId: Type.Union([Uuid, Type.Null()]),
    }),
    sample: {
      liveClassId: SAMPLE_ID,
      occurrenceId: SAMPLE_ID,
      userId: SAMPLE_ID,
      durationSeconds: 3000,
      status: "present",
      source: "provider",
      lessonId: SAMPLE_ID,
    },
  }),
};
