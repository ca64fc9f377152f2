import { Type } from "typebox";
import { StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID } from "../events/define.js";

/** Events the gamification rules never react to: an award cannot earn another by its own event. */
export const GAMIFICATION_EVENTS = ["points_awarded", "level_up", "badge_awarded", "badge_revoked"] as const;

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const Points = {
  userId: Uuid,
  entryId: Uuid,
  points: Type.Integer(),
  balance: Type.Integer({ description: "The user's balance after these points." }),
  reason: StringEnum(["rule", "manual", "adjustment"] as const),
  ruleEvent: Nullable(Type.String()),
  sourceEventId: Nullable(Type.String({ format: "uuid" })),
  courseId: Nullable(Type.String({ format: "uuid" })),
};

const BadgeAbout = {
  awardId: Uuid,
  badgeId: Uuid,
  badgeName: Type.String(),
  userId: Uuid,
  awardedBy: StringEnum(["rule", "user", "automation", "api"] as const),
  credentialPath: Type.String({ description: "The public credential's path on the institution's host." }),
};

const BADGE_SAMPLE = {
  awardId: SAMPLE_ID,
  badgeId: SAMPLE_ID,
  badgeName: "Primeiros passos",
  userId: SAMPLE_ID,
  awardedBy: "rule" as const,
  credentialPath: `/api/gamification/credentials/${SAMPLE_ID}`,
};

export const gamificationEvents = {
  points_awarded: defineEvent({
    schemaVersion: 1,
    description:
      "Points were added to (or deducted from) a user's balance: by a point rule, in the transaction of the " +
      "event that earned them, or by hand.",
    payload: Type.Object(Points),
    sample: {
      userId: SAMPLE_ID,
      entryId: SAMPLE_ID,
      points: 10,
      balance: 120,
      reason: "rule",
      ruleEvent: "lesson_completed",
      sourceEventId: SAMPLE_ID,
      courseId: SAMPLE_ID,
    },
  }),
  level_up: defineEvent({
    schemaVersion: 1,
    description: "A user's balance reached a higher level.",
    payload: Type.Object({
      userId: Uuid,
      level: Type.Integer(),
      levelName: Type.String(),
      previousLevel: Type.Integer(),
      balance: Type.Integer(),
    }),
    sample: { userId: SAMPLE_ID, level: 2, levelName: "Explorer", previousLevel: 1, balance: 120 },
  }),
  badge_awarded: defineEvent({
    schemaVersion: 1,
    description:
      "A badge was awarded: by its rule (in the transaction of the event that earned it) or by hand.",
    payload: Type.Object(BadgeAbout),
    sample: BADGE_SAMPLE,
  }),
  badge_revoked: defineEvent({
    schemaVersion: 1,
    description: "A badge award was revoked; its credential's status says so from then on.",
    payload: Type.Object({ ...BadgeAbout, reason: Type.String() }),
    sample: { ...BADGE_SAMPLE, awardedBy: "user", reason: "Awarded by mistake." },
  }),
};
