import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";

export const CONTEXT_TYPES = ["institution", "course", "class_group", "user"] as const;
export type ContextType = (typeof CONTEXT_TYPES)[number];
export const SOURCE_TYPES = ["manual", "live_class", "lesson_due", "enrollment_expiry"] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
export const MAX_WINDOW_DAYS = 366;

const Text = (max: number) => Type.String({ maxLength: max });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const TimeZone = Type.String({
  minLength: 1,
  maxLength: 64,
  description: "IANA time zone (recurrence runs on its wall clock); default: the institution's.",
});
const Recurrence = Type.String({
  minLength: 1,
  maxLength: 500,
  description:
    "RFC 5545 RRULE (e.g. `FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10`), without DTSTART, at most daily (no HOURLY, " +
    "MINUTELY, SECONDLY, BYHOUR, BYMINUTE, BYSECOND); it must occur at least once and end (COUNT or UNTIL) " +
    "within 366 occurrences and 50 years.",
});

export const CalendarEvent = Type.Object(
  {
    id: Uuid,
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    startsAt: IsoDateTime,
    endsAt: IsoDateTime,
    allDay: Type.Boolean(),
    timezone: Type.String(),
    locationName: Type.Union([Type.String(), Type.Null()]),
    locationAddress: Type.Union([Type.String(), Type.Null()]),
    url: Type.Union([Type.String(), Type.Null()]),
    contextType: StringEnum(CONTEXT_TYPES),
    contextId: Type.Union([Uuid, Type.Null()]),
    recurrence: Type.Union([Type.String(), Type.Null()]),
    status: StringEnum(["active", "canceled"] as const),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "5b0e8b9e-8c1a-4c5e-9d7f-1a2b3c4d5e6f",
        title: "Plantão de dúvidas",
        description: "Sala 12",
        startsAt: "2026-03-02T17:00:00.000Z",
        endsAt: "2026-03-02T18:00:00.000Z",
        allDay: false,
        timezone: "America/Sao_Paulo",
        locationName: "Sala 12",
        locationAddress: null,
        url: null,
        contextType: "course",
        contextId: "0f8d2c4e-6a1b-4d3c-9e5f-7a8b9c0d1e2f",
        recurrence: "FREQ=WEEKLY;BYDAY=MO;COUNT=12",
        status: "active",
        createdAt: "2026-02-20T10:00:00.000Z",
        updatedAt: "2026-02-20T10:00:00.000Z",
      },
    ],
  },
);
export type CalendarEventRecord = Static<typeof CalendarEvent>;

const eventFields = {
  title: Type.String({ minLength: 1, maxLength: 255, pattern: "\\S" }),
  description: Type.Optional(Nullable(Text(10_000))),
  startsAt: IsoDateTime,
  endsAt: Type.Optional(IsoDateTime),
  allDay: Type.Optional(Type.Boolean()),
  timezone: Type.Optional(TimeZone),
  locationName: Type.Optional(Nullable(Text(255))),
  locationAddress: Type.Optional(Nullable(Text(500))),
  url: Type.Optional(Nullable(Type.String({ maxLength: 2048, pattern: "^https?://" }))),
  contextType: StringEnum(CONTEXT_TYPES),
  contextId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  recurrence: Type.Optional(Type.Union([Recurrence, Type.Null()])),
};

export const CreateCalendarEventBody = Type.Object(eventFields, {
  additionalProperties: false,
  examples: [
    {
      title: "Plantão de dúvidas",
      startsAt: "2026-03-02T17:00:00.000Z",
      endsAt: "2026-03-02T18:00:00.000Z",
      contextType: "course",
      contextId: "0f8d2c4e-6a1b-4d3c-9e5f-7a8b9c0d1e2f",
      recurrence: "FREQ=WEEKLY;BYDAY=MO;COUNT=12",
    },
  ],
});
export type CreateCalendarEventInput = Static<typeof CreateCalendarEventBody>;

