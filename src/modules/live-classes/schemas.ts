import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";
import { EXAMPLE_COURSE, EXAMPLE_ID, EXAMPLE_USER } from "./schema-examples.js";

export const CLASS_STATUSES = ["scheduled", "live", "ended", "canceled"] as const;

const Ids = (description: string) => Type.Array(Uuid, { maxItems: 500, uniqueItems: true, description });

export const Occurrence = Type.Object(
  {
    id: Uuid,
    liveClassId: Uuid,
    startsAt: IsoDateTime,
    endsAt: IsoDateTime,
    status: StringEnum(CLASS_STATUSES),
    startedAt: Type.Union([IsoDateTime, Type.Null()]),
    endedAt: Type.Union([IsoDateTime, Type.Null()]),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "7d1e3f5a-9b2c-4d6e-8f0a-1b3c5d7e9f2a",
        liveClassId: EXAMPLE_ID,
        startsAt: "2026-03-03T22:00:00.000Z",
        endsAt: "2026-03-03T23:00:00.000Z",
        status: "scheduled",
        startedAt: null,
        endedAt: null,
      },
    ],
  },
);
export type OccurrenceRecord = Static<typeof Occurrence>;

export const LiveClass = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    courseId: Type.Union([Uuid, Type.Null()]),
    lessonId: Type.Union([Uuid, Type.Null()]),
    classGroupId: Type.Union([Uuid, Type.Null()]),
    hostUserId: Uuid,
    coHostIds: Type.Array(Uuid),
    inviteeIds: Type.Array(Uuid),
    startsAt: IsoDateTime,
    durationMinutes: Type.Integer(),
    timezone: Type.String(),
    recurrence: Type.Union([Type.String(), Type.Null()]),
    videoProviderId: Type.Union([Uuid, Type.Null()], { description: "Null: the built-in public Jitsi." }),
    provider: Type.String({ description: "`jitsi`, `bigbluebutton` or `zoom`." }),
    status: StringEnum(CLASS_STATUSES),
    recordingEnabled: Type.Boolean(),
    attendanceThresholdMinutes: Type.Union([Type.Integer(), Type.Null()]),
    occurrenceCount: Type.Integer({ minimum: 0 }),
    nextOccurrence: Type.Union([Occurrence, Type.Null()], {
      description: "The first occurrence that has not ended and is not canceled.",
    }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: EXAMPLE_ID,
        title: "Revisão para a prova",
        description: null,
        courseId: EXAMPLE_COURSE,
        lessonId: null,
        classGroupId: null,
        hostUserId: EXAMPLE_USER,
        coHostIds: [],
        inviteeIds: [],
        startsAt: "2026-03-03T22:00:00.000Z",
        durationMinutes: 60,
        timezone: "America/Sao_Paulo",
        recurrence: "FREQ=WEEKLY;BYDAY=TU;COUNT=8",
        videoProviderId: null,
        provider: "jitsi",
        status: "scheduled",
        recordingEnabled: false,
        attendanceThresholdMinutes: 45,
        occurrenceCount: 8,
        nextOccurrence: null,
        createdAt: "2026-02-20T10:00:00.000Z",
        updatedAt: "2026-02-20T10:00:00.000Z",
      },
    ],
  },
);
export type LiveClassRecord = Static<typeof LiveClass>;

const Title = Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" });
/** The longest a class may last; the agenda relies on it to bound its window on the start alone. */
export const MAX_DURATION_MINUTES = 720;
const Duration = Type.Integer({
  minimum: 5,
  maximum: MAX_DURATION_MINUTES,
  description: `Minutes, 5 to ${MAX_DURATION_MINUTES}.`,
});
const Threshold = Type.Union([Type.Integer({ minimum: 1, maximum: 720 }), Type.Null()], {
  description: "Minutes present that count as attended (and complete `lessonId`); null: never automatic.",
});
const Recurrence = Type.Union(
  [
    Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        "RFC 5545 RRULE without DTSTART, at most daily (no HOURLY, MINUTELY, SECONDLY, BYHOUR, BYMINUTE, " +
        "BYSECOND), occurring at least once and ending (COUNT or UNTIL) within 366 occurrences and 50 years.",
    }),
    Type.Null(),
  ],
  {},
);

