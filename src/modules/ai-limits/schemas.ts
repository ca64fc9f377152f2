import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { PERIODS } from "./window.js";

export const UNITS = ["credits", "tokens", "requests"] as const;
export type Unit = (typeof UNITS)[number];
export const SUBJECT_TYPES = ["user", "class_group", "course", "role"] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];
const Limit = Type.Integer({ minimum: 0, maximum: 2_000_000_000, description: "0 blocks every call." });

export const Policy = Type.Object(
  {
    enabled: Type.Boolean(),
    unit: StringEnum(UNITS, { description: "`credits`: one per 1,000 tokens (rounded up, per call)." }),
    period: StringEnum(PERIODS),
    perUserLimit: Type.Union([Limit, Type.Null()], { description: "null: no per-user limit." }),
    institutionLimit: Type.Union([Limit, Type.Null()], {
      description: "Every call of the institution together.",
    }),
    onExhausted: StringEnum(["block", "notify_only"] as const),
    resetTimezone: Type.String({
      description: "The institution's time zone (settings), where windows start.",
    }),
    updatedAt: Type.Union([IsoDateTime, Type.Null()]),
  },
  {
    additionalProperties: false,
    examples: [
      {
        enabled: true,
        unit: "credits",
        period: "month",
        perUserLimit: 100,
        institutionLimit: null,
        onExhausted: "block",
        resetTimezone: "America/Sao_Paulo",
        updatedAt: "2026-11-27T12:00:00.000Z",
      },
    ],
  },
);
export type PolicyRecord = Static<typeof Policy>;

export const PutPolicyBody = Type.Object(
  {
    enabled: Type.Boolean(),
    unit: Type.Optional(StringEnum(UNITS)),
    period: Type.Optional(StringEnum(PERIODS)),
    perUserLimit: Type.Optional(Type.Union([Limit, Type.Null()])),
    institutionLimit: Type.Optional(Type.Union([Limit, Type.Null()])),
    onExhausted: Type.Optional(StringEnum(["block", "notify_only"] as const)),
  },
  {
    additionalProperties: false,
    examples: [{ enabled: true, unit: "credits", period: "month", perUserLimit: 100 }],
  },
);
export type PutPolicyInput = Static<typeof PutPolicyBody>;

export const Override = Type.Object(
  {
    subjectType: StringEnum(SUBJECT_TYPES),
    subjectId: Type.String(),
    limit: Limit,
    expiresAt: Type.Union([IsoDateTime, Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()]),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        subjectType: "role",
        subjectId: "teacher",
        limit: 500,
        expiresAt: null,
        reason: "Staff",
        createdAt: "2026-11-27T12:00:00.000Z",
        updatedAt: "2026-11-27T12:00:00.000Z",
      },
    ],
  },
);
export type OverrideRecord = Static<typeof Override>;
export const OverridePage = CappedPageOf(Override);
export const ListOverridesQuery = Type.Object(
  { ...PageQuery, subjectType: Type.Optional(StringEnum(SUBJECT_TYPES)) },
  { additionalProperties: false },
);

/** Plain strings: a path naming no subject type is a resource that does not exist (404), like an unknown id. */
export const OverrideParams = Type.Object({
  subjectType: Type.String({ maxLength: 64, description: "`user`, `class_group`, `course` or `role`." }),
  subjectId: Type.String({ maxLength: 64, description: "A user, class group or course id, or a role name." }),
});
export const PutOverrideBody = Type.Object(
  {
    limit: Limit,
    expiresAt: Type.Optional(Type.Union([IsoDateTime, Type.Null()])),
    reason: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  },
  { additionalProperties: false, examples: [{ limit: 500, reason: "Monitor" }] },
);
export type PutOverrideInput = Static<typeof PutOverrideBody>;

export const Usage = Type.Object(
  {
    subjectType: StringEnum(["user", "institution"] as const),
    subjectId: Uuid,
    used: Type.Integer(),
    limit: Type.Union([Type.Integer(), Type.Null()], { description: "The limit that applies; null: none." }),
    remaining: Type.Union([Type.Integer(), Type.Null()]),
    limitSource: Type.Union([
      StringEnum(["user", "class_group", "course", "role", "institution"] as const),
      Type.Null(),
    ]),
    periodStart: IsoDateTime,
    resetsAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        subjectType: "user",
        subjectId: "3f1c2a4e-8b9d-4c1e-9f0a-1b2c3d4e5f60",
        used: 12,
        limit: 100,
        remaining: 88,
        limitSource: "institution",
        periodStart: "2026-11-01T03:00:00.000Z",
        resetsAt: "2026-12-01T03:00:00.000Z",
      },
    ],
  },
);
export type UsageRecord = Static<typeof Usage>;
export const UsageQuery = Type.Object(
  { userId: Type.Optional(Uuid), courseId: Type.Optional(Uuid) },
  { additionalProperties: false },
);
export const UserParams = Type.Object({ userId: Type.String({ maxLength: 64 }) });