export const UpdateCalendarEventBody = Type.Object(
  {
    title: Type.Optional(eventFields.title),
    description: eventFields.description,
    startsAt: Type.Optional(IsoDateTime),
    endsAt: eventFields.endsAt,
    allDay: eventFields.allDay,
    timezone: eventFields.timezone,
    locationName: eventFields.locationName,
    locationAddress: eventFields.locationAddress,
    url: eventFields.url,
    contextType: Type.Optional(StringEnum(CONTEXT_TYPES)),
    contextId: eventFields.contextId,
    recurrence: eventFields.recurrence,
    status: Type.Optional(StringEnum(["active", "canceled"] as const)),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ title: "Plantão (sala 14)", status: "active" }],
  },
);
export type UpdateCalendarEventInput = Static<typeof UpdateCalendarEventBody>;

export const AgendaItem = Type.Object(
  {
    id: Type.String({ description: "Unique in the answer: `<sourceType>:<sourceId>[:<occurrence start>]`." }),
    sourceType: StringEnum(SOURCE_TYPES),
    sourceId: Uuid,
    occurrenceId: Type.Union([Uuid, Type.Null()], { description: "A live class occurrence's id." }),
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    startsAt: IsoDateTime,
    endsAt: IsoDateTime,
    allDay: Type.Boolean(),
    timezone: Type.String(),
    contextType: StringEnum(CONTEXT_TYPES),
    contextId: Type.Union([Uuid, Type.Null()]),
    url: Type.Union([Type.String(), Type.Null()]),
    locationName: Type.Union([Type.String(), Type.Null()]),
    status: StringEnum(["active", "canceled"] as const),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "lesson_due:9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
        sourceType: "lesson_due",
        sourceId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
        occurrenceId: null,
        title: "Entrega: Lista 3",
        description: "Álgebra Linear",
        startsAt: "2026-03-10T02:59:00.000Z",
        endsAt: "2026-03-10T02:59:00.000Z",
        allDay: false,
        timezone: "America/Sao_Paulo",
        contextType: "course",
        contextId: "0f8d2c4e-6a1b-4d3c-9e5f-7a8b9c0d1e2f",
        url: null,
        locationName: null,
        status: "active",
      },
    ],
  },
);
export type AgendaItemRecord = Static<typeof AgendaItem>;

const BOUND_TEXT =
  "A date (`2026-03-01`, midnight in the institution's time zone) or an ISO 8601 date-time with offset.";
const Bound = Type.String({ maxLength: 40, description: BOUND_TEXT });

export const AgendaQuery = Type.Object(
  {
    ...PageQuery,
    from: Bound,
    to: Type.String({
      maxLength: 40,
      description: `${BOUND_TEXT} Exclusive; at most 366 days after \`from\`.`,
    }),
    userId: Type.Optional(Uuid),
    contextType: Type.Optional(StringEnum(CONTEXT_TYPES)),
    contextId: Type.Optional(Uuid),
    sourceType: Type.Optional(StringEnum(SOURCE_TYPES)),
  },
  { additionalProperties: false },
);
export type AgendaQueryType = Static<typeof AgendaQuery>;

export const AgendaPage = PageOf(AgendaItem);

export const FeedStatus = Type.Object(
  { active: Type.Boolean(), createdAt: Type.Union([IsoDateTime, Type.Null()]) },
  { additionalProperties: false, examples: [{ active: true, createdAt: "2026-03-01T12:00:00.000Z" }] },
);

export const CreatedFeed = Type.Object(
  {
    url: Type.String({ description: "The secret feed URL; shown once. Anyone holding it reads the agenda." }),
    createdAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: "https://acme.example.com/api/calendar/feeds/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.ics",
        createdAt: "2026-03-01T12:00:00.000Z",
      },
    ],
  },
);

export const FeedParams = Type.Object({ token: Type.String({ maxLength: 128 }) });
