import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const GROUP_BYS = ["day", "week", "month", "feature", "model", "course", "user"] as const;
export type GroupBy = (typeof GROUP_BYS)[number];
/** The longest window one request may aggregate, in days (both ends included). */
export const MAX_SPAN_DAYS = 366;
/** Buckets one answer carries at most: a grouping by user or course keeps the largest by credits. */
export const MAX_BUCKETS = 1_000;

export const Day = Type.String({ format: "date", description: "A date in the institution's time zone." });

export const UsageQuery = Type.Object(
  {
    from: Type.Optional(Day),
    to: Type.Optional(Day),
    groupBy: Type.Optional(StringEnum(GROUP_BYS, { default: "day" })),
    feature: Type.Optional(Type.String({ pattern: "^[a-z_]{1,40}$" })),
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    courseId: Type.Optional(Uuid),
    userId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type UsageQueryInput = Static<typeof UsageQuery>;

const Count = Type.Integer({ minimum: 0 });

export const UsageBucket = Type.Object(
  {
    periodStart: Type.String({ format: "date" }),
    periodEnd: Type.String({ format: "date", description: "Included; buckets are clipped to `from`–`to`." }),
    feature: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
    courseId: Type.Optional(
      Type.Union([Uuid, Type.Null()], { description: "null: calls outside a course." }),
    ),
    userId: Type.Optional(
      Type.Union([Uuid, Type.Null()], { description: "null: calls of no user (an API key)." }),
    ),
    requests: Count,
    inputTokens: Count,
    outputTokens: Count,
    credits: Count,
    activeUsers: Type.Integer({
      minimum: 0,
      description: "Distinct users with at least one call in the bucket.",
    }),
  },
  { additionalProperties: false },
);
export type UsageBucketRecord = Static<typeof UsageBucket>;

export const UsageReport = Type.Object(
  {
    from: Type.String({ format: "date" }),
    to: Type.String({ format: "date" }),
    timezone: Type.String({ description: "The institution's time zone, in which days are counted." }),
    groupBy: StringEnum(GROUP_BYS),
    buckets: Type.Array(UsageBucket),
    truncated: Type.Boolean({
      description: `More than ${MAX_BUCKETS} buckets: the largest by credits are kept.`,
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        from: "2026-11-01",
        to: "2026-11-30",
        timezone: "America/Sao_Paulo",
        groupBy: "week",
        buckets: [
          {
            periodStart: "2026-11-01",
            periodEnd: "2026-11-01",
            requests: 12,
            inputTokens: 5400,
            outputTokens: 2100,
            credits: 12,
            activeUsers: 4,
          },
        ],
        truncated: false,
      },
    ],
  },
);
export type UsageReportRecord = Static<typeof UsageReport>;

/** A conversation keeps at most this many messages (a run adds two); a run beyond it is 409 `conflict`. */
export const MAX_MESSAGES = 200;
/** Characters of one stored message at most: the rest of a longer prompt or answer is not kept. */
export const MAX_MESSAGE_CHARS = 20_000;

export const Conversation = Type.Object(
  {
    id: Uuid,
    userId: Type.Union([Uuid, Type.Null()], { description: "null: runs through an API key." }),
    courseId: Type.Union([Uuid, Type.Null()]),
    lessonId: Type.Union([Uuid, Type.Null()]),
    feature: Type.String(),
    startedAt: IsoDateTime,
    lastMessageAt: IsoDateTime,
    messageCount: Count,
    credits: Count,
    rating: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()]),
    flagged: Type.Boolean(),
    topics: Type.Array(Type.String()),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "7b0f3c1e-2d4a-4b8c-9e1f-0a1b2c3d4e5f",
        userId: "3f1c2a4e-8b9d-4c1e-9f0a-1b2c3d4e5f60",
        courseId: null,
        lessonId: null,
        feature: "tutor_chat",
        startedAt: "2026-11-27T12:00:00.000Z",
        lastMessageAt: "2026-11-27T12:05:00.000Z",
        messageCount: 4,
        credits: 2,
        rating: null,
        flagged: false,
        topics: [],
      },
    ],
  },
);
export type ConversationRecord = Static<typeof Conversation>;

export const Message = Type.Object(
  {
    seq: Type.Integer({ minimum: 1 }),
    role: StringEnum(["user", "assistant"] as const),
    content: Type.String(),
    createdAt: IsoDateTime,
  },
  { additionalProperties: false },
);
export type MessageRecord = Static<typeof Message>;

export const ConversationDetail = Type.Object(
  {
    ...Conversation.properties,
    messages: Type.Optional(
      Type.Array(Message, { description: "With `include=messages` and an administrator's session only." }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        ...((Conversation as { examples?: Record<string, unknown>[] }).examples?.[0] ?? {}),
        messageCount: 2,
        messages: [
          { seq: 1, role: "user", content: "O que é um grupo?", createdAt: "2026-11-27T12:00:00.000Z" },
          { seq: 2, role: "assistant", content: "Um grupo é…", createdAt: "2026-11-27T12:00:01.000Z" },
        ],
      },
    ],
  },
);

export const ConversationQuery = Type.Object(
  {
    include: Type.Optional(StringEnum(["messages"] as const)),
  },
  { additionalProperties: false },
);

export const ListConversationsQuery = Type.Object(
  {
    ...PageQuery,
    userId: Type.Optional(Uuid),
    courseId: Type.Optional(Uuid),
    feature: Type.Optional(Type.String({ pattern: "^[a-z_]{1,40}$" })),
    flagged: Type.Optional(Type.Boolean()),
    from: Type.Optional(IsoDateTime),
    to: Type.Optional(IsoDateTime),
  },
  { additionalProperties: false },
);
export type ListConversationsInput = Static<typeof ListConversationsQuery>;
export const ConversationPage = CappedPageOf(Conversation);
