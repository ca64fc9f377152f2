import { Type } from "typebox";
import { ROLES } from "../../platform/auth/types.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, exampleOf } from "../events/define.js";
import { Invite } from "./schemas.js";

const SAMPLE_INVITE = exampleOf(Invite);

const InviteLifecycle = {
  inviteId: Uuid,
  email: Type.String(),
  role: StringEnum(ROLES),
  courseIds: Type.Array(Uuid),
  classGroupIds: Type.Array(Uuid),
  expiresAt: IsoDateTime,
  invite: Type.Object(Invite.properties, {
    description: "The invitation as `GET /invites/:id` answers it, after the change (never its token).",
  }),
};

const sample = (status: (typeof SAMPLE_INVITE)["status"]) => ({
  inviteId: SAMPLE_INVITE.id,
  email: SAMPLE_INVITE.email,
  role: SAMPLE_INVITE.role,
  courseIds: SAMPLE_INVITE.courseIds,
  classGroupIds: SAMPLE_INVITE.classGroupIds,
  expiresAt: SAMPLE_INVITE.expiresAt,
  invite: { ...SAMPLE_INVITE, status },
});

export const inviteEvents = {
  invite_expired: defineEvent({
    schemaVersion: 1,
    description: "A pending invitation reached its expiry unaccepted.",
    payload: Type.Object(InviteLifecycle),
    sample: sample("expired"),
  }),
  invite_sent: defineEvent({
    schemaVersion: 1,
    description: "An invitation was created or sent again.",
    payload: Type.Object(InviteLifecycle),
    sample: sample("pending"),
  }),
  invite_accepted: defineEvent({
    schemaVersion: 1,
    description: "An invitation was accepted.",
    payload: Type.Object({ ...InviteLifecycle, userId: Uuid }),
    sample: { ...sample("accepted"), userId: "7d3e9f10-2b4c-4a5d-8e6f-9a0b1c2d3e4f" },
  }),
  invite_revoked: defineEvent({
    schemaVersion: 1,
    description: "An invitation was revoked.",
    payload: Type.Object(InviteLifecycle),
    sample: sample("revoked"),
  }),
};
