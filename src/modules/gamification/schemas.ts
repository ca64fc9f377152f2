import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";
import { Award } from "./badge-schemas.js";
import {
  AWARD_EXAMPLE,
  BADGE_EXAMPLE,
  CREATE_BADGE_EXAMPLE,
  LEDGER_EXAMPLE,
  SETTINGS_EXAMPLE,
  SETTINGS_PATCH_EXAMPLE,
  STANDING_EXAMPLE,
  SUMMARY_EXAMPLE,
} from "./examples.js";

export * from "./badge-schemas.js";

export const SCOPES = ["institution", "course", "class_group"] as const;
export type StandingScope = (typeof SCOPES)[number];
export const PERIODS = ["all_time", "month", "week"] as const;
export type Period = (typeof PERIODS)[number];
export const LEDGER_REASONS = ["rule", "manual", "adjustment"] as const;

export const EventName = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    "A platform event type (RESOURCES §5), e.g. `lesson_completed`; the gamification events are refused.",
});

export const PointRule = Type.Object(
  {
    event: EventName,
    points: Type.Integer({ minimum: -1000, maximum: 1000 }),
    multiplyByScore: Type.Boolean({
      default: false,
      description:
        "Points × the event's percent / 100 (rounded): `percent` (quizzes, grades, assignments) or " +
        "`scorePercent` (lessons). An event without a score earns nothing from a multiplied rule.",
    }),
    cooldownSeconds: Type.Integer({
      minimum: 0,
      maximum: 31_536_000,
      default: 0,
      description: "After an award by this rule, the same user earns nothing from it for this long.",
    }),
    dailyCap: Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()], {
      default: null,
      description:
        "Most points one user earns from this rule per calendar day in the institution's time zone; an award " +
        "that would pass it is cut down to what is left.",
    }),
  },
  { additionalProperties: false },
);

/** A rule as given: the keys with defaults may be left out. */
const PointRuleInput = Type.Object(
  {
    event: PointRule.properties.event,
    points: PointRule.properties.points,
    multiplyByScore: Type.Optional(PointRule.properties.multiplyByScore),
    cooldownSeconds: Type.Optional(PointRule.properties.cooldownSeconds),
    dailyCap: Type.Optional(PointRule.properties.dailyCap),
  },
  { additionalProperties: false },
);

export const Level = Type.Object(
  {
    level: Type.Integer({ minimum: 1, maximum: 1000 }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    minPoints: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
  },
  { additionalProperties: false },
);

export const LeaderboardSettings = Type.Object(
  {
    enabled: Type.Boolean({ description: "Whether students may read leaderboards (staff always may)." }),
    scope: StringEnum(SCOPES, { description: "The default scope of `GET /gamification/leaderboard`." }),
    period: StringEnum(PERIODS, { description: "The default period." }),
    anonymize: Type.Boolean({
      description:
        "Privacy: a student reading a leaderboard sees other learners as `Learner #<rank>` with `userId` null; " +
        "only the student's own row keeps its name and id. Staff always see names.",
    }),
  },
  { additionalProperties: false },
);

export const Settings = Type.Object(
  {
    enabled: Type.Boolean({ description: "Whether point rules and badge rules fire on events." }),
    pointRules: Type.Array(PointRule, { maxItems: 50 }),
    levels: Type.Array(Level, { minItems: 1, maxItems: 100 }),
    leaderboard: LeaderboardSettings,
    updatedAt: Type.Union([IsoDateTime, Type.Null()]),
  },
  { additionalProperties: false, examples: [SETTINGS_EXAMPLE] },
);
export type SettingsRecord = Static<typeof Settings>;

export const SettingsPatch = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    pointRules: Type.Optional(
      Type.Array(PointRuleInput, {
        maxItems: 50,
        description: "At most one rule per event; replaces the list.",
      }),
    ),
    levels: Type.Optional(
      Type.Array(Level, {
        minItems: 1,
        maxItems: 100,
        description: "Levels and minPoints strictly increasing, the first at 0 points; replaces the list.",
      }),
    ),
    leaderboard: Type.Optional(Type.Partial(LeaderboardSettings, { additionalProperties: false })),
  },
  { additionalProperties: false, minProperties: 1, examples: [SETTINGS_PATCH_EXAMPLE] },
);
export type SettingsPatchInput = Static<typeof SettingsPatch>;

export const PointsBody = Type.Object(
  {
    userId: Uuid,
    points: Type.Integer({ minimum: -100_000, maximum: 100_000, description: "Not 0; negative deducts." }),
    note: Type.String({ minLength: 1, maxLength: 1000 }),
    courseId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  },
  {
    additionalProperties: false,
    examples: [{ userId: LEDGER_EXAMPLE.userId, points: 25, note: "Helped run the science fair." }],
  },
);

export const LedgerEntry = Type.Object(
  {
    id: Uuid,
    userId: Uuid,
    points: Type.Integer(),
    reason: StringEnum(LEDGER_REASONS),
    ruleEvent: Type.Union([Type.String(), Type.Null()]),
    eventId: Type.Union([Uuid, Type.Null()]),
    courseId: Type.Union([Uuid, Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()]),
    balanceAfter: Type.Integer(),
    createdAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [LEDGER_EXAMPLE] },
);
export type LedgerRecord = Static<typeof LedgerEntry>;
export const LedgerPage = PageOf(LedgerEntry);

export const LeaderboardQuery = Type.Object(
  {
    ...PageQuery,
    scope: Type.Optional(StringEnum(SCOPES)),
    period: Type.Optional(StringEnum(PERIODS)),
    courseId: Type.Optional(Uuid),
    classGroupId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

export const Standing = Type.Object(
  {
    rank: Type.Integer({ minimum: 1 }),
    userId: Type.Union([Uuid, Type.Null()]),
    name: Type.String(),
    points: Type.Integer(),
    me: Type.Boolean({ description: "The caller's own row." }),
  },
  { additionalProperties: false, examples: [STANDING_EXAMPLE] },
);
export const LeaderboardPage = CappedPageOf(Standing);

export const UserSummary = Type.Object(
  {
    userId: Uuid,
    points: Type.Integer(),
    level: Type.Integer({ minimum: 1 }),
    levelName: Type.String(),
    rank: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description:
        "In the institution's leaderboard of the settings' period; null without points there, or past 10,000.",
    }),
    badges: Type.Array(Award, { description: "Awards held (not revoked), newest first, at most 100." }),
  },
  { additionalProperties: false, examples: [SUMMARY_EXAMPLE] },
);
