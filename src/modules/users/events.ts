import { Type } from "typebox";
import { ROLES } from "../../platform/auth/types.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, exampleOf, SAMPLE_TIME } from "../events/define.js";
import { USER_STATUSES, User } from "./schemas.js";

const SAMPLE_USER = exampleOf(User);
const UserObject = (when: string) =>
  Type.Object(User.properties, { description: `The user as \`GET /users/:id\` answers it, ${when}.` });

export const userEvents = {
  user_created: defineEvent({
    schemaVersion: 1,
    description: "A user was created.",
    payload: Type.Object({
      userId: Uuid,
      role: StringEnum(ROLES),
      status: StringEnum(USER_STATUSES),
      user: UserObject("just after creation (class groups joined in the same request included)"),
    }),
    sample: { userId: SAMPLE_USER.id, role: SAMPLE_USER.role, status: SAMPLE_USER.status, user: SAMPLE_USER },
  }),
  user_inactive: defineEvent({
    schemaVersion: 1,
    description:
      "A user had no activity for the number of days an automation's condition asks for (else the institution's " +
      "inactivity.userInactiveDays).",
    payload: Type.Object({
      userId: Uuid,
      lastActivityAt: Type.Union([IsoDateTime, Type.Null()]),
      inactiveDays: Type.Integer({ minimum: 0 }),
      thresholdDays: Type.Integer({ minimum: 1 }),
      basis: StringEnum(["access", "activity"] as const, {
        description: "What counted as activity (the institution's `inactivity.basis`).",
      }),
    }),
    sample: {
      userId: SAMPLE_USER.id,
      lastActivityAt: SAMPLE_TIME,
      inactiveDays: 30,
      thresholdDays: 30,
      basis: "access",
    },
  }),
  user_updated: defineEvent({
    schemaVersion: 1,
    description: "A user's profile, role or status changed.",
    payload: Type.Object({
      userId: Uuid,
      changedFields: Type.Array(Type.String(), { description: "The fields of the user that changed." }),
      user: UserObject("after the change"),
    }),
    sample: { userId: SAMPLE_USER.id, changedFields: ["name"], user: SAMPLE_USER },
  }),
  user_deactivated: defineEvent({
    schemaVersion: 1,
    description: "A user was suspended or deleted.",
    payload: Type.Object({
      userId: Uuid,
      reason: StringEnum(["suspended", "deleted"] as const),
      user: UserObject("when suspended, or just before deletion"),
    }),
    sample: {
      userId: SAMPLE_USER.id,
      reason: "suspended",
      user: { ...SAMPLE_USER, status: "suspended" },
    },
  }),
};