export const CreateLiveClassBody = Type.Object(
  {
    title: Title,
    description: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
    courseId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    lessonId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    classGroupId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    hostUserId: Type.Optional(
      Type.String({
        format: "uuid",
        description: "A teacher or administrator; default: the signed-in user.",
      }),
    ),
    coHostIds: Type.Optional(Ids("Teachers or administrators who also host.")),
    inviteeIds: Type.Optional(Ids("Users invited besides the course's and class's members.")),
    startsAt: Type.String({ format: "date-time", description: "In the future." }),
    durationMinutes: Duration,
    timezone: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "Default: the institution's." }),
    ),
    recurrence: Type.Optional(Recurrence),
    videoProviderId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    recordingEnabled: Type.Optional(Type.Boolean()),
    attendanceThresholdMinutes: Type.Optional(Threshold),
  },
  {
    additionalProperties: false,
    examples: [
      {
        title: "Revisão para a prova",
        courseId: EXAMPLE_COURSE,
        startsAt: "2026-03-03T22:00:00.000Z",
        durationMinutes: 60,
        recurrence: "FREQ=WEEKLY;BYDAY=TU;COUNT=8",
        attendanceThresholdMinutes: 45,
      },
    ],
  },
);
export type CreateLiveClassInput = Static<typeof CreateLiveClassBody>;

export const UpdateLiveClassBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
    coHostIds: Type.Optional(Ids("Replaces the co-hosts.")),
    inviteeIds: Type.Optional(Ids("Replaces the invitees.")),
    startsAt: Type.Optional(Type.String({ format: "date-time" })),
    durationMinutes: Type.Optional(Duration),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    recurrence: Type.Optional(Recurrence),
    recordingEnabled: Type.Optional(Type.Boolean()),
    attendanceThresholdMinutes: Type.Optional(Threshold),
    status: Type.Optional(
      StringEnum(["canceled"] as const, { description: "Cancels the class (as DELETE)." }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ title: "Revisão (sala nova)", durationMinutes: 90 }],
  },
);
export type UpdateLiveClassInput = Static<typeof UpdateLiveClassBody>;

export const ListLiveClassesQuery = Type.Object(
  {
    ...PageQuery,
    from: Type.Optional(
      Type.String({ format: "date-time", description: "Classes with an occurrence ending after." }),
    ),
    to: Type.Optional(
      Type.String({ format: "date-time", description: "Classes with an occurrence starting before." }),
    ),
    courseId: Type.Optional(Uuid),
    classGroupId: Type.Optional(Uuid),
    hostUserId: Type.Optional(Uuid),
    status: Type.Optional(StringEnum(CLASS_STATUSES)),
    sort: Type.Optional(
      StringEnum(["startsAt", "-startsAt", "createdAt", "-createdAt"] as const, { default: "startsAt" }),
    ),
  },
  { additionalProperties: false },
);
export type ListLiveClassesQueryType = Static<typeof ListLiveClassesQuery>;
export const LiveClassPage = CappedPageOf(LiveClass);

export const OccurrenceParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  occurrenceId: Type.String({ maxLength: 64 }),
});
export const OccurrencePage = PageOf(Occurrence);
export const ListOccurrencesQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(StringEnum(CLASS_STATUSES)) },
  { additionalProperties: false },
);

export const JoinLinkBody = Type.Object(
  {
    userId: Type.Optional(Uuid),
    occurrenceId: Type.Optional(Uuid),
  },
  { additionalProperties: false, examples: [{ userId: EXAMPLE_USER }] },
);
export type JoinLinkInput = Static<typeof JoinLinkBody>;

export const JoinLink = Type.Object(
  {
    url: Type.String(),
    occurrenceId: Uuid,
    userId: Uuid,
    role: StringEnum(["host", "attendee"] as const),
    provider: Type.String(),
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: "https://meet.jit.si/aula-6b1f0c9e2d4a-7d1e3f5a#userInfo.displayName=%22Ana%22",
        occurrenceId: "7d1e3f5a-9b2c-4d6e-8f0a-1b3c5d7e9f2a",
        userId: EXAMPLE_USER,
        role: "attendee",
        provider: "jitsi",
      },
    ],
  },
);

export * from "./attendance-schemas.js";
