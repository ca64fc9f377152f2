import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";
import { AWARD_EXAMPLE, BADGE_EXAMPLE, CREATE_BADGE_EXAMPLE } from "./examples.js";

/** Badges (Open Badges achievements) and their awards. */
export const AWARDED_BY = ["rule", "user", "automation", "api"] as const;
export const AWARD_RULE_TYPES = ["manual", "event", "points_threshold", "course_completion"] as const;
export const BADGE_STATUSES = ["active", "archived"] as const;

const EventName = Type.String({
  minLength: 1,
  maxLength: 64,
  description: "A platform event type (RESOURCES §5).",
});

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
  { additionalProperties: false, examples: [BADGE_EXAMPLE] },
);
export type BadgeRecord = Static<typeof Badge>;
export const BadgePage = PageOf(Badge);

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
  { additionalProperties: false, examples: [CREATE_BADGE_EXAMPLE] },
);
export type CreateBadgeInput = Static<typeof CreateBadgeBody>;
export const PatchBadgeBody = Type.Partial(CreateBadgeBody, {
  additionalProperties: false,
  minProperties: 1,
  examples: [{ name: "Primeiros passos", status: "archived" }],
});
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
  { additionalProperties: false, examples: [AWARD_EXAMPLE] },
);
export type AwardRecord = Static<typeof Award>;

export const AwardBody = Type.Object(
  {
    userIds: Type.Array(Uuid, { minItems: 1, maxItems: 500, uniqueItems: true }),
    evidence: Type.Optional(Type.Array(Evidence, { maxItems: 10 })),
  },
  {
    additionalProperties: false,
    examples: [{ userIds: [AWARD_EXAMPLE.userId], evidence: AWARD_EXAMPLE.evidence }],
  },
);
export const AwardResult = Type.Object(
  {
    awarded: Type.Array(Award),
    alreadyHeld: Type.Array(Uuid, {
      description: "Users who hold the badge already (not revoked): unchanged.",
    }),
  },
  { additionalProperties: false, examples: [{ awarded: [AWARD_EXAMPLE], alreadyHeld: [] }] },
);

export const RevokeBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false, examples: [{ reason: "Awarded to the wrong student." }] },
);
