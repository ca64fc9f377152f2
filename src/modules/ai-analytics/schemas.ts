import { type Static, Type } from "typebox";
import { StringEnum, Uuid } from "../../platform/http/schemas.js";

export const GROUP_BYS = ["day", "week", "month", "feature", "model", "course", "user"] as const;
export type GroupBy = (typeof GROUP_BYS)[number];
/** The longest window one request may aggregate, in days (both ends included). */
export const MAX_SPAN_DAYS = 366;
/** Buckets one answer carries at most: a grouping by user or course keeps the largest by credits. */
export const MAX_BUCKETS = 1_000;

const Day = Type.String({ format: "date", description: "A date in the institution's time zone." });

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
