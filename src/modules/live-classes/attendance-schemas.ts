/** Attendance at a live class's occurrences: a record as read, the page of them, and a teacher's manual entry. */
import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";
import { EXAMPLE_USER } from "./schema-examples.js";

export const ATTENDANCE_STATUSES = ["present", "late", "absent", "excused"] as const;

export const Attendance = Type.Object(
  {
    occurrenceId: Uuid,
    userId: Uuid,
    joinedAt: Type.Union([IsoDateTime, Type.Null()]),
    leftAt: Type.Union([IsoDateTime, Type.Null()]),
    durationSeconds: Type.Integer({ minimum: 0 }),
    status: StringEnum(ATTENDANCE_STATUSES),
    source: StringEnum(["provider", "manual"] as const),
    attended: Type.Boolean({
      description: "Reached the class's threshold (`live_class_attended` was emitted).",
    }),
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        occurrenceId: "7d1e3f5a-9b2c-4d6e-8f0a-1b3c5d7e9f2a",
        userId: EXAMPLE_USER,
        joinedAt: "2026-03-03T22:02:00.000Z",
        leftAt: "2026-03-03T22:58:00.000Z",
        durationSeconds: 3360,
        status: "present",
        source: "provider",
        attended: true,
        updatedAt: "2026-03-03T23:10:00.000Z",
      },
    ],
  },
);
export type AttendanceRecord = Static<typeof Attendance>;
export const AttendancePage = PageOf(Attendance);
export const ListAttendanceQuery = Type.Object(
  { ...PageQuery, occurrenceId: Type.Optional(Uuid) },
  { additionalProperties: false },
);

export const PutAttendanceBody = Type.Object(
  {
    occurrenceId: Uuid,
    records: Type.Array(
      Type.Object(
        {
          userId: Uuid,
          status: StringEnum(ATTENDANCE_STATUSES),
          durationSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
          joinedAt: Type.Optional(Type.Union([Type.String({ format: "date-time" }), Type.Null()])),
          leftAt: Type.Optional(Type.Union([Type.String({ format: "date-time" }), Type.Null()])),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        occurrenceId: "7d1e3f5a-9b2c-4d6e-8f0a-1b3c5d7e9f2a",
        records: [{ userId: EXAMPLE_USER, status: "present", durationSeconds: 3000 }],
      },
    ],
  },
);
export type PutAttendanceInput = Static<typeof PutAttendanceBody>;

export const AttendanceResult = Type.Object(
  {
    recorded: Type.Integer({ minimum: 0 }),
    attended: Type.Integer({ minimum: 0, description: "Newly past the threshold (events emitted)." }),
    unmatched: Type.Array(Type.String(), {
      description: "Provider participants matching no user (e-mails).",
    }),
  },
  { additionalProperties: false, examples: [{ recorded: 12, attended: 10, unmatched: [] }] },
);
