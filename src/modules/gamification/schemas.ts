import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";

export const SCOPES = ["institution", "course", "class_group"] as const;
export type StandingScope = (typeof SCOPES)[number];
export const PERIODS = ["all_time", "month", "week"] as const;
export type Period = (typeof PERIODS)[number];
export const LEDGER_REASONS = ["rule", "manual", "adjustment"] as const;
export const AWARDED_BY = ["rule", "user", "automation", "api"] as const;
export const AWARD_RULE_TYPES = ["manual", "event", "points_threshold", "course_completion"] as const;
export const BADGE_STATUSES = ["active", "archived"] as const;

const EventName = Type.String({
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
  { additionalProperties: false },
);
export type SettingsRecord = Static<typeof Settings>;

export const SettingsPatch = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    pointRules: Type.Optional(
      Type.Array(PointRule, { maxItems: 50, description: "At most one rule per event; replaces the list." }),
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
  { additionalProperties: false },
);
export type SettingsPatchInput = Static<typeof SettingsPatch>;

const Alignment = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    url: Type.String({ format: "uri", maxLength: 2000, pattern: "^https?://" }),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);

export const AwardRule = Type.Object(
  {
    type: StringEnum(AWARD_RULE_TYPES),
    event: Type.Optional(EventName),
    courseId: Type.Optional(Uuid),
    threshold: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
  },
  {
    additionalProperties: false,
    description:
      "`manual`: by hand only. `event`: the event's user earns it (`event` required). `course_completion`: " +
      "completing `courseId`. `points_threshold`: reaching `threshold` points.",
  },
);
export type AwardRuleInput = Static<typeof AwardRule>;

const BadgeFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.String({ minLength: 1, maxLength: 1000 }),
  imageMediaId: Type.String({
    format: "uuid",
    description: "A ready image file of the institution (media).",
  }),
  criteriaNarrative: Type.String({ minLength: 1, maxLength: 5000 }),
  criteriaUrl: Type.Union([
    Type.String({ format: "uri", maxLength: 2000, pattern: "^https?://" }),
    Type.Null(),
  ]),
  alignment: Type.Array(Alignment, { maxItems: 20 }),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20 }),
  awardRule: AwardRule,
  expiresAfterDays: Type.Union([Type.Integer({ minimum: 1, maximum: 36_500 }), Type.Null()]),
  status: StringEnum(BADGE_STATUSES),
};

export const Badge = Type.Object(
  {
    id: Uuid,
    ...BadgeFields,
    awardedCount: Type.Integer({ minimum: 0, description: "Awards not revoked." }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false },
);
export type BadgeRecord = Static<typeof Badge>;
export const BadgePage = CappedPageOf(Badge);

export const CreateBadgeBody = Type.Object(
  {
    name: BadgeFields.name,
    description: BadgeFields.description,
    imageMediaId: BadgeFields.imageMediaId,
    criteriaNarrative: BadgeFields.criteriaNarrative,
    criteriaUrl: Type.Optional(BadgeFields.criteriaUrl),
    alignment: Type.Optional(BadgeFields.alignment),
    tags: Type.Optional(BadgeFields.tags),
    awardRule: Type.Optional(AwardRule),
    expiresAfterDays: Type.Optional(BadgeFields.expiresAfterDays),
    status: Type.Optional(BadgeFields.status),
  },
  { additionalProperties: false },
);
export type CreateBadgeInput = Static<typeof CreateBadgeBody>;
export const PatchBadgeBody = Type.Partial(CreateBadgeBody, { additionalProperties: false });
export type PatchBadgeInput = Static<typeof PatchBadgeBody>;

export const ListBadgesQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(StringEnum(BADGE_STATUSES)) },
  { additionalProperties: false },
);

const Evidence = Type.Object(
  {
    url: Type.Optional(Type.String({ format: "uri", maxLength: 2000, pattern: "^https?://" })),
    narrative: Type.Optional(Type.String({ minLength: 1, maxLength: 5000 })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Award = Type.Object(
  {
    id: Uuid,
    badgeId: Uuid,
    userId: Uuid,
    issuedAt: IsoDateTime,
    expiresAt: Type.Union([IsoDateTime, Type.Null()]),
    evidence: Type.Array(Evidence),
    awardedBy: StringEnum(AWARDED_BY),
    revoked: Type.Boolean(),
    revocationReason: Type.Union([Type.String(), Type.Null()]),
    credentialUrl: Type.String({
      description:
        "Public: the Open Badges 3.0 credential (signed, eddsa-rdfc-2022), on the institution's host.",
    }),
    assertionUrl: Type.String({
      description: "Public: the same award as an Open Badges 2.0 hosted assertion.",
    }),
  },
  { additionalProperties: false },
);
export type AwardRecord = Static<typeof Award>;

export const AwardBody = Type.Object(
  {
    userIds: Type.Array(Uuid, { minItems: 1, maxItems: 500, uniqueItems: true }),
    evidence: Type.Optional(Type.Array(Evidence, { maxItems: 10 })),
  },
  { additionalProperties: false },
);
export const AwardResult = Type.Object(
  {
    awarded: Type.Array(Award),
    alreadyHeld: Type.Array(Uuid, {
      description: "Users who hold the badge already (not revoked): unchanged.",
    }),
  },
  { additionalProperties: false },
);

export const RevokeBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false },
);

export const PointsBody = Type.Object(
  {
    userId: Uuid,
    points: Type.Integer({ minimum: -100_000, maximum: 100_000, description: "Not 0; negative deducts." }),
    note: Type.String({ minLength: 1, maxLength: 1000 }),
    courseId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  },
  { additionalProperties: false },
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
  { additionalProperties: false },
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
  { additionalProperties: false },
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
  { additionalProperties: false },
);
